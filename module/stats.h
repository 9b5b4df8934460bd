/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wakelab: the counters summed over the CPUs, and their tables.
 */
#ifndef WAKELAB_STATS_H
#define WAKELAB_STATS_H

struct seq_file;

void wl_stats_reset(void);
int wl_placement_show(struct seq_file *m, void *v);
int wl_placement_others_show(struct seq_file *m, void *v);
int wl_decisions_show(struct seq_file *m, void *v);
int wl_decisions_others_show(struct seq_file *m, void *v);
int wl_oldcheck_show(struct seq_file *m, void *v);

#endif /* WAKELAB_STATS_H */
