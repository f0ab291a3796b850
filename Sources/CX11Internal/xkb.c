#include <X11/Xlibint.h>
#include <X11/XKBlib.h>
#include "CX11Internal.h"

int cx11_xkb_in_use(Display *display) {
    LockDisplay(display);
    int in_use = !(display->flags & XlibDisplayNoXkb) && display->xkb_info != NULL;
    UnlockDisplay(display);
    return in_use;
}

int cx11_xkb_use(Display *display, int *major, int *minor) {
    LockDisplay(display);
    int disabled = (display->flags & XlibDisplayNoXkb) != 0;
    int core_mapping_loaded = display->keysyms != NULL;
    UnlockDisplay(display);
    if (!disabled) return display->xkb_info != NULL;
    if (core_mapping_loaded) return 0;
    // With version pointers given, XkbUseExtension sets XKB up even on a display flagged as
    // having none (XKBUse.c: forceIgnore needs both NULL); on success it leaves the flag as
    // it was, so it is cleared here. On failure the flag stays set, as XOpenDisplay leaves it
    // on a server without XKEYBOARD.
    if (!XkbUseExtension(display, major, minor)) return 0;
    LockDisplay(display);
    display->flags &= ~XlibDisplayNoXkb;
    UnlockDisplay(display);
    return 1;
}
