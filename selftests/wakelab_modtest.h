/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the wakelab.ko kselftests (wakelab_basic_test,
 * wakelab_module_test, wakelab_policy_test, wakelab_fuzz_test,
 * wakelab_stress_test): read the module's tables and knobs, run a loopback
 * workload in the background (wl_stream when it is on PATH, else a pipe
 * ping-pong), parse CPU lists, compare the llc table with sysfs cacheinfo,
 * and tell a missing module (a skip) from one that fails to load (a
 * failure).  Header-only, like the other helpers.
 */
#ifndef WAKELAB_MODTEST_H
#define WAKELAB_MODTEST_H

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "wakelab_debugfs.h"
#include "wakelab_util.h"

#define WL_MAX_CPUS		1024
#define WL_PLACE_COLS		"policy wakeups waker_cpu prev_cpu waker_llc prev_llc other cross_llc sync"
#define WL_LLC_COLS		"llc cpus nr_running load util capacity has_capacity"
#define WL_CAPS_COLS		"cap value"
#define WL_DECISION_COLS	"rule calls waker"
#define WL_CHECK_COLS		"rule agree disagree stale"

/* Placement categories that partition the wakeups. */
static const char * const wl_place_parts[] = {
	"waker_cpu", "prev_cpu", "waker_llc", "prev_llc", "other",
};

/* Path of a file in the module's directory (static buffer per call site). */
static inline const char *wl_path(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", WL_MODULE_DIR, name);
	return buf;
}

/* Read module table @name into @t: 0 or -errno. */
static inline int wl_table(const char *name, struct wl_dbg_table *t)
{
	char p[256];

	return wl_dbg_table_read(wl_path(p, sizeof(p), name), t);
}

/* The column names of @t joined by single spaces. */
static inline void wl_table_header(const struct wl_dbg_table *t, char *buf,
				   size_t len)
{
	size_t off = 0;
	int c;

	buf[0] = '\0';
	for (c = 0; c < t->ncols && off < len; c++)
		off += snprintf(buf + off, len - off, "%s%s", c ? " " : "",
				t->col[c]);
}

/* Write @s to module file @name: 0 or -errno. */
static inline int wl_knob_set(const char *name, const char *s)
{
	char p[256];

	return wl_write_str(wl_path(p, sizeof(p), name), s);
}

/* Read module file @name: length or -errno. */
static inline ssize_t wl_knob_get(const char *name, char *buf, size_t len)
{
	char p[256];

	return wl_read_file(wl_path(p, sizeof(p), name), buf, len);
}

/* Value of capability @cap from the caps table ("" when absent). */
static inline const char *wl_cap(const char *cap)
{
	static char val[WL_DBG_TOKEN];
	struct wl_dbg_table *t = wl_dbg_table_new();
	int r;

	val[0] = '\0';
	if (t && !wl_table("caps", t)) {
		r = wl_dbg_row(t, cap);
		if (r >= 0 && t->ncols > 1)
			snprintf(val, sizeof(val), "%s", t->cell[r][1]);
	}
	free(t);
	return val;
}

/* Parse a kernel CPU list ("0-1,4") into @set; count or -EINVAL. */
static inline int wl_cpulist(const char *s, bool *set, int max)
{
	int n = 0, a, b, i;
	char *end;

	memset(set, 0, max * sizeof(*set));
	while (*s && *s != '\n') {
		a = strtol(s, &end, 10);
		if (end == s || a < 0 || a >= max)
			return -EINVAL;
		b = a;
		s = end;
		if (*s == '-') {
			b = strtol(s + 1, &end, 10);
			if (end == s + 1 || b < a || b >= max)
				return -EINVAL;
			s = end;
		}
		for (i = a; i <= b; i++, n++)
			set[i] = true;
		if (*s == ',')
			s++;
		else if (*s && *s != '\n')
			return -EINVAL;
	}
	return n;
}

static inline int wl_online_cpus(bool *set)
{
	char buf[4096];

	if (wl_read_file("/sys/devices/system/cpu/online", buf,
			 sizeof(buf)) <= 0)
		return -EIO;
	return wl_cpulist(buf, set, WL_MAX_CPUS);
}

/*
 * CPUs sharing @cpu's last-level cache according to sysfs cacheinfo (its
 * highest-level cache index) into @set: count, -ENOENT when sysfs has no
 * cache information for @cpu, -EIO or -EINVAL for an unreadable list.
 */
static inline int wl_sysfs_llc(int cpu, bool *set)
{
	char path[256], buf[4096];
	int idx, best = -1, lvl, best_lvl = -1;

	for (idx = 0; idx < 16; idx++) {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cache/index%d/level",
			 cpu, idx);
		if (wl_read_file(path, buf, sizeof(buf)) <= 0)
			break;
		lvl = atoi(buf);
		if (lvl >= best_lvl) {
			best_lvl = lvl;
			best = idx;
		}
	}
	if (best < 0)
		return -ENOENT;
	snprintf(path, sizeof(path),
		 "/sys/devices/system/cpu/cpu%d/cache/index%d/shared_cpu_list",
		 cpu, best);
	if (wl_read_file(path, buf, sizeof(buf)) <= 0)
		return -EIO;
	return wl_cpulist(buf, set, WL_MAX_CPUS);
}

/**
 * wl_llc_check() - the module's llc table against the CPUs and sysfs
 * @t: the llc table
 * @why: where the first mismatch is described
 * @len: size of @why
 *
 * Every row's cpus must be online CPUs, the row keyed by the first of
 * them, and equal the online CPUs sharing their last-level cache in sysfs
 * cacheinfo; every online CPU must be in exactly one row.
 *
 * Return: 0; -EINVAL on a mismatch; -ENODATA when all else held but sysfs
 * has no cache information for some online CPU, whose LLC was therefore
 * not compared; -EIO when the online CPUs are unreadable.
 */
static inline int wl_llc_check(const struct wl_dbg_table *t, char *why,
			       size_t len)
{
	bool online[WL_MAX_CPUS], seen[WL_MAX_CPUS], row[WL_MAX_CPUS],
		sys[WL_MAX_CPUS];
	int r, c, cpu, o, n, nodata = -1;
	unsigned long long key;
	const char *k;

	snprintf(why, len, "ok");
	if (wl_online_cpus(online) <= 0) {
		snprintf(why, len, "cannot read the online CPUs");
		return -EIO;
	}
	c = wl_dbg_col(t, "cpus");
	if (c < 0 || !t->nrows) {
		snprintf(why, len, "no cpus column or no rows");
		return -EINVAL;
	}
	memset(seen, 0, sizeof(seen));
	for (r = 0; r < t->nrows; r++) {
		k = t->cell[r][0];
		if (wl_cpulist(t->cell[r][c], row, WL_MAX_CPUS) <= 0) {
			snprintf(why, len, "row %s: bad cpus '%s'", k,
				 t->cell[r][c]);
			return -EINVAL;
		}
		for (cpu = 0; !row[cpu]; cpu++)
			;
		/* The key is the LLC's first CPU. */
		if (wl_dbg_u64(t, r, 0, &key) || key != (unsigned long long)cpu) {
			snprintf(why, len, "row %s: key is not its first CPU %d",
				 k, cpu);
			return -EINVAL;
		}
		for (cpu = 0; cpu < WL_MAX_CPUS; cpu++) {
			if (!row[cpu])
				continue;
			if (!online[cpu] || seen[cpu]) {
				snprintf(why, len, "row %s: cpu%d %s", k, cpu,
					 seen[cpu] ? "in two rows" : "offline");
				return -EINVAL;
			}
			seen[cpu] = true;
			n = wl_sysfs_llc(cpu, sys);
			if (n == -ENOENT) {
				if (nodata < 0)
					nodata = cpu;
				continue;
			}
			if (n <= 0) {
				snprintf(why, len, "cpu%d: sysfs cache list unreadable (%d)",
					 cpu, n);
				return -EINVAL;
			}
			for (o = 0; o < WL_MAX_CPUS; o++) {
				if ((sys[o] && online[o]) == row[o])
					continue;
				snprintf(why, len, "row %s (cpus %s): cpu%d is %s the sysfs LLC of online cpu%d",
					 k, t->cell[r][c], o,
					 row[o] ? "in the row, not in" :
					 "missing from the row, in", cpu);
				return -EINVAL;
			}
		}
	}
	for (cpu = 0; cpu < WL_MAX_CPUS; cpu++) {
		if (online[cpu] && !seen[cpu]) {
			snprintf(why, len, "online cpu%d in no row", cpu);
			return -EINVAL;
		}
	}
	if (nodata >= 0) {
		snprintf(why, len, "sysfs has no cache information for cpu%d (cpu%d/cache/index*/level)",
			 nodata, nodata);
		return -ENODATA;
	}
	return 0;
}

/* Pipe ping-pong between two processes for @secs (fallback workload). */
static inline void wl_pingpong(int secs)
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
static inline pid_t wl_load_start(const char *workload, const char *instances,
				  int secs)
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

/* Wait for the workload; its exit status, or -1 when killed. */
static inline int wl_load_wait(pid_t pid)
{
	int st;

	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Stop the workload and everything it forked. */
static inline void wl_load_stop(pid_t pid)
{
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* Whether @cpu can be taken offline (it has an online file). */
static inline bool wl_cpu_hotpluggable(int cpu)
{
	char p[128];

	snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/online", cpu);
	return access(p, W_OK) == 0;
}

/* Take @cpu offline or bring it online: 0 or -errno. */
static inline int wl_cpu_set_online(int cpu, bool on)
{
	char p[128];

	snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/online", cpu);
	return wl_write_str(p, on ? "1" : "0");
}

/*
 * A child spinning on @cpu until killed (and killed with its parent):
 * its pid, or -errno.
 */
static inline pid_t wl_hog(int cpu)
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

/* Sleep @ms milliseconds. */
static inline void wl_msleep(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * Make sure wakelab.ko is loaded with method @method ("" for any):
 * reloads it when loaded with another one.  0, or -errno.
 */
static inline int wl_module_ensure(const char *method, bool *loaded_here)
{
	char params[64];
	int ret;

	*loaded_here = false;
	if (wl_module_loaded()) {
		if (!*method || !strcmp(wl_cap("method"), method))
			return 0;
		ret = wl_module_unload();
		if (ret)
			return ret;
	}
	snprintf(params, sizeof(params), "%s%s", *method ? "method=" : "",
		 method);
	ret = wl_module_load(params);
	if (!ret)
		*loaded_here = true;
	return ret;
}

/*
 * The skip reason for a load that failed because the module file is not
 * there; NULL for success and for every other failure.  finit_module()
 * also returns -ENOENT when the module's own init fails (a tracepoint or
 * an unresolved symbol it needs): with the file present, that is the
 * module's failure, not a missing module.
 */
static inline const char *wl_module_absent_reason(int err)
{
	if (err == -ENOENT && wl_module_absent())
		return "wakelab.ko not found (set WAKELAB_MODULE)";
	return NULL;
}

/*
 * The skip reason for a wl_module_ensure() failure that is the machine's,
 * not the module's (no wakelab.ko, module loading forbidden); NULL for
 * success and for every real failure.
 */
static inline const char *wl_module_skip_reason(int err)
{
	if (err == -EPERM)
		return "this kernel does not let root load modules";
	return wl_module_absent_reason(err);
}

/*
 * Fail the test on load result @ret unless it is 0 (after the skip reasons
 * above were taken), with the errno and where the module says why; @what
 * describes the load (parameters).  Needs kselftest_harness.h included
 * first.
 */
static inline void wl_assert_loaded(struct __test_metadata *_metadata,
				    int ret, const char *what)
{
	ASSERT_EQ(0, ret)
		TH_LOG("loading %s (%s): %s (errno %d); see dmesg for the module's own error",
		       wl_module_path(), what, strerror(-ret), -ret);
}

/*
 * The module tests' fixture setup: NULL with wakelab.ko loaded with method
 * @method ("" for any; reloaded when another one is loaded), or why the
 * test must skip (a kernel that cannot run it, no module file, module
 * loading forbidden).  Any other load failure fails the test.
 */
static inline const char *wl_module_setup(struct __test_metadata *_metadata,
					  const char *method, bool *loaded_here)
{
	const char *skip = wl_kernel_test_skip_reason();
	int ret;

	*loaded_here = false;
	if (skip)
		return skip;
	ret = wl_module_ensure(method, loaded_here);
	skip = wl_module_skip_reason(ret);
	if (!skip)
		wl_assert_loaded(_metadata, ret, *method ? method : "default method");
	return skip;
}

/*
 * Unload, retrying for up to 5 s while a file of the module is open
 * elsewhere: an open debugfs file holds a module reference, so
 * delete_module(O_NONBLOCK) fails with EAGAIN until it is closed, and a
 * running wl_stream reads the module's tables at each sample.  0, or -errno.
 */
static inline int wl_module_unload_retry(void)
{
	int i, ret = -EBUSY;

	for (i = 0; i < 1000; i++) {
		ret = wl_module_unload();
		if (ret != -EWOULDBLOCK && ret != -EBUSY && ret != -EAGAIN)
			return ret;
		wl_msleep(5);
	}
	return ret;
}

/*
 * A positive decimal count from the environment variable @name, @def when
 * it is unset or empty; anything else ends the program with a message
 * (KSFT_FAIL: a mistyped setting must not run a different test).
 */
static inline unsigned long wl_env_count(const char *name, unsigned long def)
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
		exit(KSFT_FAIL);
	}
	return v;
}

#endif /* WAKELAB_MODTEST_H */
