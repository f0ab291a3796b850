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
#include <cairo/cairo.h>
#include <cairo/cairo-xlib.h>
#include <poll.h>

/* Macros and variadic calls Swift cannot import, and nothing more. */

/* Nothing is shimmed yet: every call X11UI makes imports as it is. Function-like macros
   (DefaultScreen, RootWindow, ConnectionNumber) have X-prefixed function twins, and
   fontconfig's FC_* property names are plain strings ("family", "charset"). */

#endif
