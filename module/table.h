/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wakelab: writing the debugfs tables in the format of <linux/wakelab.h>.
 */
#ifndef WAKELAB_TABLE_H
#define WAKELAB_TABLE_H

#include <linux/types.h>
#include <linux/wakelab.h>

struct seq_file;

/* The column names of a table's X-macro list, as an array initialiser. */
#define WL_TABLE_NAME(id, name)	name,

void wl_table_put_version(struct seq_file *m);
void wl_table_put_header(struct seq_file *m, const char *key,
			 const char * const *names, size_t n);
void wl_table_put_value(struct seq_file *m, bool have, unsigned long v);

#endif /* WAKELAB_TABLE_H */
