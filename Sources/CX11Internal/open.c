// XOpenDisplay with a deadline on the connection Xlib itself makes.
//
// Xlib has no way to open a display on a descriptor, or with a timeout: libxcb connects with a
// blocking connect(), reads the server's setup answer in poll(-1), and XOpenDisplay then waits
// for two replies (BIG-REQUESTS, RESOURCE_MANAGER) the same way. A server that accepts and
// never answers, or answers the setup and then falls silent, would hang the program for good.
//
// So XOpenDisplay runs on the calling thread as usual while a watchdog thread waits for the
// deadline. If the deadline passes first, the watchdog finds the sockets made since the open
// began that lead to the display's server and shuts them down: shutdown() wakes the blocked
// connect, poll or read with an end of file, and the descriptor stays libxcb's to close (it is
// never closed under it, so no other file can take its number meanwhile). A failure before the
// setup is complete makes XOpenDisplay return NULL; one after it goes through Xlib's I/O error
// path, which would end the process, so the I/O error handler installed here jumps back out of
// XOpenDisplay instead (only on the thread that is opening; every other thread's I/O errors go
// to the handler that was installed before). That Display is then abandoned half made (a few
// kilobytes): it is no longer usable, and nothing else knows of it.
//
// XKEYBOARD's set-up (two round trips at the end of XOpenDisplay) is skipped for this display
// alone when asked: Xlib calls a display-lock hook early in XOpenDisplay, and the hook wrapped
// here marks the display as having no XKB before XOpenDisplay reaches that set-up, on the
// opening thread only. Another thread that opens a display at the same time is not affected,
// as it would be by XkbIgnoreExtension, which is process-wide.

#define _GNU_SOURCE
#include <X11/Xlibint.h>
#include <dirent.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include "CX11Internal.h"

// Xlib's display-lock initializer (locking.h, not installed; exported by libX11).
extern int (*_XInitDisplayLock_fn)(Display *dpy);

// MARK: - The open in progress on this thread

struct opening {
    jmp_buf escape;
    int defer_xkb;
    int xkb_deferred;
    Display *display;  // known once XOpenDisplay initialises its lock
};

static __thread struct opening *current_opening;

// MARK: - The display-lock hook (XKEYBOARD deferred per display)

static int (*original_init_lock)(Display *dpy);
static pthread_once_t hook_once = PTHREAD_ONCE_INIT;

static int init_lock_hook(Display *dpy) {
    int (*init)(Display *) = __atomic_load_n(&original_init_lock, __ATOMIC_ACQUIRE);
    int status = init ? init(dpy) : 0;
    struct opening *opening = current_opening;
    if (opening && status == 0) {
        opening->display = dpy;
        if (opening->defer_xkb) {
            // XkbUseExtension(dpy, NULL, NULL), at the end of XOpenDisplay, then does nothing.
            dpy->flags |= XlibDisplayNoXkb;
            opening->xkb_deferred = 1;
        }
    }
    return status;
}

static void install_hook(void) {
    __atomic_store_n(&original_init_lock, _XInitDisplayLock_fn, __ATOMIC_RELEASE);
    _XInitDisplayLock_fn = init_lock_hook;
}

// MARK: - The I/O error handler

static XIOErrorHandler next_io_handler;

static int io_error_handler(Display *dpy) {
    struct opening *opening = current_opening;
    if (opening) longjmp(opening->escape, 1);
    return next_io_handler ? next_io_handler(dpy) : 0;
}

XIOErrorHandler cx11_set_io_error_handler(XIOErrorHandler handler) {
    next_io_handler = handler;
    XIOErrorHandler previous = XSetIOErrorHandler(io_error_handler);
    return previous == io_error_handler ? NULL : previous;
}

// MARK: - Sockets

struct known_socket {
    int fd;
    dev_t dev;
    ino_t ino;
};

struct socket_list {
    struct known_socket *items;
    size_t count, capacity;
};

static void list_add(struct socket_list *list, int fd, const struct stat *info) {
    if (list->count == list->capacity) {
        size_t capacity = list->capacity ? list->capacity * 2 : 16;
        struct known_socket *grown = realloc(list->items, capacity * sizeof *grown);
        if (!grown) return;
        list->items = grown;
        list->capacity = capacity;
    }
    list->items[list->count++] = (struct known_socket){fd, info->st_dev, info->st_ino};
}

static int list_contains(const struct socket_list *list, int fd, const struct stat *info) {
    for (size_t i = 0; i < list->count; i++) {
        const struct known_socket *s = &list->items[i];
        if (s->fd == fd && s->dev == info->st_dev && s->ino == info->st_ino) return 1;
    }
    return 0;
}

// Calls `visit` with every open socket descriptor: from /proc/self/fd, or (without /proc) by
// trying each descriptor number up to the process's limit.
static void each_socket(void (*visit)(int fd, const struct stat *info, void *data), void *data) {
    DIR *dir = opendir("/proc/self/fd");
    if (dir) {
        int own = dirfd(dir);
        struct dirent *entry;
        while ((entry = readdir(dir))) {
            char *end;
            long fd = strtol(entry->d_name, &end, 10);
            if (*end || end == entry->d_name || fd == own) continue;
            struct stat info;
            if (fstat((int)fd, &info) == 0 && S_ISSOCK(info.st_mode)) visit((int)fd, &info, data);
        }
        closedir(dir);
        return;
    }
    struct rlimit limit;
    long count = getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < 65536 ? (long)limit.rlim_cur : 65536;
    for (long fd = 0; fd < count; fd++) {
        struct stat info;
        if (fstat((int)fd, &info) == 0 && S_ISSOCK(info.st_mode)) visit((int)fd, &info, data);
    }
}

static void remember(int fd, const struct stat *info, void *data) { list_add(data, fd, info); }

// Whether a socket leads to the display's server (or may: a TCP connect still in progress has
// no peer yet). Without a known address, any new socket may be Xlib's.
static int leads_to(int fd, const struct cx11_server_address *address) {
    if (!address) return 1;
    struct sockaddr_storage peer;
    socklen_t length = sizeof peer;
    memset(&peer, 0, sizeof peer);
    if (getpeername(fd, (struct sockaddr *)&peer, &length) != 0) {
        int domain = 0;
        socklen_t size = sizeof domain;
        return errno == ENOTCONN && getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &size) == 0 &&
               (domain == AF_INET || domain == AF_INET6) && address->tcp_port > 0;
    }
    if (peer.ss_family == AF_UNIX && address->unix_path) {
        const struct sockaddr_un *un = (const struct sockaddr_un *)&peer;
        size_t room = length > offsetof(struct sockaddr_un, sun_path) ? length - offsetof(struct sockaddr_un, sun_path) : 0;
        const char *path = un->sun_path;
        if (room > 0 && path[0] == '\0') {  // an abstract name: NUL, then the path
            path++;
            room--;
        }
        size_t wanted = strlen(address->unix_path);
        return room >= wanted && strncmp(path, address->unix_path, wanted) == 0 && (room == wanted || path[wanted] == '\0');
    }
    if (peer.ss_family == AF_INET) return ntohs(((const struct sockaddr_in *)&peer)->sin_port) == address->tcp_port;
    if (peer.ss_family == AF_INET6) return ntohs(((const struct sockaddr_in6 *)&peer)->sin6_port) == address->tcp_port;
    return 0;
}

// MARK: - The watchdog

struct watchdog {
    pthread_mutex_t mutex;
    pthread_cond_t wake;
    int done;
    int fired;
    struct timespec deadline;
    const struct cx11_server_address *address;
    struct socket_list before;
    struct socket_list shut;
};

static void shut_if_new(int fd, const struct stat *info, void *data) {
    struct watchdog *w = data;
    if (list_contains(&w->before, fd, info) || list_contains(&w->shut, fd, info)) return;
    if (!leads_to(fd, w->address)) return;
    shutdown(fd, SHUT_RDWR);
    list_add(&w->shut, fd, info);
}

static void *watch(void *data) {
    struct watchdog *w = data;
    pthread_mutex_lock(&w->mutex);
    while (!w->done) {
        int status = pthread_cond_timedwait(&w->wake, &w->mutex, &w->deadline);
        if (w->done) break;
        if (status != ETIMEDOUT) continue;
        w->fired = 1;
        each_socket(shut_if_new, w);
        // Look again shortly: Xlib may make its socket only now (a slow name lookup), or try
        // the next address of the host.
        w->deadline.tv_nsec += 20 * 1000000L;
        if (w->deadline.tv_nsec >= 1000000000L) {
            w->deadline.tv_sec += 1;
            w->deadline.tv_nsec -= 1000000000L;
        }
    }
    pthread_mutex_unlock(&w->mutex);
    return NULL;
}

// MARK: - The open

Display *cx11_open_display(const char *name, long timeout_ms, const struct cx11_server_address *address, int defer_xkb,
                           struct cx11_open_result *result) {
    memset(result, 0, sizeof *result);
    if (defer_xkb && !getenv("XKB_FORCE")) pthread_once(&hook_once, install_hook);
    else defer_xkb = 0;

    struct watchdog *w = calloc(1, sizeof *w);
    struct opening *opening = calloc(1, sizeof *opening);
    if (!w || !opening) {
        free(w);
        free(opening);
        result->failure = CX11_OPEN_FAILED;
        return NULL;
    }
    pthread_mutex_init(&w->mutex, NULL);
    pthread_condattr_t attributes;
    pthread_condattr_init(&attributes);
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
    pthread_cond_init(&w->wake, &attributes);
    pthread_condattr_destroy(&attributes);
    w->address = address;
    clock_gettime(CLOCK_MONOTONIC, &w->deadline);
    w->deadline.tv_sec += timeout_ms / 1000;
    w->deadline.tv_nsec += (timeout_ms % 1000) * 1000000L;
    if (w->deadline.tv_nsec >= 1000000000L) {
        w->deadline.tv_sec += 1;
        w->deadline.tv_nsec -= 1000000000L;
    }
    each_socket(remember, &w->before);

    pthread_t thread;
    int watched = pthread_create(&thread, NULL, watch, w) == 0;

    opening->defer_xkb = defer_xkb;
    Display *volatile display = NULL;
    volatile int escaped = 0;
    current_opening = opening;
    if (setjmp(opening->escape) == 0) {
        display = XOpenDisplay(name);
    } else {
        // Xlib's I/O error path, after the setup: the connection failed (shut down by the
        // watchdog, or closed by the server). The Display is abandoned; its socket is closed.
        escaped = 1;
        display = NULL;
    }
    current_opening = NULL;

    pthread_mutex_lock(&w->mutex);
    w->done = 1;
    int fired = w->fired;
    pthread_cond_signal(&w->wake);
    pthread_mutex_unlock(&w->mutex);
    if (watched) pthread_join(thread, NULL);

    if (escaped && opening->display) close(ConnectionNumber(opening->display));
    if (display && fired) {
        // The deadline passed just as XOpenDisplay returned: its socket may be shut down. The
        // display is given up; closing it is guarded like the open (its I/O error jumps back).
        current_opening = opening;
        if (setjmp(opening->escape) == 0) XCloseDisplay(display);
        current_opening = NULL;
        display = NULL;
    }
    if (!display) {
        result->failure = fired ? CX11_OPEN_TIMED_OUT : escaped ? CX11_OPEN_LOST : CX11_OPEN_FAILED;
    }
    result->xkb_deferred = display ? opening->xkb_deferred : 0;

    pthread_cond_destroy(&w->wake);
    pthread_mutex_destroy(&w->mutex);
    free(w->before.items);
    free(w->shut.items);
    free(w);
    free(opening);
    return display;
}
