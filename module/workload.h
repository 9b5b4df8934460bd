/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wakelab: the workload, a cgroup v2 whose tasks' wakeups the placement
 * table counts; every other task's go to placement_others.
 */
#ifndef WAKELAB_WORKLOAD_H
#define WAKELAB_WORKLOAD_H

#include <linux/types.h>

struct seq_file;
struct task_struct;

/* Longest cgroup path the workload file takes, newline included. */
#define WL_WORKLOAD_PATH_MAX	256

bool wl_workload_has(struct task_struct *p);
int wl_workload_set(const char *path);
void wl_workload_show_path(struct seq_file *m);
void wl_workload_put_comment(struct seq_file *m);
void wl_workload_exit(void);

#endif /* WAKELAB_WORKLOAD_H */
