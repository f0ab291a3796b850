/* The floor for tooltip-bench (`make bench`): the least a client on X11UI's own libraries
 * (Xlib, Xft, cairo, Shape) can do for a hover tooltip, measured beside X11UI and GTK in the
 * same run. A window titled "peer-floor", 200x80 at (0, 0), holds one green label drawn with
 * cairo and Xft; resting on it for 500 ms shows a tooltip below the pointer. The tooltip is
 * drawn once at start into the tooltip window's background pixmap (cairo for the bubble, Xft
 * for the text) and shaped once, so a show is one ConfigureWindow and one MapWindow and a
 * hide one UnmapWindow, with no round trip. Leaving the label, Escape or a button press
 * hides it at once. Like X11UI, it sleeps in ppoll() until the connection has data or the
 * hover deadline passes (waking 1 ms early for a long wait, whose timer the kernel may let run
 * late by 0.1%). */
#define _GNU_SOURCE
#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/keysym.h>
#include <X11/extensions/shape.h>
#include <X11/Xft/Xft.h>
#include <cairo/cairo-xlib.h>
#include <math.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { WIDTH = 200, HEIGHT = 80, PADDING = 8, GAP = 8, DELAY_MS = 500 };
static const int label_x = 10, label_y = 10, label_w = 180, label_h = 60;
static const char *label_text = "Hover me";
static const char *tip_text = "A tooltip from the floor client";

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void rounded_rect(cairo_t *cr, double x, double y, double w, double h, double r)
{
    cairo_new_sub_path(cr);
    cairo_arc(cr, x + w - r, y + r, r, -M_PI / 2, 0);
    cairo_arc(cr, x + w - r, y + h - r, r, 0, M_PI / 2);
    cairo_arc(cr, x + r, y + h - r, r, M_PI / 2, M_PI);
    cairo_arc(cr, x + r, y + r, r, M_PI, 3 * M_PI / 2);
    cairo_close_path(cr);
}

static int inside_label(int x, int y)
{
    return x >= label_x && x < label_x + label_w && y >= label_y && y < label_y + label_h;
}

int main(void)
{
    Display *dpy = XOpenDisplay(NULL);
    if (!dpy) {
        fprintf(stderr, "floor-peer: cannot open display\n");
        return 1;
    }
    int screen = DefaultScreen(dpy);
    Window root = RootWindow(dpy, screen);
    Visual *visual = DefaultVisual(dpy, screen);
    Colormap colormap = DefaultColormap(dpy, screen);
    int depth = DefaultDepth(dpy, screen);

    char *names[] = {"WM_PROTOCOLS", "WM_DELETE_WINDOW", "_NET_WM_NAME", "UTF8_STRING", "_NET_WM_PID",
                     "_NET_WM_WINDOW_TYPE", "_NET_WM_WINDOW_TYPE_TOOLTIP"};
    Atom atoms[7];
    XInternAtoms(dpy, names, 7, False, atoms);

    XftFont *font = XftFontOpenName(dpy, screen, "sans-serif:pixelsize=13");
    if (!font) {
        fprintf(stderr, "floor-peer: no font\n");
        return 1;
    }
    XftColor white, black;
    XRenderColor rc_white = {0xf5f5, 0xf5f5, 0xf7f7, 0xffff}, rc_black = {0, 0, 0, 0xffff};
    XftColorAllocValue(dpy, visual, colormap, &rc_white, &white);
    XftColorAllocValue(dpy, visual, colormap, &rc_black, &black);

    /* The main window. */
    XSetWindowAttributes wa = {0};
    wa.background_pixel = WhitePixel(dpy, screen);
    wa.event_mask = ExposureMask | PointerMotionMask | EnterWindowMask | LeaveWindowMask | ButtonPressMask |
                    KeyPressMask | StructureNotifyMask;
    Window win = XCreateWindow(dpy, root, 0, 0, WIDTH, HEIGHT, 0, depth, InputOutput, visual,
                               CWBackPixel | CWEventMask, &wa);
    XStoreName(dpy, win, "peer-floor");
    XChangeProperty(dpy, win, atoms[2], atoms[3], 8, PropModeReplace, (unsigned char *)"peer-floor", 10);
    long pid = getpid();
    XChangeProperty(dpy, win, atoms[4], XA_CARDINAL, 32, PropModeReplace, (unsigned char *)&pid, 1);
    XSetWMProtocols(dpy, win, &atoms[1], 1);
    XClassHint class_hint = {"floor-peer", "Floor-peer"};
    XSetClassHint(dpy, win, &class_hint);
    XSizeHints size_hints = {.flags = PPosition | PSize, .x = 0, .y = 0, .width = WIDTH, .height = HEIGHT};
    XSetWMNormalHints(dpy, win, &size_hints);
    XMapWindow(dpy, win);
    XFlush(dpy); /* the window maps now; the rest is done while the server maps it */
    cairo_surface_t *win_surface = cairo_xlib_surface_create(dpy, win, visual, WIDTH, HEIGHT);
    XftDraw *win_draw = XftDrawCreate(dpy, win, visual, colormap);

    /* The tooltip: sized to its text, drawn once into its background pixmap, shaped once. */
    XGlyphInfo extents;
    XftTextExtentsUtf8(dpy, font, (const FcChar8 *)tip_text, (int)strlen(tip_text), &extents);
    int tip_w = extents.xOff + 2 * PADDING, tip_h = font->ascent + font->descent + 2 * PADDING;
    Pixmap tip_pixmap = XCreatePixmap(dpy, root, tip_w, tip_h, depth);
    cairo_surface_t *tip_surface = cairo_xlib_surface_create(dpy, tip_pixmap, visual, tip_w, tip_h);
    cairo_t *cr = cairo_create(tip_surface);
    rounded_rect(cr, 0.5, 0.5, tip_w - 1, tip_h - 1, 6);
    cairo_set_source_rgb(cr, 0x2c / 255.0, 0x2c / 255.0, 0x2e / 255.0);
    cairo_fill_preserve(cr);
    cairo_set_source_rgb(cr, 0x48 / 255.0, 0x48 / 255.0, 0x4a / 255.0);
    cairo_set_line_width(cr, 1);
    cairo_stroke(cr);
    cairo_destroy(cr);
    cairo_surface_flush(tip_surface);
    XftDraw *tip_draw = XftDrawCreate(dpy, tip_pixmap, visual, colormap);
    XftDrawStringUtf8(tip_draw, &white, font, PADDING, PADDING + font->ascent, (const FcChar8 *)tip_text,
                      (int)strlen(tip_text));

    Pixmap mask = XCreatePixmap(dpy, root, tip_w, tip_h, 1);
    cairo_surface_t *mask_surface =
        cairo_xlib_surface_create_for_bitmap(dpy, mask, DefaultScreenOfDisplay(dpy), tip_w, tip_h);
    cr = cairo_create(mask_surface);
    cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR);
    cairo_paint(cr);
    cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
    cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE);
    rounded_rect(cr, 0, 0, tip_w, tip_h, 6);
    cairo_fill(cr);
    cairo_destroy(cr);
    cairo_surface_destroy(mask_surface);

    XSetWindowAttributes ta = {0};
    ta.override_redirect = True;
    ta.background_pixmap = tip_pixmap;
    ta.save_under = True;
    Window tip = XCreateWindow(dpy, root, 0, 0, tip_w, tip_h, 0, depth, InputOutput, visual,
                               CWOverrideRedirect | CWBackPixmap | CWSaveUnder, &ta);
    XShapeCombineMask(dpy, tip, ShapeBounding, 0, 0, mask, ShapeSet);
    XFreePixmap(dpy, mask);
    XChangeProperty(dpy, tip, atoms[5], XA_ATOM, 32, PropModeReplace, (unsigned char *)&atoms[6], 1);
    XChangeProperty(dpy, tip, atoms[2], atoms[3], 8, PropModeReplace, (unsigned char *)tip_text,
                    (int)strlen(tip_text));
    XSetTransientForHint(dpy, tip, win);
    XFlush(dpy);

    int64_t deadline = -1; /* the hover deadline, or -1 */
    int shown = 0, dismissed = 0, pointer_x = 0, root_y_offset = 0;
    int fd = ConnectionNumber(dpy);
    for (;;) {
        while (XPending(dpy)) {
            XEvent ev;
            XNextEvent(dpy, &ev);
            int x = 0, y = 0, in = 0, leave = 0;
            switch (ev.type) {
            case Expose:
                if (ev.xexpose.count == 0) {
                    cairo_t *c = cairo_create(win_surface);
                    cairo_set_source_rgb(c, 0x34 / 255.0, 0xc7 / 255.0, 0x59 / 255.0);
                    rounded_rect(c, label_x, label_y, label_w, label_h, 6);
                    cairo_fill(c);
                    cairo_destroy(c);
                    cairo_surface_flush(win_surface);
                    XftTextExtentsUtf8(dpy, font, (const FcChar8 *)label_text, (int)strlen(label_text), &extents);
                    XftDrawStringUtf8(win_draw, &black, font, label_x + (label_w - extents.xOff) / 2,
                                      label_y + (label_h + font->ascent - font->descent) / 2,
                                      (const FcChar8 *)label_text, (int)strlen(label_text));
                }
                break;
            case EnterNotify:
                x = ev.xcrossing.x, y = ev.xcrossing.y, in = inside_label(x, y);
                pointer_x = ev.xcrossing.x_root, root_y_offset = ev.xcrossing.y_root - y;
                break;
            case MotionNotify:
                x = ev.xmotion.x, y = ev.xmotion.y, in = inside_label(x, y), leave = !in;
                pointer_x = ev.xmotion.x_root, root_y_offset = ev.xmotion.y_root - y;
                break;
            case LeaveNotify:
                leave = 1;
                break;
            case KeyPress:
                if (XLookupKeysym(&ev.xkey, 0) == XK_Escape && (shown || deadline >= 0)) {
                    leave = 1;
                    dismissed = 1; /* until the pointer leaves the label */
                }
                break;
            case ButtonPress:
                leave = 1;
                dismissed = 1;
                break;
            case ClientMessage:
                if ((Atom)ev.xclient.data.l[0] == atoms[1]) return 0;
                break;
            }
            if (ev.type == EnterNotify || ev.type == MotionNotify) {
                if (!in) dismissed = 0;
                if (in && !shown && deadline < 0 && !dismissed) deadline = now_ns() + DELAY_MS * 1000000LL;
            }
            if (leave) {
                if (ev.type == LeaveNotify || (ev.type == MotionNotify && !in)) dismissed = 0;
                deadline = -1;
                if (shown) {
                    XUnmapWindow(dpy, tip);
                    shown = 0;
                }
            }
        }
        if (deadline >= 0 && now_ns() >= deadline) {
            deadline = -1;
            XWindowChanges changes = {.x = pointer_x - tip_w / 2,
                                      .y = root_y_offset + label_y + label_h + GAP,
                                      .stack_mode = Above};
            XConfigureWindow(dpy, tip, CWX | CWY | CWStackMode, &changes);
            XMapWindow(dpy, tip);
            shown = 1;
        }
        XFlush(dpy);
        if (XEventsQueued(dpy, QueuedAlready) > 0) continue;
        struct pollfd pfd = {fd, POLLIN, 0};
        if (deadline >= 0) {
            int64_t wait = deadline - now_ns();
            if (wait < 0) wait = 0;
            /* Linux lets a ppoll() timeout run late by 0.1% of its length (0.5 ms of the 500 ms
             * delay): wake 1 ms early and wait out the rest, which is short, as X11UI does. */
            if (wait > 2000000) wait -= 1000000;
            struct timespec span = {wait / 1000000000, wait % 1000000000};
            ppoll(&pfd, 1, &span, NULL);
        } else {
            ppoll(&pfd, 1, NULL, NULL);
        }
    }
}
