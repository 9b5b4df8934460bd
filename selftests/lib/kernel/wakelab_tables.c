// SPDX-License-Identifier: GPL-2.0
/*
 * The reader of wakelab.ko's debugfs tables and policy file; see
 * include/wl/kernel/wakelab_tables.h and <linux/wakelab.h> for the format.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wl/kernel/wakelab_tables.h"

struct wl_table *wl_table_new(void)
{
	return calloc(1, sizeof(struct wl_table));
}

/* Split one line into @out; returns the field count or -E2BIG. */
static int wl_split(const char *line, size_t len, char out[][WL_TABLE_TOKEN])
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
		if (n >= WL_TABLE_MAX_COLS || i - start >= WL_TABLE_TOKEN)
			return -E2BIG;
		memcpy(out[n], line + start, i - start);
		out[n][i - start] = '\0';
		n++;
	}
	return n;
}

/*
 * The next line from *@p that is neither blank nor a comment, leading
 * blanks skipped: its start, its length in *@len, *@p moved past it; NULL
 * at the end of the text.
 */
static const char *wl_next_line(const char **p, size_t *len)
{
	const char *s, *nl;

	while (**p) {
		s = *p;
		nl = strchr(s, '\n');
		*len = nl ? (size_t)(nl - s) : strlen(s);
		*p = nl ? nl + 1 : s + *len;
		while (*len && (*s == ' ' || *s == '\t' || *s == '\r')) {
			s++;
			(*len)--;
		}
		if (*len && *s != '#')
			return s;
	}
	return NULL;
}

/*
 * The "# version N" first line of @text: 0 with N in @t->version and *@p
 * past the line, or a version error described in @t->err.
 */
static int wl_table_version(const char *text, const char *src,
			    struct wl_table *t, const char **p)
{
	const size_t plen = strlen(WAKELAB_VERSION_PREFIX);
	char *end;
	long v;

	if (strncmp(text, WAKELAB_VERSION_PREFIX, plen) ||
	    text[plen] < '0' || text[plen] > '9') {
		snprintf(t->err, sizeof(t->err),
			 "%s: first line is not \"%sN\" (this reader knows version %d)",
			 src, WAKELAB_VERSION_PREFIX, WAKELAB_TABLE_VERSION);
		return -EBADMSG;
	}
	errno = 0;
	v = strtol(text + plen, &end, 10);
	if (errno || v < 1 || (*end && *end != '\n')) {
		snprintf(t->err, sizeof(t->err), "%s: bad version line \"%.*s\"",
			 src, (int)strcspn(text, "\n"), text);
		return -EBADMSG;
	}
	if (v > WAKELAB_TABLE_VERSION) {
		snprintf(t->err, sizeof(t->err),
			 "%s: table version %ld is newer than version %d, the newest this reader knows: update the tools",
			 src, v, WAKELAB_TABLE_VERSION);
		return -EPROTONOSUPPORT;
	}
	t->version = v;
	*p = *end ? end + 1 : end;
	return 0;
}

/* Record @line as row @t->nrows: 0 or -errno. */
static int wl_table_add(struct wl_table *t, const char *line, size_t len)
{
	char (*row)[WL_TABLE_TOKEN] = t->cell[t->nrows];
	int n, r;

	if (t->nrows >= WL_TABLE_MAX_ROWS)
		return -E2BIG;
	n = wl_split(line, len, row);
	if (n < 0)
		return n;
	if (n != t->ncols)
		return -EINVAL;
	for (r = 0; r < t->nrows; r++)
		if (!strcmp(t->cell[r][0], row[0]))
			return -EINVAL;
	t->nrows++;
	return 0;
}

int wl_table_parse(const char *text, const char *src, struct wl_table *t)
{
	const char *p, *line;
	size_t len;
	int ret;

	t->version = 0;
	t->ncols = 0;
	t->nrows = 0;
	t->err[0] = '\0';
	ret = wl_table_version(text, src, t, &p);
	if (ret)
		return ret;
	line = wl_next_line(&p, &len);
	if (!line) {
		snprintf(t->err, sizeof(t->err), "%s: no header line", src);
		return -EINVAL;
	}
	ret = wl_split(line, len, t->col);
	if (ret < 0) {
		snprintf(t->err, sizeof(t->err), "%s: header line over the limits",
			 src);
		return ret;
	}
	t->ncols = ret;
	while ((line = wl_next_line(&p, &len))) {
		ret = wl_table_add(t, line, len);
		if (ret) {
			snprintf(t->err, sizeof(t->err),
				 "%s: bad record %d \"%.*s\"", src, t->nrows + 1,
				 (int)(len < 80 ? len : 80), line);
			return ret;
		}
	}
	return 0;
}

int wl_table_load(const char *path, struct wl_table *t)
{
	size_t len = 0, n;
	char *buf;
	FILE *f;
	int ret;

	f = fopen(path, "re");
	if (!f)
		return -errno;
	buf = malloc(WL_TABLE_MAX_TEXT);
	if (!buf) {
		fclose(f);
		return -ENOMEM;
	}
	while ((n = fread(buf + len, 1, WL_TABLE_MAX_TEXT - 1 - len, f)) > 0)
		len += n;
	ret = ferror(f) ? -EIO : 0;
	fclose(f);
	if (!ret && len >= WL_TABLE_MAX_TEXT - 1)
		ret = -E2BIG;
	if (!ret) {
		buf[len] = '\0';
		ret = wl_table_parse(buf, path, t);
		if (ret == -EBADMSG || ret == -EPROTONOSUPPORT)
			fprintf(stderr, "wakelab: %s\n", t->err);
	}
	free(buf);
	return ret;
}

int wl_table_col(const struct wl_table *t, const char *name)
{
	int c;

	for (c = 0; c < t->ncols; c++)
		if (!strcmp(t->col[c], name))
			return c;
	return -1;
}

int wl_table_row(const struct wl_table *t, const char *key)
{
	int r;

	for (r = 0; r < t->nrows; r++)
		if (!strcmp(t->cell[r][0], key))
			return r;
	return -1;
}

int wl_table_u64(const struct wl_table *t, int row, int col,
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

int wl_table_get(const struct wl_table *t, const char *key, const char *name,
		 unsigned long long *v)
{
	int r = wl_table_row(t, key), c = wl_table_col(t, name);

	if (r < 0 || c < 0)
		return -ENOENT;
	return wl_table_u64(t, r, c, v);
}

void wl_table_header(const struct wl_table *t, char *buf, size_t len)
{
	size_t off = 0;
	int c;

	buf[0] = '\0';
	for (c = 0; c < t->ncols && off < len; c++)
		off += snprintf(buf + off, len - off, "%s%s", c ? " " : "",
				t->col[c]);
}

/* Policy name @tok into @pol's slot @i, the active one when bracketed. */
static int wl_policy_name(struct wl_policy_list *pol, int i, const char *tok)
{
	size_t l = strlen(tok);
	int j;

	if (tok[0] == '[') {
		if (l < 3 || tok[l - 1] != ']' || pol->active >= 0)
			return -EINVAL;
		memcpy(pol->name[i], tok + 1, l - 2);
		pol->name[i][l - 2] = '\0';
		pol->active = i;
	} else {
		if (strchr(tok, '[') || strchr(tok, ']'))
			return -EINVAL;
		memcpy(pol->name[i], tok, l + 1);
	}
	for (j = 0; j < i; j++)
		if (!strcmp(pol->name[j], pol->name[i]))
			return -EINVAL;
	return 0;
}

int wl_policy_parse(const char *text, struct wl_policy_list *pol)
{
	char tok[WL_POLICY_LIST_MAX][WL_TABLE_TOKEN];
	const char *p = text, *line;
	size_t len;
	int n, i, ret;

	pol->n = 0;
	pol->active = -1;
	line = wl_next_line(&p, &len);
	if (!line)
		return -EINVAL;
	n = wl_split(line, len, tok);
	if (n <= 0)
		return n < 0 ? n : -EINVAL;
	for (i = 0; i < n; i++) {
		ret = wl_policy_name(pol, i, tok[i]);
		if (ret)
			return ret;
	}
	pol->n = n;
	return pol->active >= 0 ? 0 : -EINVAL;
}
