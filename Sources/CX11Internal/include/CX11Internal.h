#ifndef CX11_INTERNAL_H
#define CX11_INTERNAL_H

// What X11UI needs of Xlib's private display record (Xlibint.h), behind functions: the
// record's layout stays out of Swift, where Display stays an opaque pointer.

#include <X11/Xlib.h>

/// Where a display's server listens, as libxcb will connect to it: a local socket's path (its
/// abstract name is the same path after a NUL) and a TCP port; NULL path or port 0 for none.
/// Both are set for a bare local name (`:1`), which libxcb tries on TCP at localhost when
/// neither local socket answers.
struct cx11_server_address {
    const char *unix_path;
    int tcp_port;
};

/// How cx11_open_display ended when it returned NULL.
enum cx11_open_failure {
    /// XOpenDisplay failed: nothing listens there, the server refused (libxcb writes its
    /// reason to standard error), or it closed the connection during the setup (as a server
    /// resetting when its last client left does).
    CX11_OPEN_FAILED = 1,
    /// The deadline passed before the display was open.
    CX11_OPEN_TIMED_OUT = 2,
    /// The connection failed after the setup, while XOpenDisplay waited for a reply.
    CX11_OPEN_LOST = 3,
};

struct cx11_open_result {
    /// A cx11_open_failure when NULL was returned, else 0.
    int failure;
    /// Whether XKEYBOARD's set-up was skipped on the display returned (see cx11_xkb_use).
    int xkb_deferred;
};

/// XOpenDisplay with a deadline: when the server has not completed the connection (setup and
/// XOpenDisplay's own replies) within `timeout_ms`, the sockets made meanwhile that lead to
/// `address` (NULL: any) are shut down and NULL is returned (see open.c). With `defer_xkb`,
/// XKEYBOARD's set-up is skipped for this display only (unless XKB_FORCE is set).
Display *cx11_open_display(const char *name, long timeout_ms, const struct cx11_server_address *address, int defer_xkb,
                           struct cx11_open_result *result);

/// Installs Xlib's I/O error handler: during cx11_open_display it ends the open on its thread;
/// otherwise it calls `handler`. Returns the handler installed before (NULL if it was this one).
XIOErrorHandler cx11_set_io_error_handler(XIOErrorHandler handler);

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

/// A GetSelectionOwner request queued in Xlib's output buffer without waiting, its reply read
/// by an asynchronous reply handler while the next request that waits waits for its own (as
/// the atoms' are): the XSETTINGS manager is asked for at start in a round trip made anyway.
struct cx11_pending_owner;

/// Queues the request (nothing is sent yet); NULL when out of memory.
struct cx11_pending_owner *cx11_selection_owner_send(Display *display, Atom selection);

/// The selection's owner (None when there is none, or when the request failed: its error went
/// to the error handler), after waiting for the reply if no round trip brought it yet (an
/// XSync); frees the state.
Window cx11_selection_owner_collect(struct cx11_pending_owner *pending);

/// Whether `resource` (a window) was made on this connection: its id is in the range the
/// server gave this client (Xlib's resource base and mask). A selection's owner named by
/// another client may be one of this client's own windows.
int cx11_is_own_resource(Display *display, XID resource);

#endif
