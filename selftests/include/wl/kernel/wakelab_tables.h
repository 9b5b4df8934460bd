/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one reader of wakelab.ko's debugfs tables (placement, decisions,
 * oldcheck, llc, caps) and of its policy file.  The format is
 * <linux/wakelab.h>'s: a "# version N" first line, comment lines ("# ..."),
 * a header line naming the columns, then one record a line with exactly as
 * many whitespace-separated fields, the first being the record's key.
 * Parsing is strict: a missing version line, a version newer than
 * WAKELAB_TABLE_VERSION, a ragged record, a repeated key, a missing header
 * or a table over the size limits is an error, never half a table.  Cells
 * stay strings ("-" marks a value the kernel cannot observe); wl_table_u64()
 * converts the numeric ones.
 */
#ifndef WL_KERNEL_WAKELAB_TABLES_H
#define WL_KERNEL_WAKELAB_TABLES_H

#include <stddef.h>
#include <linux/wakelab.h>

#define WL_TABLE_MAX_COLS	32
#define WL_TABLE_MAX_ROWS	256
#define WL_TABLE_TOKEN		64
#define WL_TABLE_MAX_TEXT	(1 << 20)

/* Header lines of the tables, from <linux/wakelab.h>'s column lists. */
#define WL_COLUMN_NAME(id, name)	" " name
#define WL_PLACEMENT_HEADER	\
	(WAKELAB_PLACEMENT_KEY WAKELAB_PLACEMENT_COLUMNS(WL_COLUMN_NAME))
#define WL_DECISIONS_HEADER	\
	(WAKELAB_DECISIONS_KEY WAKELAB_DECISIONS_COLUMNS(WL_COLUMN_NAME))
#define WL_OLDCHECK_HEADER	\
	(WAKELAB_OLDCHECK_KEY WAKELAB_OLDCHECK_COLUMNS(WL_COLUMN_NAME))
#define WL_LLC_HEADER		(WAKELAB_LLC_KEY WAKELAB_LLC_COLUMNS(WL_COLUMN_NAME))
#define WL_CAPS_HEADER		(WAKELAB_CAPS_KEY WAKELAB_CAPS_COLUMNS(WL_COLUMN_NAME))

/**
 * struct wl_table - one parsed table
 * @version:	its "# version N"
 * @ncols:	columns, the key column included
 * @nrows:	records
 * @err:	why the last parse failed ("" after a success)
 * @col:	column names
 * @cell:	cell[row][col]; cell[row][0] is the record's key
 *
 * About 530 KiB: allocate it (wl_table_new()), do not put it on the stack.
 */
struct wl_table {
	int version;
	int ncols;
	int nrows;
	char err[256];
	char col[WL_TABLE_MAX_COLS][WL_TABLE_TOKEN];
	char cell[WL_TABLE_MAX_ROWS][WL_TABLE_MAX_COLS][WL_TABLE_TOKEN];
};

/* A zeroed table, or NULL; free() it. */
struct wl_table *wl_table_new(void);

/**
 * wl_table_parse() - parse a table's text
 * @text: NUL-terminated file contents
 * @src: what the text is (a path), for @t->err
 * @t: the result (overwritten)
 *
 * Return: 0; -EBADMSG when the first line is not "# version N";
 * -EPROTONOSUPPORT when N > WAKELAB_TABLE_VERSION (@t->err names @src and
 * both versions); -EINVAL when there is no header, a record has the wrong
 * field count or repeats an earlier key; -E2BIG over the size limits.
 */
int wl_table_parse(const char *text, const char *src, struct wl_table *t);

/*
 * Read and parse the table at @path: 0 or -errno as above.  A version
 * error is also printed on stderr.
 */
int wl_table_load(const char *path, struct wl_table *t);

/* Index of column @name, or -1. */
int wl_table_col(const struct wl_table *t, const char *name);

/* Index of the record whose key is @key, or -1. */
int wl_table_row(const struct wl_table *t, const char *key);

/* Cell (@row, @col) as an unsigned number: 0, or -EINVAL when it is not. */
int wl_table_u64(const struct wl_table *t, int row, int col,
		 unsigned long long *v);

/* Cell (@key, @name) as a number: 0, -ENOENT (no such cell), -EINVAL. */
int wl_table_get(const struct wl_table *t, const char *key, const char *name,
		 unsigned long long *v);

/* The column names of @t joined by single spaces, into @buf. */
void wl_table_header(const struct wl_table *t, char *buf, size_t len);

#define WL_POLICY_LIST_MAX	WL_TABLE_MAX_COLS

/**
 * struct wl_policy_list - the policy file: names, the active one bracketed
 * @n:		policies listed
 * @active:	index of the bracketed one
 * @name:	policy names, brackets stripped
 */
struct wl_policy_list {
	int n;
	int active;
	char name[WL_POLICY_LIST_MAX][WL_TABLE_TOKEN];
};

/**
 * wl_policy_parse() - parse the policy file's text
 * @text: NUL-terminated file contents
 * @pol: the result
 *
 * The first non-comment line lists every policy; exactly one is written
 * "[name]".  Return: 0, -EINVAL (no line, no or several active, empty
 * brackets, repeated name), -E2BIG over the limits.
 */
int wl_policy_parse(const char *text, struct wl_policy_list *pol);

#endif /* WL_KERNEL_WAKELAB_TABLES_H */
