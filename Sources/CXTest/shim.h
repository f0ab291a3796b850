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
#endif
