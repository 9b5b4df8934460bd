/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Load generators of the tests: background workloads (wl_stream or a pipe
 * ping-pong), CPU hogs, CPU hotplug and the sides of a pinned ping-pong.
 */
#ifndef WL_KERNEL_LOAD_H
#define WL_KERNEL_LOAD_H

#include <sched.h>
#include <stdbool.h>
#include <sys/types.h>

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

#endif /* WL_KERNEL_LOAD_H */
