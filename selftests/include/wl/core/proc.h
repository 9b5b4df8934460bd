/* SPDX-License-Identifier: GPL-2.0 */
/* Settings from the environment, and running a program for its output. */
#ifndef WL_CORE_PROC_H
#define WL_CORE_PROC_H

#include <stddef.h>

/*
 * A positive decimal count from the environment variable @name, @def when
 * it is unset or empty; anything else ends the program with a message
 * (exit status 1, KSFT_FAIL: a mistyped setting must not run a different
 * test).
 */
unsigned long wl_env_count(const char *name, unsigned long def);

/*
 * Run @file (found on PATH when it has no '/') with @argv, its stdout and
 * stderr into @out (at most @len - 1 bytes, NUL-terminated); killed after
 * @timeout_s seconds when that is > 0.  The exit status, or -1 when it
 * could not run or was killed.
 */
int wl_capture(const char *file, char *const argv[], char *out, size_t len,
	       double timeout_s);

#endif /* WL_CORE_PROC_H */
