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

/* Only what Swift cannot import as it is. Function-like macros (DefaultScreen, RootWindow,
   ConnectionNumber) have X-prefixed function twins, and fontconfig's FC_* property names are
   plain strings ("family", "charset"), so neither needs a shim. */

/* ppoll (nanosecond timeouts for the run loop) is a GNU extension that Swift's Glibc module,
   built without _GNU_SOURCE, does not declare. */
struct timespec;
extern int ppoll(struct pollfd *fds, nfds_t nfds, const struct timespec *timeout, const __sigset_t *sigmask);

#endif
