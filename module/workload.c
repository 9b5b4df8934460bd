// SPDX-License-Identifier: GPL-2.0
/*
 * wakelab: the workload -- the tasks whose wakeups the placement table
 * counts.
 *
 * The workload is a cgroup v2, written to the workload file as its path
 * (relative to the writer's cgroup namespace, "/wakelab.1234").  A wakeup
 * (and a migration) is the workload's when the task placed, the wakee, is
 * in that cgroup or below it; every other task's goes to the
 * placement_others table, so that nothing counted is hidden and the two
 * never mix.  "/" (the default) is every task: no filtering, the placement
 * table counts exactly what it counted before the filter existed and
 * placement_others stays at zero.
 *
 * A cgroup, because a workload's tasks are a tree of processes that
 * changes while it runs (netserver forks a child per test, netperf and
 * wl_stream fork their workers): children inherit their parent's cgroup,
 * so the engine moves itself or its workers once and every descendant
 * follows, with nothing for the module to track.  A set of PIDs could not
 * follow a fork, and a marker in the task would need a kernel change.
 *
 * The test on the wakeup path is two dependent loads under RCU and a
 * compare: the wakee's css_set, its default-hierarchy cgroup, and that
 * cgroup's ancestor at the workload's level (cgroup_is_descendant()).
 * Its cost is measured by make bench-hook (docs/results.md).  The module
 * holds a reference on the workload's cgroup, so a cgroup removed while
 * set stays a valid pointer that no new task can join; it is dropped when
 * the file is written again and at unload, after an RCU grace period in
 * which every probe that read it has returned.
 */
#include <linux/cgroup.h>
#include <linux/err.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/string.h>

#include "workload.h"

/* Serialises writers; the probes read wl_cgrp under RCU. */
static DEFINE_MUTEX(wl_workload_lock);
/* The path as written, "/" for every task. */
static char wl_path[WL_WORKLOAD_PATH_MAX] = "/";

#ifdef CONFIG_CGROUPS
static struct cgroup __rcu *wl_cgrp;

/**
 * wl_workload_has() - whether the wakeup of @p is the workload's
 * @p: the wakee (or the task migrated)
 *
 * Context: any, called from the placement probes with interrupts off.
 * Return: true with no workload set (every task), else whether @p is in
 * the workload's cgroup or one below it.
 */
bool wl_workload_has(struct task_struct *p)
{
	struct cgroup *w;
	bool ret = true;

	rcu_read_lock();
	w = rcu_dereference(wl_cgrp);
	if (w)
		ret = cgroup_is_descendant(task_dfl_cgroup(p), w);
	rcu_read_unlock();
	return ret;
}

/*
 * Set the workload to @cgrp (NULL: every task), @path naming it, and drop
 * the reference on the one before, once no probe can be using it.
 */
static void wl_workload_replace(struct cgroup *cgrp, const char *path)
{
	struct cgroup *old;

	mutex_lock(&wl_workload_lock);
	old = rcu_replace_pointer(wl_cgrp, cgrp,
				  lockdep_is_held(&wl_workload_lock));
	strscpy(wl_path, path, sizeof(wl_path));
	mutex_unlock(&wl_workload_lock);
	if (old) {
		synchronize_rcu();
		cgroup_put(old);
	}
}

/**
 * wl_workload_set() - count the wakeups of cgroup @path's tasks apart
 * @path: an absolute cgroup v2 path, "/" for every task
 *
 * Context: process (the writer's cgroup namespace resolves @path).
 * Return: 0; -EINVAL for a path that is not absolute, -ENOENT or -ENOTDIR
 * when no such cgroup exists; nothing changed on error.
 */
int wl_workload_set(const char *path)
{
	struct cgroup *cgrp;

	if (path[0] != '/' || strlen(path) >= sizeof(wl_path))
		return -EINVAL;
	cgrp = cgroup_get_from_path(path);
	if (IS_ERR(cgrp))
		return PTR_ERR(cgrp);
	/* The root holds every task: that is no filtering. */
	if (!cgroup_parent(cgrp)) {
		cgroup_put(cgrp);
		cgrp = NULL;
		path = "/";
	}
	wl_workload_replace(cgrp, path);
	return 0;
}

/* Drop the workload's reference.  Context: process, probes detached. */
void wl_workload_exit(void)
{
	wl_workload_replace(NULL, "/");
}

/* "# workload: ..." for the placement tables' comments. */
void wl_workload_put_comment(struct seq_file *m)
{
	struct cgroup *w;

	mutex_lock(&wl_workload_lock);
	w = rcu_dereference_protected(wl_cgrp,
				      lockdep_is_held(&wl_workload_lock));
	if (w)
		seq_printf(m, "# workload: cgroup %s (id %llu); placement: its tasks' wakeups, placement_others: every other task's\n",
			   wl_path, (unsigned long long)cgroup_id(w));
	else
		seq_puts(m, "# workload: every task (/); placement counts them all, placement_others nothing\n");
	mutex_unlock(&wl_workload_lock);
}
#else /* !CONFIG_CGROUPS */
bool wl_workload_has(struct task_struct *p)
{
	return true;
}

int wl_workload_set(const char *path)
{
	if (path[0] != '/')
		return -EINVAL;
	return strcmp(path, "/") ? -EOPNOTSUPP : 0;
}

void wl_workload_exit(void)
{
}

void wl_workload_put_comment(struct seq_file *m)
{
	seq_puts(m, "# workload: every task (this kernel has no cgroups)\n");
}
#endif /* CONFIG_CGROUPS */

/* The workload file's content: the path, "/" for every task. */
void wl_workload_show_path(struct seq_file *m)
{
	mutex_lock(&wl_workload_lock);
	seq_printf(m, "%s\n", wl_path);
	mutex_unlock(&wl_workload_lock);
}
