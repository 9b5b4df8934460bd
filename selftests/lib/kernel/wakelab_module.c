// SPDX-License-Identifier: GPL-2.0
/*
 * wakelab.ko from userspace: loading, unloading, its debugfs files and the
 * check of its llc table; see include/wl/kernel/wakelab_module.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "wl/core/clock.h"
#include "wl/core/file.h"
#include "wl/kernel/topo.h"
#include "wl/kernel/wakelab_module.h"

const char * const wl_place_parts[WL_NR_PLACE_PARTS] = {
	"waker_cpu", "prev_cpu", "waker_llc", "prev_llc", "other",
};

const char * const wl_table_files[WL_NR_TABLES] = {
	"caps", "placement", "placement_others", "llc", "decisions",
	"decisions_others", "oldcheck",
};

bool wl_is_table(const char *name)
{
	int i;

	for (i = 0; i < WL_NR_TABLES; i++)
		if (!strcmp(name, wl_table_files[i]))
			return true;
	return false;
}

const char *wl_kernel_test_skip_reason(void)
{
	if (geteuid() != 0)
		return "not root";
	if (access(WL_SCHED_FEATURES, R_OK) != 0)
		return "debugfs or " WL_SCHED_FEATURES " absent (mount debugfs; CONFIG_SCHED_DEBUG)";
	return NULL;
}

bool wl_module_loaded(void)
{
	struct stat st;

	return stat(WL_MODULE_DIR, &st) == 0 && S_ISDIR(st.st_mode);
}

const char *wl_module_path(void)
{
	const char *p = getenv("WAKELAB_MODULE");

	return p && *p ? p : WL_MODULE_PATH_DEFAULT;
}

bool wl_module_absent(void)
{
	return access(wl_module_path(), F_OK) && errno == ENOENT;
}

int wl_module_load(const char *params)
{
	int fd, ret;

	fd = open(wl_module_path(), O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = syscall(SYS_finit_module, fd, params ? params : "", 0);
	ret = ret ? -errno : 0;
	close(fd);
	return ret;
}

int wl_module_unload(void)
{
	return syscall(SYS_delete_module, "wakelab", O_NONBLOCK) ? -errno : 0;
}

int wl_module_unload_retry(void)
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

int wl_module_ensure(const char *method, bool *loaded_here)
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

const char *wl_module_absent_reason(int err)
{
	if (err == -ENOENT && wl_module_absent())
		return "wakelab.ko not found (set WAKELAB_MODULE)";
	return NULL;
}

const char *wl_module_skip_reason(int err)
{
	if (err == -EPERM)
		return "this kernel does not let root load modules";
	return wl_module_absent_reason(err);
}

const char *wl_module_prepare(const char *method, bool *loaded_here, int *ret)
{
	const char *skip = wl_kernel_test_skip_reason();

	*loaded_here = false;
	*ret = 0;
	if (skip)
		return skip;
	*ret = wl_module_ensure(method, loaded_here);
	return wl_module_skip_reason(*ret);
}

const char *wl_path(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", WL_MODULE_DIR, name);
	return buf;
}

int wl_module_table(const char *name, struct wl_table *t)
{
	char p[256];

	return wl_table_load(wl_path(p, sizeof(p), name), t);
}

int wl_knob_set(const char *name, const char *s)
{
	return wl_knob_write(name, s, strlen(s));
}

int wl_knob_write(const char *name, const void *data, size_t len)
{
	char p[256];

	return wl_write_file(wl_path(p, sizeof(p), name), data, len);
}

ssize_t wl_knob_get(const char *name, char *buf, size_t len)
{
	char p[256];

	return wl_read_file(wl_path(p, sizeof(p), name), buf, len);
}

const char *wl_cap(const char *cap)
{
	static char val[WL_TABLE_TOKEN];
	struct wl_table *t = wl_table_new();
	int r;

	val[0] = '\0';
	if (t && !wl_module_table("caps", t)) {
		r = wl_table_row(t, cap);
		if (r >= 0 && t->ncols > 1)
			snprintf(val, sizeof(val), "%s", t->cell[r][1]);
	}
	free(t);
	return val;
}

/*
 * Row @r of the llc table against sysfs: each of its CPUs (@row) online,
 * in no earlier row (@seen, updated), with the same online LLC in sysfs.
 * 0, -EINVAL (described in @why), or 0 with *@nodata set to the first CPU
 * sysfs has no cache information for.
 */
static int wl_llc_check_row(const struct wl_table *t, int r, int c,
			    const bool *online, bool *seen, const bool *row,
			    int *nodata, char *why, size_t len)
{
	static bool sys[WL_MAX_CPUS];
	const char *k = t->cell[r][0];
	int cpu, o, n;

	for (cpu = 0; cpu < WL_MAX_CPUS; cpu++) {
		if (!row[cpu])
			continue;
		if (!online[cpu] || seen[cpu]) {
			snprintf(why, len, "row %s: cpu%d %s", k, cpu,
				 seen[cpu] ? "in two rows" : "offline");
			return -EINVAL;
		}
		seen[cpu] = true;
		n = wl_cpu_llc(WL_CPU_SYSFS, cpu, sys, NULL);
		if (n == -ENOENT) {
			if (*nodata < 0)
				*nodata = cpu;
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
	return 0;
}

int wl_llc_check(const struct wl_table *t, char *why, size_t len)
{
	static bool online[WL_MAX_CPUS], seen[WL_MAX_CPUS], row[WL_MAX_CPUS];
	int r, c, cpu, ret, nodata = -1;
	unsigned long long key;
	const char *k;

	snprintf(why, len, "ok");
	if (wl_online_cpus(WL_CPU_SYSFS, online) <= 0) {
		snprintf(why, len, "cannot read the online CPUs");
		return -EIO;
	}
	c = wl_table_col(t, "cpus");
	if (c < 0 || !t->nrows) {
		snprintf(why, len, "no cpus column or no rows");
		return -EINVAL;
	}
	memset(seen, 0, sizeof(seen));
	for (r = 0; r < t->nrows; r++) {
		k = t->cell[r][0];
		if (wl_cpulist_parse(t->cell[r][c], row) <= 0) {
			snprintf(why, len, "row %s: bad cpus '%s'", k,
				 t->cell[r][c]);
			return -EINVAL;
		}
		for (cpu = 0; !row[cpu]; cpu++)
			;
		/* The key is the LLC's first CPU. */
		if (wl_table_u64(t, r, 0, &key) ||
		    key != (unsigned long long)cpu) {
			snprintf(why, len, "row %s: key is not its first CPU %d",
				 k, cpu);
			return -EINVAL;
		}
		ret = wl_llc_check_row(t, r, c, online, seen, row, &nodata,
				       why, len);
		if (ret)
			return ret;
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
