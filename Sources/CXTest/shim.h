#ifndef CXTEST_SHIM_H
#define CXTEST_SHIM_H
#include <X11/Xlib.h>
#include <X11/extensions/XTest.h>
#include <X11/extensions/XRes.h>
#include <X11/extensions/Xfixes.h>
#include <spawn.h>

// glibc declares these only for _GNU_SOURCE / _DEFAULT_SOURCE, which the Swift Glibc module
// is not built with: the test harness's children get their own descriptors and nothing else.
extern int pipe2(int fds[2], int flags);
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);

// Xlib's entry for an event read from the connection (Xlibint.h): `wire` is one event as the
// server sends it, a GenericEvent with its extra bytes right after its first 32. Tests hand it
// recorded events no server here can be made to send (XInput 2.2 touch events: Xvfb has no
// touch device); Xlib converts them as it would the server's (an extension's cookie handler
// for a GenericEvent) and queues them.
extern void _XEnq(Display *display, void *wire);

static inline void cxtest_enqueue_wire_event(Display *display, void *wire) {
    XLockDisplay(display);
    _XEnq(display, wire);
    XUnlockDisplay(display);
}
#endif
