#include <X11/Xlibint.h>
#include <X11/Xproto.h>
#include <stdlib.h>
#include "CX11Internal.h"

struct cx11_pending_owner {
    Display *display;
    _XAsyncHandler async;
    uint64_t seq;
    /// Set once the reply (or an error) was read.
    int answered;
    Window owner;
};

// Called by Xlib for each reply or error it reads while another reply is awaited; takes the
// GetSelectionOwner reply and leaves everything else (an error too) to Xlib.
static Bool cx11_owner_reply(Display *display, xReply *rep, char *buf, int len, XPointer data) {
    struct cx11_pending_owner *state = (struct cx11_pending_owner *)data;
    if (X_DPY_GET_LAST_REQUEST_READ(display) != state->seq) return False;
    state->answered = 1;
    if (rep->generic.type == X_Error) return False;
    xGetSelectionOwnerReply replbuf;
    xGetSelectionOwnerReply *reply = (xGetSelectionOwnerReply *)_XGetAsyncReply(
        display, (char *)&replbuf, rep, buf, len, (SIZEOF(xGetSelectionOwnerReply) - SIZEOF(xReply)) >> 2, True);
    state->owner = reply->owner;
    return True;
}

struct cx11_pending_owner *cx11_selection_owner_send(Display *display, Atom selection) {
    struct cx11_pending_owner *state = calloc(1, sizeof *state);
    if (!state) return NULL;
    state->display = display;
    Display *dpy = display;  // the name GetResReq expects
    LockDisplay(dpy);
    xResourceReq *req;
    GetResReq(GetSelectionOwner, selection, req);
    (void)req;
    state->seq = X_DPY_GET_REQUEST(dpy);
    state->async.next = dpy->async_handlers;
    state->async.handler = cx11_owner_reply;
    state->async.data = (XPointer)state;
    dpy->async_handlers = &state->async;
    UnlockDisplay(dpy);
    return state;
}

Window cx11_selection_owner_collect(struct cx11_pending_owner *state) {
    Display *display = state->display;
    // Nothing waited for a reply since the request was queued: one round trip.
    if (!state->answered) XSync(display, False);
    LockDisplay(display);
    DeqAsyncHandler(display, &state->async);
    UnlockDisplay(display);
    Window owner = state->owner;
    free(state);
    return owner;
}

int cx11_is_own_resource(Display *display, XID resource) {
    Display *dpy = display;
    return (resource & ~dpy->resource_mask) == dpy->resource_base;
}
