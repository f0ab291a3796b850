#ifndef CX11_SHIM_H
#define CX11_SHIM_H

#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/Xatom.h>
#include <X11/Xresource.h>
#include <X11/keysym.h>
#include <X11/extensions/shape.h>
#include <X11/extensions/Xrender.h>
#include <X11/extensions/Xrandr.h>
#include <X11/extensions/Xfixes.h>
#include <X11/Xft/Xft.h>
#include <fontconfig/fontconfig.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include <fontconfig/fcfreetype.h>
#include <cairo/cairo.h>
#include <cairo/cairo-xlib.h>
#include <poll.h>
#include <fribidi/fribidi.h>

/* Only what Swift cannot import as it is. Function-like macros (DefaultScreen, RootWindow,
   ConnectionNumber) have X-prefixed function twins, and fontconfig's FC_* property names are
   plain strings ("family", "charset"), so neither needs a shim. */

/* ppoll (nanosecond timeouts for the run loop) is a GNU extension that Swift's Glibc module,
   built without _GNU_SOURCE, does not declare. */
struct timespec;
extern int ppoll(struct pollfd *fds, nfds_t nfds, const struct timespec *timeout, const __sigset_t *sigmask);

/* The Unicode bidirectional algorithm over one line of text: `visual` receives the line in
   display order, brackets mirrored and Arabic joined into presentation forms. The paragraph
   direction comes from the first strong character (FRIBIDI_PAR_ON, which Swift cannot import);
   *rtl is set to 1 when it is right-to-left. Returns 0 when FriBidi fails. */
static inline int cx11_bidi_line(const uint32_t *logical, int length, uint32_t *visual, int *rtl) {
    FriBidiParType direction = FRIBIDI_PAR_ON;
    FriBidiLevel levels = fribidi_log2vis(logical, length, &direction, visual, NULL, NULL, NULL);
    *rtl = FRIBIDI_IS_RTL(direction) ? 1 : 0;
    return levels != 0;
}

#endif
