/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The workload's cgroup v2: a child of the caller's own cgroup that the
 * engines move their workers (or netserver and netperf) into, so that
 * wakelab.ko counts their wakeups apart from every other task's (its
 * workload file).  A child of the caller's cgroup with no controller of
 * its own: the scheduler sees the same task groups as without it.
 */
#ifndef WL_KERNEL_CGROUP_H
#define WL_KERNEL_CGROUP_H

#include <stddef.h>
#include <sys/types.h>

#define WL_CGROUP_PATH	512

/**
 * struct wl_cgroup - a workload cgroup
 * @path:	its path in the cgroup v2 hierarchy ("/wakelab.1234"), as
 *		/proc/self/cgroup names cgroups and wakelab.ko's workload
 *		file takes them
 * @dir:	its directory ("/sys/fs/cgroup/wakelab.1234"); "" when none
 */
struct wl_cgroup {
	char path[WL_CGROUP_PATH];
	char dir[WL_CGROUP_PATH];
};

/*
 * Create cgroup @name below the caller's own: 0, or -errno with @why
 * (no cgroup v2 mounted, a parent that gives its children a CPU
 * controller of their own, mkdir failing).
 */
int wl_cgroup_create(struct wl_cgroup *cg, const char *name, char *why,
		     size_t len);

/* Remove the empty cgroup at v2 path @path: 0 (also when gone) or -errno. */
int wl_cgroup_rmdir(const char *path);

/* Move process @pid (0: the caller) into @cg: 0 or -errno. */
int wl_cgroup_enter(const struct wl_cgroup *cg, pid_t pid);

/*
 * Remove @cg once its processes have exited, waiting up to 1 s for their
 * exit to empty it: 0 or -errno (-EBUSY: still populated).
 */
int wl_cgroup_remove(struct wl_cgroup *cg);

#endif /* WL_KERNEL_CGROUP_H */
