/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reader for the tables in /sys/kernel/debug/wakelab/ (placement, llc,
 * caps, decisions, oldcheck), shared by every user-space tool and test: one
 * parser for one format.  Lines starting with '#' are comments; the first
 * other line names the columns; every following line is one record with
 * exactly as many whitespace-separated fields, the first being the record's
 * key.  Parsing is strict: a ragged record, a repeated key, a missing
 * header or a table over the size limits is an error, never half a table.  Cells stay strings
 * ("-" marks a value the kernel cannot observe); wl_dbg_u64() converts the
 * numeric ones.  Header-only; libc only.
 */
#ifndef WAKELAB_DEBUGFS_H
#define WAKELAB_DEBUGFS_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WL_DBG_ROOT		"/sys/kernel/debug/wakelab"
#define WL_DBG_MAX_COLS		32
#define WL_DBG_MAX_ROWS		256
#define WL_DBG_TOKEN		64
#define WL_DBG_MAX_TEXT		(1 << 20)

/**
 * struct wl_dbg_table - one parsed table
 * @ncols:	columns, the key column included
 * @nrows:	records
 * @col:	column names
 * @cell:	cell[row][col]; cell[row][0] is the record's key
 *
 * About 530 KiB: allocate it (wl_dbg_table_new()), do not put it on the
 * stack.
 */
struct wl_dbg_table {
	int ncols;
	int nrows;
	char col[WL_DBG_MAX_COLS][WL_DBG_TOKEN];
	char cell[WL_DBG_MAX_ROWS][WL_DBG_MAX_COLS][WL_DBG_TOKEN];
};

static inline struct wl_dbg_table *wl_dbg_table_new(void)
{
	return calloc(1, sizeof(struct wl_dbg_table));
}

/* Split one line into @out; returns the field count or -E2BIG. */
static inline int wl_dbg_split(const char *line, size_t len,
			       char out[][WL_DBG_TOKEN])
{
	size_t i = 0, start;
	int n = 0;

	while (i < len) {
		while (i < len && (line[i] == ' ' || line[i] == '\t' ||
				   line[i] == '\r'))
			i++;
		if (i >= len)
			break;
		start = i;
		while (i < len && line[i] != ' ' && line[i] != '\t' &&
		       line[i] != '\r')
			i++;
		if (n >= WL_DBG_MAX_COLS || i - start >= WL_DBG_TOKEN)
			return -E2BIG;
		memcpy(out[n], line + start, i - start);
		out[n][i - start] = '\0';
		n++;
	}
	return n;
}

/**
 * wl_dbg_table_parse() - parse a table's text
 * @text: NUL-terminated file contents
 * @t: the result (overwritten)
 *
 * Return: 0; -EINVAL when there is no header, a record has the wrong
 * field count or repeats an earlier key; -E2BIG over the size limits.
 */
static inline int wl_dbg_table_parse(const char *text, struct wl_dbg_table *t)
{
	const char *p = text, *nl;
	size_t len;
	int n, r;

	t->ncols = 0;
	t->nrows = 0;
	while (*p) {
		nl = strchr(p, '\n');
		len = nl ? (size_t)(nl - p) : strlen(p);
		while (len && (*p == ' ' || *p == '\t')) {
			p++;
			len--;
		}
		if (len && *p != '#') {
			if (!t->ncols) {
				n = wl_dbg_split(p, len, t->col);
				if (n < 0)
					return n;
				t->ncols = n;
			} else {
				if (t->nrows >= WL_DBG_MAX_ROWS)
					return -E2BIG;
				n = wl_dbg_split(p, len, t->cell[t->nrows]);
				if (n < 0)
					return n;
				if (n && n != t->ncols)
					return -EINVAL;
				for (r = 0; n && r < t->nrows; r++)
					if (!strcmp(t->cell[r][0],
						    t->cell[t->nrows][0]))
						return -EINVAL;
				if (n)
					t->nrows++;
			}
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	return t->ncols ? 0 : -EINVAL;
}

/* Read and parse the table at @path; 0 or -errno (see above). */
static inline int wl_dbg_table_read(const char *path, struct wl_dbg_table *t)
{
	size_t len = 0, n;
	char *buf;
	FILE *f;
	int ret;

	f = fopen(path, "re");
	if (!f)
		return -errno;
	buf = malloc(WL_DBG_MAX_TEXT);
	if (!buf) {
		fclose(f);
		return -ENOMEM;
	}
	while ((n = fread(buf + len, 1, WL_DBG_MAX_TEXT - 1 - len, f)) > 0)
		len += n;
	ret = ferror(f) ? -EIO : 0;
	fclose(f);
	if (!ret && len >= WL_DBG_MAX_TEXT - 1)
		ret = -E2BIG;
	if (!ret) {
		buf[len] = '\0';
		ret = wl_dbg_table_parse(buf, t);
	}
	free(buf);
	return ret;
}

/* Index of column @name, or -1. */
static inline int wl_dbg_col(const struct wl_dbg_table *t, const char *name)
{
	int c;

	for (c = 0; c < t->ncols; c++)
		if (!strcmp(t->col[c], name))
			return c;
	return -1;
}

/* Index of the record whose key is @key, or -1. */
static inline int wl_dbg_row(const struct wl_dbg_table *t, const char *key)
{
	int r;

	for (r = 0; r < t->nrows; r++)
		if (!strcmp(t->cell[r][0], key))
			return r;
	return -1;
}

/* Cell (@row, @col) as an unsigned number: 0, or -EINVAL when it is not. */
static inline int wl_dbg_u64(const struct wl_dbg_table *t, int row, int col,
			     unsigned long long *v)
{
	const char *s;
	char *end;

	if (row < 0 || row >= t->nrows || col < 0 || col >= t->ncols)
		return -EINVAL;
	s = t->cell[row][col];
	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return *end || errno ? -EINVAL : 0;
}

/* Cell (@key, @name) as a number: 0, -ENOENT (no such cell), -EINVAL. */
static inline int wl_dbg_get(const struct wl_dbg_table *t, const char *key,
			     const char *name, unsigned long long *v)
{
	int r = wl_dbg_row(t, key), c = wl_dbg_col(t, name);

	if (r < 0 || c < 0)
		return -ENOENT;
	return wl_dbg_u64(t, r, c, v);
}

#define WL_DBG_MAX_POLICIES	WL_DBG_MAX_COLS

/**
 * struct wl_dbg_policy - the policy file: names, the active one bracketed
 * @n:		policies listed
 * @active:	index of the bracketed one
 * @name:	policy names, brackets stripped
 */
struct wl_dbg_policy {
	int n;
	int active;
	char name[WL_DBG_MAX_POLICIES][WL_DBG_TOKEN];
};

/**
 * wl_dbg_policy_parse() - parse the policy file's text
 * @text: NUL-terminated file contents
 * @pol: the result
 *
 * The first non-comment line lists every policy; exactly one is written
 * "[name]".  Return: 0, -EINVAL (no line, no or several active, empty
 * brackets, repeated name), -E2BIG over the limits.
 */
static inline int wl_dbg_policy_parse(const char *text,
				      struct wl_dbg_policy *pol)
{
	char tok[WL_DBG_MAX_POLICIES][WL_DBG_TOKEN];
	const char *p = text, *nl;
	size_t len, l;
	int n, i, j;

	pol->n = 0;
	pol->active = -1;
	while (*p) {
		nl = strchr(p, '\n');
		len = nl ? (size_t)(nl - p) : strlen(p);
		while (len && (*p == ' ' || *p == '\t')) {
			p++;
			len--;
		}
		if (len && *p != '#')
			break;
		if (!nl)
			return -EINVAL;
		p = nl + 1;
	}
	if (!*p)
		return -EINVAL;
	n = wl_dbg_split(p, len, tok);
	if (n <= 0)
		return n < 0 ? n : -EINVAL;
	for (i = 0; i < n; i++) {
		l = strlen(tok[i]);
		if (tok[i][0] == '[') {
			if (l < 3 || tok[i][l - 1] != ']' || pol->active >= 0)
				return -EINVAL;
			memcpy(pol->name[i], tok[i] + 1, l - 2);
			pol->name[i][l - 2] = '\0';
			pol->active = i;
		} else {
			if (strchr(tok[i], '[') || strchr(tok[i], ']'))
				return -EINVAL;
			memcpy(pol->name[i], tok[i], l + 1);
		}
		for (j = 0; j < i; j++)
			if (!strcmp(pol->name[j], pol->name[i]))
				return -EINVAL;
	}
	pol->n = n;
	return pol->active >= 0 ? 0 : -EINVAL;
}

#endif /* WAKELAB_DEBUGFS_H */
