// SPDX-License-Identifier: GPL-2.0
/*
 * Load generators: background workloads (wl_stream or a pipe ping-pong),
 * CPU hogs, CPU hotplug and pinned ping-pong sides; see
 * include/wl/kernel/load.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "wl/core/file.h"
#include "wl/kernel/load.h"

/* Pipe ping-pong between two processes for @secs (fallback workload). */
static void wl_pingpong(int secs)
{
	int ab[2], ba[2];
	time_t end = time(NULL) + secs;
	char c = 0;
	pid_t pid;

	if (pipe(ab) || pipe(ba))
		_exit(1);
	pid = fork();
	if (pid < 0)
		_exit(1);
	if (!pid) {
		while (read(ab[0], &c, 1) == 1 && write(ba[1], &c, 1) == 1)
			;
		_exit(0);
	}
	while (time(NULL) < end)
		if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1)
			break;
	close(ab[1]);
	waitpid(pid, NULL, 0);
	_exit(0);
}

pid_t wl_load_start(const char *workload, const char *instances, int secs)
{
	char dur[16];
	pid_t pid;
	int fd;

	snprintf(dur, sizeof(dur), "%d", secs);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid)
		return pid;
	setpgid(0, 0);
	fd = open("/dev/null", O_WRONLY);
	if (fd >= 0) {
		dup2(fd, 1);
		close(fd);
	}
	execlp("wl_stream", "wl_stream", "-w", workload, "-n", instances,
	       "-l", dur, "-W", "0", "-b", (char *)NULL);
	wl_pingpong(secs);
	_exit(1);
}

int wl_load_wait(pid_t pid)
{
	int st;

	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

void wl_load_stop(pid_t pid)
{
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* Path of @cpu's online file into @buf. */
static const char *wl_cpu_online_path(char *buf, size_t len, int cpu)
{
	snprintf(buf, len, "/sys/devices/system/cpu/cpu%d/online", cpu);
	return buf;
}

bool wl_cpu_hotpluggable(int cpu)
{
	char p[128];

	return access(wl_cpu_online_path(p, sizeof(p), cpu), W_OK) == 0;
}

int wl_cpu_set_online(int cpu, bool on)
{
	char p[128];

	return wl_write_str(wl_cpu_online_path(p, sizeof(p), cpu),
			    on ? "1" : "0");
}

pid_t wl_hog(int cpu)
{
	cpu_set_t set;
	pid_t pid = fork();

	if (pid)
		return pid < 0 ? -errno : pid;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		_exit(1);
	for (;;)
		;
}

pid_t wl_roaming_hog(int a, int b)
{
	struct timespec t0, t;
	cpu_set_t set;
	pid_t pid = fork();
	int i;

	if (pid)
		return pid < 0 ? -errno : pid;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	for (i = 0;; i++) {
		CPU_ZERO(&set);
		CPU_SET(i % 2 ? b : a, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			_exit(1);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		do
			clock_gettime(CLOCK_MONOTONIC, &t);
		while ((t.tv_sec - t0.tv_sec) * 1000000000L +
		       t.tv_nsec - t0.tv_nsec < 5000000L);
	}
}

/* Voluntary context switches of this process so far, or -1. */
static long wl_nvcsw(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_SELF, &ru) ? -1 : ru.ru_nvcsw;
}

/* Whether the starter of a ping-pong that began at @t0 stops now. */
static bool wl_pingpong_done(const struct wl_pingpong_end *end,
			     const struct timespec *t0, long sleeps)
{
	struct timespec t;
	double s;

	clock_gettime(CLOCK_MONOTONIC, &t);
	s = t.tv_sec - t0->tv_sec + (t.tv_nsec - t0->tv_nsec) / 1e9;
	return s >= end->max_secs || (s >= end->secs && sleeps >= end->sleeps);
}

void wl_pingpong_side(const cpu_set_t *set, int in, int out, int res,
		      const struct wl_pingpong_end *end)
{
	struct wl_pingpong r = { 0, 0 };
	long nvcsw0, nvcsw;
	struct timespec t0;
	char c = 0;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	nvcsw0 = wl_nvcsw();
	if (sched_setaffinity(0, sizeof(*set), set) || nvcsw0 < 0)
		_exit(2);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (end) {
		nvcsw = nvcsw0;
		while (!wl_pingpong_done(end, &t0, nvcsw - nvcsw0) &&
		       write(out, &c, 1) == 1 && read(in, &c, 1) == 1) {
			/* getrusage() is a system call: not every trip. */
			if (!(++r.trips % 64))
				nvcsw = wl_nvcsw();
		}
		close(out);
	} else {
		while (read(in, &c, 1) == 1 && write(out, &c, 1) == 1)
			r.trips++;
	}
	nvcsw = wl_nvcsw();
	if (nvcsw < 0)
		_exit(3);
	r.sleeps = nvcsw - nvcsw0;
	_exit(write(res, &r, sizeof(r)) == sizeof(r) ? 0 : 4);
}
