#ifndef CDBUS_SHIM_H
#define CDBUS_SHIM_H

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

/* libdbus-1, opened with dlopen when a program starts with a session bus (to read the desktop's
   appearance from its portal) or finds an accessibility bus: linked, it would load into every
   program, also those started without a bus. The declarations below are libdbus-1.so.3's
   stable ABI (dbus/dbus-message.h, dbus-errors.h, dbus-shared.h), written out so that building
   X11UI needs no D-Bus headers. Only non-variadic functions are used; messages are built and
   read with iterators. */

typedef uint32_t cdbus_bool_t;
typedef struct DBusConnection DBusConnection;
typedef struct DBusMessage DBusMessage;
typedef struct DBusWatch DBusWatch;
typedef struct DBusTimeout DBusTimeout;

/* The iterator is a stack object whose size and alignment libdbus fixes on 64-bit and 32-bit
   systems alike with these fields (dbus-message.h). */
typedef struct {
    void *dummy1;
    void *dummy2;
    uint32_t dummy3;
    int dummy4, dummy5, dummy6, dummy7, dummy8, dummy9, dummy10, dummy11;
    int pad1;
    void *pad2;
    void *pad3;
} cdbus_iter;

typedef struct {
    const char *name;
    const char *message;
    unsigned int dummy1 : 1, dummy2 : 1, dummy3 : 1, dummy4 : 1, dummy5 : 1;
    void *padding1;
} cdbus_error;

enum {
    CDBUS_WATCH_READABLE = 1,
    CDBUS_WATCH_WRITABLE = 2,
    CDBUS_WATCH_ERROR = 4,
    CDBUS_WATCH_HANGUP = 8,
    CDBUS_DISPATCH_DATA_REMAINS = 0,
    CDBUS_HANDLER_RESULT_HANDLED = 0,
    CDBUS_HANDLER_RESULT_NOT_YET_HANDLED = 1,
    CDBUS_MESSAGE_TYPE_METHOD_CALL = 1,
    CDBUS_MESSAGE_TYPE_METHOD_RETURN = 2,
    CDBUS_MESSAGE_TYPE_ERROR = 3,
    CDBUS_MESSAGE_TYPE_SIGNAL = 4,
};

typedef cdbus_bool_t (*cdbus_add_watch_fn)(DBusWatch *, void *);
typedef void (*cdbus_watch_fn)(DBusWatch *, void *);
typedef cdbus_bool_t (*cdbus_add_timeout_fn)(DBusTimeout *, void *);
typedef void (*cdbus_timeout_fn)(DBusTimeout *, void *);
typedef void (*cdbus_free_fn)(void *);
typedef int (*cdbus_filter_fn)(DBusConnection *, DBusMessage *, void *);
typedef void (*cdbus_dispatch_status_fn)(DBusConnection *, int, void *);

struct cdbus {
    void *library;
    void (*error_init)(cdbus_error *);
    void (*error_free)(cdbus_error *);
    DBusConnection *(*connection_open_private)(const char *, cdbus_error *);
    cdbus_bool_t (*bus_register)(DBusConnection *, cdbus_error *);
    const char *(*bus_get_unique_name)(DBusConnection *);
    void (*bus_add_match)(DBusConnection *, const char *, cdbus_error *);
    void (*connection_close)(DBusConnection *);
    void (*connection_unref)(DBusConnection *);
    void (*connection_set_exit_on_disconnect)(DBusConnection *, cdbus_bool_t);
    cdbus_bool_t (*connection_get_is_connected)(DBusConnection *);
    cdbus_bool_t (*connection_set_watch_functions)(DBusConnection *, cdbus_add_watch_fn, cdbus_watch_fn,
                                                   cdbus_watch_fn, void *, cdbus_free_fn);
    cdbus_bool_t (*connection_set_timeout_functions)(DBusConnection *, cdbus_add_timeout_fn, cdbus_timeout_fn,
                                                     cdbus_timeout_fn, void *, cdbus_free_fn);
    void (*connection_set_dispatch_status_function)(DBusConnection *, cdbus_dispatch_status_fn, void *,
                                                     cdbus_free_fn);
    cdbus_bool_t (*connection_add_filter)(DBusConnection *, cdbus_filter_fn, void *, cdbus_free_fn);
    int (*connection_dispatch)(DBusConnection *);
    int (*connection_get_dispatch_status)(DBusConnection *);
    cdbus_bool_t (*connection_send)(DBusConnection *, DBusMessage *, uint32_t *);
    DBusMessage *(*connection_send_with_reply_and_block)(DBusConnection *, DBusMessage *, int, cdbus_error *);
    void (*connection_flush)(DBusConnection *);
    int (*watch_get_unix_fd)(DBusWatch *);
    unsigned int (*watch_get_flags)(DBusWatch *);
    cdbus_bool_t (*watch_get_enabled)(DBusWatch *);
    cdbus_bool_t (*watch_handle)(DBusWatch *, unsigned int);
    int (*timeout_get_interval)(DBusTimeout *);
    cdbus_bool_t (*timeout_get_enabled)(DBusTimeout *);
    cdbus_bool_t (*timeout_handle)(DBusTimeout *);
    DBusMessage *(*message_new_method_call)(const char *, const char *, const char *, const char *);
    DBusMessage *(*message_new_method_return)(DBusMessage *);
    DBusMessage *(*message_new_error)(DBusMessage *, const char *, const char *);
    DBusMessage *(*message_new_signal)(const char *, const char *, const char *);
    void (*message_unref)(DBusMessage *);
    int (*message_get_type)(DBusMessage *);
    const char *(*message_get_path)(DBusMessage *);
    const char *(*message_get_interface)(DBusMessage *);
    const char *(*message_get_member)(DBusMessage *);
    const char *(*message_get_sender)(DBusMessage *);
    const char *(*message_get_error_name)(DBusMessage *);
    cdbus_bool_t (*message_get_no_reply)(DBusMessage *);
    uint32_t (*message_get_reply_serial)(DBusMessage *);
    cdbus_bool_t (*message_iter_init)(DBusMessage *, cdbus_iter *);
    void (*message_iter_init_append)(DBusMessage *, cdbus_iter *);
    int (*message_iter_get_arg_type)(cdbus_iter *);
    void (*message_iter_get_basic)(cdbus_iter *, void *);
    cdbus_bool_t (*message_iter_next)(cdbus_iter *);
    void (*message_iter_recurse)(cdbus_iter *, cdbus_iter *);
    cdbus_bool_t (*message_iter_append_basic)(cdbus_iter *, int, const void *);
    cdbus_bool_t (*message_iter_open_container)(cdbus_iter *, int, const char *, cdbus_iter *);
    cdbus_bool_t (*message_iter_close_container)(cdbus_iter *, cdbus_iter *);
    char *(*message_iter_get_signature)(cdbus_iter *);
    void (*free)(void *);
    cdbus_bool_t (*connection_read_write)(DBusConnection *, int);
    void (*connection_set_max_message_size)(DBusConnection *, long);
};

/* Opens libdbus-1 and finds its functions; returns 0 (and leaves nothing open) when the
   library or one of them is missing. */
static inline int cdbus_load(struct cdbus *d) {
    memset(d, 0, sizeof *d);
    void *library = dlopen("libdbus-1.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!library) return 0;
    void **fields[] = {
        (void **)&d->error_init, (void **)&d->error_free, (void **)&d->connection_open_private,
        (void **)&d->bus_register, (void **)&d->bus_get_unique_name, (void **)&d->bus_add_match,
        (void **)&d->connection_close, (void **)&d->connection_unref,
        (void **)&d->connection_set_exit_on_disconnect, (void **)&d->connection_get_is_connected,
        (void **)&d->connection_set_watch_functions, (void **)&d->connection_set_timeout_functions,
        (void **)&d->connection_set_dispatch_status_function, (void **)&d->connection_add_filter,
        (void **)&d->connection_dispatch, (void **)&d->connection_get_dispatch_status,
        (void **)&d->connection_send, (void **)&d->connection_send_with_reply_and_block,
        (void **)&d->connection_flush, (void **)&d->watch_get_unix_fd, (void **)&d->watch_get_flags,
        (void **)&d->watch_get_enabled, (void **)&d->watch_handle, (void **)&d->timeout_get_interval,
        (void **)&d->timeout_get_enabled, (void **)&d->timeout_handle, (void **)&d->message_new_method_call,
        (void **)&d->message_new_method_return, (void **)&d->message_new_error, (void **)&d->message_new_signal,
        (void **)&d->message_unref, (void **)&d->message_get_type, (void **)&d->message_get_path,
        (void **)&d->message_get_interface, (void **)&d->message_get_member, (void **)&d->message_get_sender,
        (void **)&d->message_get_error_name, (void **)&d->message_get_no_reply, (void **)&d->message_get_reply_serial, (void **)&d->message_iter_init,
        (void **)&d->message_iter_init_append, (void **)&d->message_iter_get_arg_type,
        (void **)&d->message_iter_get_basic, (void **)&d->message_iter_next, (void **)&d->message_iter_recurse,
        (void **)&d->message_iter_append_basic, (void **)&d->message_iter_open_container,
        (void **)&d->message_iter_close_container, (void **)&d->message_iter_get_signature, (void **)&d->free,
        (void **)&d->connection_read_write, (void **)&d->connection_set_max_message_size,
    };
    const char *names[] = {
        "dbus_error_init", "dbus_error_free", "dbus_connection_open_private",
        "dbus_bus_register", "dbus_bus_get_unique_name", "dbus_bus_add_match",
        "dbus_connection_close", "dbus_connection_unref",
        "dbus_connection_set_exit_on_disconnect", "dbus_connection_get_is_connected",
        "dbus_connection_set_watch_functions", "dbus_connection_set_timeout_functions",
        "dbus_connection_set_dispatch_status_function", "dbus_connection_add_filter",
        "dbus_connection_dispatch", "dbus_connection_get_dispatch_status",
        "dbus_connection_send", "dbus_connection_send_with_reply_and_block",
        "dbus_connection_flush", "dbus_watch_get_unix_fd", "dbus_watch_get_flags",
        "dbus_watch_get_enabled", "dbus_watch_handle", "dbus_timeout_get_interval",
        "dbus_timeout_get_enabled", "dbus_timeout_handle", "dbus_message_new_method_call",
        "dbus_message_new_method_return", "dbus_message_new_error", "dbus_message_new_signal",
        "dbus_message_unref", "dbus_message_get_type", "dbus_message_get_path",
        "dbus_message_get_interface", "dbus_message_get_member", "dbus_message_get_sender",
        "dbus_message_get_error_name", "dbus_message_get_no_reply", "dbus_message_get_reply_serial", "dbus_message_iter_init",
        "dbus_message_iter_init_append", "dbus_message_iter_get_arg_type",
        "dbus_message_iter_get_basic", "dbus_message_iter_next", "dbus_message_iter_recurse",
        "dbus_message_iter_append_basic", "dbus_message_iter_open_container",
        "dbus_message_iter_close_container", "dbus_message_iter_get_signature", "dbus_free",
        "dbus_connection_read_write", "dbus_connection_set_max_message_size",
    };
    _Static_assert(sizeof fields / sizeof fields[0] == sizeof names / sizeof names[0], "one name per field");
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++) {
        *fields[i] = dlsym(library, names[i]);
        if (!*fields[i]) {
            dlclose(library);
            memset(d, 0, sizeof *d);
            return 0;
        }
    }
    d->library = library;
    return 1;
}

/* A bound on a call that waits in the kernel where nothing else can wake it: libdbus connects
   its socket itself, blocking, and a Unix socket's connect waits while the listener's queue is
   full, for as long as the listener never accepts (a shutdown() of the connecting socket does
   not wake it; a signal does). Any process that names its own socket as a bus can keep that
   queue full.
   
   So the call runs on the calling thread as usual while a second thread waits for the
   deadline. If the deadline passes first, it sends the calling thread SIGURG, every 20 ms
   until the call returns: the handler installed for the call's duration does nothing and has
   no SA_RESTART, so the waiting connect returns EINTR and libdbus gives up on that address.
   SIGURG is the signal of TCP urgent data, which no X11UI program asks for; the previous
   handler and signal mask come back as the call returns, and a SIGURG that arrives meanwhile
   for another reason is lost. */
struct cdbus_bound {
    pthread_mutex_t mutex;
    pthread_cond_t wake;
    pthread_t caller;
    int done;
    int fired;
    struct timespec deadline;
};

static inline void cdbus_bound_nothing(int signal) { (void)signal; }

static inline void cdbus_bound_add_ms(struct timespec *time, long ms) {
    time->tv_sec += ms / 1000;
    time->tv_nsec += (ms % 1000) * 1000000L;
    if (time->tv_nsec >= 1000000000L) {
        time->tv_sec += 1;
        time->tv_nsec -= 1000000000L;
    }
}

static inline void *cdbus_bound_watch(void *data) {
    struct cdbus_bound *b = (struct cdbus_bound *)data;
    pthread_mutex_lock(&b->mutex);
    while (!b->done) {
        int status = pthread_cond_timedwait(&b->wake, &b->mutex, &b->deadline);
        if (b->done) break;
        if (status != ETIMEDOUT) continue;
        b->fired = 1;
        pthread_kill(b->caller, SIGURG);  // under the mutex: the call has not returned yet
        cdbus_bound_add_ms(&b->deadline, 20);
    }
    pthread_mutex_unlock(&b->mutex);
    return NULL;
}

/* Calls `call(data)` on this thread; once `timeout_ms` have passed, a system call it waits in
   is interrupted (EINTR), every 20 ms until it returns. Returns 1 when the bound was reached. */
static inline int cdbus_call_bounded(void (*call)(void *), void *data, long timeout_ms) {
    struct cdbus_bound b;
    memset(&b, 0, sizeof b);
    pthread_mutex_init(&b.mutex, NULL);
    pthread_condattr_t attributes;
    pthread_condattr_init(&attributes);
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
    pthread_cond_init(&b.wake, &attributes);
    pthread_condattr_destroy(&attributes);
    b.caller = pthread_self();
    clock_gettime(CLOCK_MONOTONIC, &b.deadline);
    cdbus_bound_add_ms(&b.deadline, timeout_ms);

    struct sigaction action, previous;
    memset(&action, 0, sizeof action);
    action.sa_handler = cdbus_bound_nothing;
    sigemptyset(&action.sa_mask);
    int handled = sigaction(SIGURG, &action, &previous) == 0;
    sigset_t urgent, mask;
    sigemptyset(&urgent);
    sigaddset(&urgent, SIGURG);
    int unblocked = handled && pthread_sigmask(SIG_UNBLOCK, &urgent, &mask) == 0;

    pthread_t thread;
    int watched = handled && pthread_create(&thread, NULL, cdbus_bound_watch, &b) == 0;
    call(data);
    pthread_mutex_lock(&b.mutex);
    b.done = 1;
    int fired = b.fired;
    pthread_cond_signal(&b.wake);
    pthread_mutex_unlock(&b.mutex);
    if (watched) pthread_join(thread, NULL);

    if (unblocked) pthread_sigmask(SIG_SETMASK, &mask, NULL);
    if (handled) sigaction(SIGURG, &previous, NULL);
    pthread_cond_destroy(&b.wake);
    pthread_mutex_destroy(&b.mutex);
    return fired;
}

#endif
