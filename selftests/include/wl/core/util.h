/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small helpers of the wakelab tools and tests: whole-file reads and
 * one-write() writes, sleeping, settings from the environment, background
 * workloads (wl_stream or a pipe ping-pong), CPU hogs and CPU hotplug.
 */
#ifndef WL_CORE_UTIL_H
#define WL_CORE_UTIL_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Read a whole (small) file into @buf; returns bytes read or -errno. */
ssize_t wl_read_file(const char *path, char *buf, size_t len);

/* Write @len bytes in one write(); returns 0 or -errno of the write. */
int wl_write_file(const char *path, const void *data, size_t len);

/* wl_write_file() of the string @s. */
int wl_write_str(const char *path, const char *s);

/* Sleep @ms milliseconds. */
void wl_msleep(int ms);

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

/**
 * wl_load_start() - start a loopback workload in the background
 * @workload: wl_stream workload (tcp_stream, tcp_rr, ...)
 * @instances: wl_stream -n argument ("2*cpus", "1", ...)
 * @secs: measurement seconds
 *
 * Runs wl_stream in its own process group, output discarded; falls back
 * to a pipe ping-pong when wl_stream cannot be executed.
 * Return: pid (also the process group), or -errno.
 */
pid_t wl_load_start(const char *workload, const char *instances, int secs);

/* Wait for the workload; its exit status, or -1 when killed. */
int wl_load_wait(pid_t pid);

/* Stop the workload and everything it forked. */
void wl_load_stop(pid_t pid);

/* Whether @cpu can be taken offline (it has a writable online file). */
bool wl_cpu_hotpluggable(int cpu);

/* Take @cpu offline or bring it online: 0 or -errno. */
int wl_cpu_set_online(int cpu, bool on);

/*
 * A child spinning on @cpu until killed (and killed with its parent):
 * its pid, or -errno.
 */
pid_t wl_hog(int cpu);

/*
 * A child that spins on CPU @a for 5 ms, then on @b, and so on until
 * killed (and killed with its parent): the tasks sharing those CPUs keep
 * being woken where it just arrived, and move.  Its pid, or -errno.
 */
pid_t wl_roaming_hog(int a, int b);

/*
 * When the starter of a ping-pong stops: once @secs have passed and it has
 * slept @sleeps times, or once @max_secs have passed, whichever is first.
 */
struct wl_pingpong_end {
	int secs;
	long sleeps;
	int max_secs;
};

/* What a side of a ping-pong reports. */
struct wl_pingpong {
	long trips;
	long sleeps;	/* voluntary context switches: wakeups received */
};

/*
 * Be one side of a pipe ping-pong, in a child confined to @set and killed
 * with its parent: the starter (@end not NULL) writes a byte to @out and
 * waits for it on @in until @end says stop, then closes @out; the other
 * echoes until end of file.  Each writes its struct wl_pingpong to @res
 * and exits 0 (not 0 on a failure).
 */
void wl_pingpong_side(const cpu_set_t *set, int in, int out, int res,
		      const struct wl_pingpong_end *end)
	__attribute__((noreturn));

#endif /* WL_CORE_UTIL_H */
