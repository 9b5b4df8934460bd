// SPDX-License-Identifier: GPL-2.0
/*
 * wakelab: writing the debugfs tables.
 *
 * A table is its version line, comment lines, a header line (the key
 * column, then the names of its X-macro list in <linux/wakelab.h>) and one
 * row per line; fields are separated by one space and "-" marks a value
 * this kernel or method cannot provide.
 */
#include <linux/seq_file.h>

#include "table.h"

/* The first line of every table. */
void wl_table_put_version(struct seq_file *m)
{
	seq_printf(m, WAKELAB_VERSION_PREFIX "%d\n", WAKELAB_TABLE_VERSION);
}

/**
 * wl_table_put_header() - the header line: @key, then the @n column @names
 * @m: the table
 * @key: name of the key column
 * @names: column names
 * @n: how many
 */
void wl_table_put_header(struct seq_file *m, const char *key,
			 const char * const *names, size_t n)
{
	size_t i;

	seq_puts(m, key);
	for (i = 0; i < n; i++)
		seq_printf(m, " %s", names[i]);
	seq_putc(m, '\n');
}

/* One field: @v, or "-" when not @have. */
void wl_table_put_value(struct seq_file *m, bool have, unsigned long v)
{
	if (have)
		seq_printf(m, " %lu", v);
	else
		seq_puts(m, " -");
}
