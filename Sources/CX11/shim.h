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
   display order, brackets mirrored and Arabic joined into presentation forms (one for one, so
   positions still correspond); `visual_to_logical` the logical position of each display
   position, and `levels` each logical position's embedding level (odd: right-to-left). `base`
   is the paragraph's direction: 1 right-to-left, 0 left-to-right, -1 from the line's first
   strong character (FRIBIDI_PAR_ON, which Swift cannot import). *rtl is set to 1 when the
   direction used is right-to-left. Returns 0 when FriBidi fails. */
static inline int cx11_bidi_line(const uint32_t *logical, int length, int base, uint32_t *visual,
                                 int *visual_to_logical, signed char *levels, int *rtl) {
    FriBidiParType direction = base > 0 ? FRIBIDI_PAR_RTL : base == 0 ? FRIBIDI_PAR_LTR : FRIBIDI_PAR_ON;
    FriBidiLevel max_level = fribidi_log2vis(logical, length, &direction, visual, NULL, visual_to_logical, levels);
    *rtl = FRIBIDI_IS_RTL(direction) ? 1 : 0;
    return max_level != 0;
}

/* A scalar's strong direction (UAX #9 types L, R and AL): 1 right-to-left, 0 left-to-right,
   -1 neither (numbers, punctuation, spaces, marks, explicit formatting characters). */
static inline int cx11_bidi_strong_direction(uint32_t scalar) {
    FriBidiCharType type = fribidi_get_bidi_type(scalar);
    if (!FRIBIDI_IS_LETTER(type)) return -1;
    return FRIBIDI_IS_RTL(type) ? 1 : 0;
}

#endif
