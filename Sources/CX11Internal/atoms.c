#include <X11/Xlibint.h>
#include <X11/Xproto.h>
#include <stdlib.h>
#include <string.h>
#include "CX11Internal.h"

struct cx11_pending_atoms {
    Display *display;
    _XAsyncHandler async;
    uint64_t start_seq;
    uint64_t stop_seq;
    int count;
    int received;
    unsigned long *atoms;
};

// Called by Xlib for each reply (or error) it reads while another reply is awaited.
static Bool cx11_atom_reply(Display *display, xReply *rep, char *buf, int len, XPointer data) {
    struct cx11_pending_atoms *state = (struct cx11_pending_atoms *)data;
    uint64_t seq = X_DPY_GET_LAST_REQUEST_READ(display);
    if (seq < state->start_seq || seq > state->stop_seq) return False;
    // An error goes on to the error handler; the atom stays None.
    if (rep->generic.type == X_Error) return False;
    xInternAtomReply replbuf;
    xInternAtomReply *reply = (xInternAtomReply *)_XGetAsyncReply(
        display, (char *)&replbuf, rep, buf, len, (SIZEOF(xInternAtomReply) - SIZEOF(xReply)) >> 2, True);
    state->atoms[seq - state->start_seq] = reply->atom;
    state->received++;
    return True;
}

struct cx11_pending_atoms *cx11_atoms_send(Display *display, const char *const *names, int count) {
    struct cx11_pending_atoms *state = calloc(1, sizeof *state);
    if (!state) return NULL;
    state->atoms = calloc(count > 0 ? (size_t)count : 1, sizeof *state->atoms);
    if (!state->atoms) {
        free(state);
        return NULL;
    }
    state->display = display;
    state->count = count;
    Display *dpy = display;  // the name GetReq and Data expect
    LockDisplay(dpy);
    state->start_seq = X_DPY_GET_REQUEST(dpy) + 1;
    for (int i = 0; i < count; i++) {
        xInternAtomReq *req;
        long nbytes = (long)strlen(names[i]);
        GetReq(InternAtom, req);
        req->nbytes = (CARD16)nbytes;
        req->onlyIfExists = xFalse;
        req->length += (nbytes + 3) >> 2;
        Data(dpy, names[i], nbytes);
    }
    state->stop_seq = X_DPY_GET_REQUEST(display);
    state->async.next = display->async_handlers;
    state->async.handler = cx11_atom_reply;
    state->async.data = (XPointer)state;
    display->async_handlers = &state->async;
    UnlockDisplay(display);
    return state;
}

int cx11_atoms_collect(struct cx11_pending_atoms *state, unsigned long *atoms) {
    Display *display = state->display;
    // Replies still missing (nothing waited since the requests were queued): one round trip.
    if (state->received < state->count) XSync(display, False);
    LockDisplay(display);
    DeqAsyncHandler(display, &state->async);
    UnlockDisplay(display);
    int interned = 0;
    for (int i = 0; i < state->count; i++) {
        atoms[i] = state->atoms[i];
        if (atoms[i] != None) interned++;
    }
    free(state->atoms);
    free(state);
    return interned;
}
