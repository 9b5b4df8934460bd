/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wakelab: the llc table.
 */
#ifndef WAKELAB_LLC_TABLE_H
#define WAKELAB_LLC_TABLE_H

struct seq_file;

int wl_llc_show(struct seq_file *m, void *v);

#endif /* WAKELAB_LLC_TABLE_H */
