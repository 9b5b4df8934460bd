// SPDX-License-Identifier: GPL-2.0
/* The workload's cgroup v2; see include/wl/kernel/cgroup.h. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "wl/core/file.h"
#include "wl/core/text.h"
#include "wl/kernel/cgroup.h"

/* Where cgroup v2 is mounted, from /proc/self/mountinfo: 0 or -ENOENT. */
static int wl_cgroup_mount(char *mnt, size_t len)
{
	char line[1024], dir[WL_CGROUP_PATH], fstype[64];
	FILE *f = fopen("/proc/self/mountinfo", "re");
	const char *sep;
	int ret = -ENOENT;

	if (!f)
		return -errno;
	while (ret && fgets(line, sizeof(line), f)) {
		/* ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTS [TAGS] - FSTYPE ... */
		sep = strstr(line, " - ");
		if (!sep || sscanf(line, "%*s %*s %*s %*s %511s", dir) != 1 ||
		    sscanf(sep + 3, "%63s", fstype) != 1)
			continue;
		if (!strcmp(fstype, "cgroup2"))
			ret = wl_fmt(mnt, len, "%s", dir) ? -ENAMETOOLONG : 0;
	}
	fclose(f);
	return ret;
}

/* The caller's cgroup v2 path, from /proc/self/cgroup's "0::" line. */
static int wl_cgroup_own(char *path, size_t len)
{
	char buf[4096], *p;
	ssize_t n = wl_read_file("/proc/self/cgroup", buf, sizeof(buf));

	if (n < 0)
		return (int)n;
	p = strncmp(buf, "0::", 3) ? strstr(buf, "\n0::") : buf - 1;
	if (!p)
		return -ENOENT;
	p += 4;
	p[strcspn(p, "\n")] = '\0';
	return wl_fmt(path, len, "%s", p) ? -ENAMETOOLONG : 0;
}

/* Whether cgroup directory @dir gives its children controller @ctl. */
static bool wl_cgroup_delegates(const char *dir, const char *ctl)
{
	char path[WL_CGROUP_PATH + 32], buf[512], *tok, *save;

	snprintf(path, sizeof(path), "%s/cgroup.subtree_control", dir);
	if (wl_read_file(path, buf, sizeof(buf)) < 0)
		return false;
	for (tok = strtok_r(buf, " \n", &save); tok;
	     tok = strtok_r(NULL, " \n", &save))
		if (!strcmp(tok, ctl))
			return true;
	return false;
}

int wl_cgroup_create(struct wl_cgroup *cg, const char *name, char *why,
		     size_t len)
{
	static const char * const sched_ctl[] = { "cpu", "cpuset" };
	char mnt[WL_CGROUP_PATH], own[WL_CGROUP_PATH], parent[WL_CGROUP_PATH];
	unsigned int i;
	int ret;

	cg->path[0] = cg->dir[0] = '\0';
	ret = wl_cgroup_mount(mnt, sizeof(mnt));
	if (ret) {
		wl_err(why, len, "no cgroup v2 mounted (mount -t cgroup2 none /sys/fs/cgroup)");
		return ret;
	}
	ret = wl_cgroup_own(own, sizeof(own));
	if (ret) {
		wl_err(why, len, "/proc/self/cgroup names no cgroup v2 path: %s",
		       strerror(-ret));
		return ret;
	}
	if (!strcmp(own, "/"))
		own[0] = '\0';
	if (wl_fmt(parent, sizeof(parent), "%s%s", mnt, own) ||
	    wl_fmt(cg->path, sizeof(cg->path), "%s/%s", own, name) ||
	    wl_fmt(cg->dir, sizeof(cg->dir), "%s/%s", parent, name)) {
		ret = -ENAMETOOLONG;
		wl_err(why, len, "cgroup path too long");
		goto fail;
	}
	/* A controller of its own would put the workload in a task group. */
	for (i = 0; i < sizeof(sched_ctl) / sizeof(sched_ctl[0]); i++) {
		if (wl_cgroup_delegates(parent, sched_ctl[i])) {
			ret = -EPERM;
			wl_err(why, len, "cgroup %s/ gives its children the %s controller: a child would change how the workload is scheduled",
			       own, sched_ctl[i]);
			goto fail;
		}
	}
	if (mkdir(cg->dir, 0755) && errno != EEXIST) {
		ret = -errno;
		wl_err(why, len, "mkdir %s: %s", cg->dir, strerror(errno));
		goto fail;
	}
	return 0;
fail:
	cg->path[0] = cg->dir[0] = '\0';
	return ret;
}

int wl_cgroup_rmdir(const char *path)
{
	char mnt[WL_CGROUP_PATH], dir[2 * WL_CGROUP_PATH];
	int ret = wl_cgroup_mount(mnt, sizeof(mnt));

	if (ret)
		return ret;
	if (wl_fmt(dir, sizeof(dir), "%s%s", mnt, path))
		return -ENAMETOOLONG;
	return rmdir(dir) && errno != ENOENT ? -errno : 0;
}

int wl_cgroup_enter(const struct wl_cgroup *cg, pid_t pid)
{
	char path[WL_CGROUP_PATH + 16], val[32];

	if (!cg->dir[0])
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/cgroup.procs", cg->dir);
	snprintf(val, sizeof(val), "%d", (int)pid);
	return wl_write_str(path, val);
}

int wl_cgroup_remove(struct wl_cgroup *cg)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	int tries;

	if (!cg->dir[0])
		return 0;
	/* A reaped child leaves its cgroup a moment after wait() returns. */
	for (tries = 0; rmdir(cg->dir) && errno != ENOENT; tries++) {
		if (errno != EBUSY)
			return -errno;
		if (tries == 100)
			return -EBUSY;
		nanosleep(&ts, NULL);
	}
	cg->path[0] = cg->dir[0] = '\0';
	return 0;
}
