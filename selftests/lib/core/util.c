// SPDX-License-Identifier: GPL-2.0
/*
 * File reads and writes, sleeping, environment settings, a program's
 * output, background workloads, CPU hogs and hotplug; see
 * include/wl/core/util.h.
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

#include "wl/core/clock.h"
#include "wl/core/util.h"

ssize_t wl_read_file(const char *path, char *buf, size_t len)
{
	ssize_t n, off = 0;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (off < (ssize_t)len - 1) {
		n = read(fd, buf + off, len - 1 - off);
		if (n < 0) {
			n = -errno;
			close(fd);
			return n;
		}
		if (n == 0)
			break;
		off += n;
	}
	buf[off] = '\0';
	close(fd);
	return off;
}

int wl_write_file(const char *path, const void *data, size_t len)
{
	ssize_t n;
	int fd, err = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, data, len);
	if (n < 0)
		err = -errno;
	else if ((size_t)n != len)
		err = -EIO;
	close(fd);
	return err;
}

int wl_write_str(const char *path, const char *s)
{
	return wl_write_file(path, s, strlen(s));
}

void wl_msleep(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

unsigned long wl_env_count(const char *name, unsigned long def)
{
	const char *s = getenv(name);
	unsigned long v;
	char *end;

	if (!s || !*s)
		return def;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || !v) {
		fprintf(stderr, "%s: '%s' is not a positive number\n", name, s);
		exit(1);	/* KSFT_FAIL */
	}
	return v;
}

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

int wl_capture(const char *file, char *const argv[], char *out, size_t len,
	       double timeout_s)
{
	double end = wl_now() + timeout_s;
	int p[2], st, killed = 0;
	struct pollfd pf;
	size_t got = 0;
	ssize_t n;
	pid_t pid;

	if (len)
		out[0] = '\0';
	if (pipe2(p, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0) {
		dup2(p[1], STDOUT_FILENO);
		dup2(p[1], STDERR_FILENO);
		execvp(file, argv);
		dprintf(STDERR_FILENO, "exec %s: %s", file, strerror(errno));
		_exit(127);
	}
	close(p[1]);
	pf.fd = p[0];
	pf.events = POLLIN;
	while (len && got < len - 1) {
		if (timeout_s > 0) {
			if (wl_now() >= end) {
				kill(pid, SIGKILL);
				killed = 1;
				break;
			}
			if (poll(&pf, 1, 100) <= 0)
				continue;
		}
		n = read(p[0], out + got, len - 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += n;
	}
	if (len)
		out[got] = '\0';
	close(p[0]);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (killed)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
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
