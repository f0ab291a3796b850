/* tooltip-under-cursor X Y: how a program's tooltip lies against the cursor the X server shows.
 *
 * Moves the pointer with XTest to 30 px left of (X, Y), then to (X, Y), waits up to 5 s for an
 * override-redirect window to map (the tooltip), and prints one line:
 *
 *   cursor WxH hot (hx,hy) ink x,y WxH  tooltip x,y WxH  overlap A px  gap G px
 *
 * The ink is the bounding box of the cursor image's visible pixels (alpha > 0), read through
 * XFixes and placed with its hot spot at (X, Y); the overlap is the area shared with the
 * tooltip window; the gap is the distance from the ink's bottom to the tooltip's top (negative
 * when the tooltip starts above the ink's bottom). Exit status 2 when no tooltip came.
 * Any X11 program can be measured: scripts/compare-cursor-gtk.sh runs it on GTK 3 and X11UI. */
#include <X11/Xlib.h>
#include <X11/extensions/XTest.h>
#include <X11/extensions/Xfixes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000L + t.tv_nsec / 1000000L;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: tooltip-under-cursor X Y\n");
        return 1;
    }
    int x = atoi(argv[1]), y = atoi(argv[2]);
    Display *display = XOpenDisplay(NULL);
    if (!display) {
        fprintf(stderr, "tooltip-under-cursor: cannot open the display\n");
        return 1;
    }
    Window root = DefaultRootWindow(display);
    XSelectInput(display, root, SubstructureNotifyMask);
    XTestFakeMotionEvent(display, -1, x - 30, y, CurrentTime);
    XSync(display, False);
    struct timespec step = {0, 50 * 1000000L};
    nanosleep(&step, NULL); /* the program sees an entry, then a rest: a hover as a user makes it */
    XTestFakeMotionEvent(display, -1, x, y, CurrentTime);
    XSync(display, False);

    Window tooltip = 0;
    long deadline = now_ms() + 5000;
    while (!tooltip && now_ms() < deadline) {
        while (XPending(display)) {
            XEvent event;
            XNextEvent(display, &event);
            if (event.type == MapNotify && event.xmap.override_redirect) tooltip = event.xmap.window;
        }
        if (tooltip) break;
        struct pollfd fd = {ConnectionNumber(display), POLLIN, 0};
        poll(&fd, 1, 100);
    }
    if (!tooltip) {
        fprintf(stderr, "tooltip-under-cursor: no tooltip mapped within 5 s\n");
        return 2;
    }
    /* The tooltip's final place: programs may move it right after the map. */
    nanosleep(&step, NULL);
    XWindowAttributes attributes;
    XGetWindowAttributes(display, tooltip, &attributes);
    int tx, ty;
    Window child;
    XTranslateCoordinates(display, tooltip, root, 0, 0, &tx, &ty, &child);

    XFixesCursorImage *image = XFixesGetCursorImage(display);
    if (!image) {
        fprintf(stderr, "tooltip-under-cursor: no cursor image (XFixes)\n");
        return 1;
    }
    int minX = image->width, minY = image->height, maxX = -1, maxY = -1;
    for (int row = 0; row < image->height; row++)
        for (int column = 0; column < image->width; column++)
            if ((image->pixels[row * image->width + column] >> 24) & 0xff) {
                if (column < minX) minX = column;
                if (column > maxX) maxX = column;
                if (row < minY) minY = row;
                if (row > maxY) maxY = row;
            }
    int inkX = x - image->xhot + minX, inkY = y - image->yhot + minY;
    int inkW = maxX - minX + 1, inkH = maxY - minY + 1;
    int left = inkX > tx ? inkX : tx, right = inkX + inkW < tx + attributes.width ? inkX + inkW : tx + attributes.width;
    int top = inkY > ty ? inkY : ty, bottom = inkY + inkH < ty + attributes.height ? inkY + inkH : ty + attributes.height;
    long overlap = (right > left && bottom > top) ? (long)(right - left) * (bottom - top) : 0;
    printf("cursor %dx%d hot (%d,%d) ink %d,%d %dx%d  tooltip %d,%d %dx%d  overlap %ld px  gap %d px\n",
           image->width, image->height, image->xhot, image->yhot, inkX, inkY, inkW, inkH, tx, ty,
           attributes.width, attributes.height, overlap, ty - (inkY + inkH));
    XFree(image);
    XCloseDisplay(display);
    return 0;
}
