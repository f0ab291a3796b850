#ifndef CX11_INTERNAL_H
#define CX11_INTERNAL_H

// What X11UI needs of Xlib's private display record (Xlibint.h), behind functions: the
// record's layout stays out of Swift, where Display stays an opaque pointer.

#include <X11/Xlib.h>

/// Whether the next XOpenDisplay calls skip XKEYBOARD's set-up (XkbIgnoreExtension, process
/// wide); returns 0 when XKB_FORCE overrides it.
int cx11_xkb_ignore(int ignore);

/// Starts using XKEYBOARD on a display opened while it was ignored: XkbUseExtension (two
/// round trips) and the display's "no XKB" flag cleared, so that key translation goes through
/// XKB as it does on a display opened normally. Returns 1 when XKB is in use afterwards, 0
/// when the server lacks it, XKB_DISABLE is set, or the core keyboard mapping was already
/// loaded (translation then stays on the core mapping, consistently).
int cx11_xkb_use(Display *display, int *major, int *minor);

/// Whether key translation on the display goes through XKEYBOARD.
int cx11_xkb_in_use(Display *display);

/// InternAtom requests queued in Xlib's output buffer without waiting: their replies are
/// read by an asynchronous reply handler (as XInternAtoms does for all but its last) while
/// the next request that waits (the RENDER check) waits for its own, which comes behind them:
/// all go out in one write, and one round trip brings every reply.
struct cx11_pending_atoms;

/// Queues the requests (nothing is sent yet); NULL when out of memory.
struct cx11_pending_atoms *cx11_atoms_send(Display *display, const char *const *names, int count);

/// Writes the atoms into `atoms` (count of them; None for a request that failed, whose error
/// went to the error handler) after waiting for any reply still missing (an XSync), and frees
/// the state. Returns how many atoms were interned.
int cx11_atoms_collect(struct cx11_pending_atoms *pending, unsigned long *atoms);

#endif
