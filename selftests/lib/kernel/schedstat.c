// SPDX-License-Identifier: GPL-2.0
/* /proc/schedstat snapshots: see wl/kernel/schedstat.h. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wl/kernel/schedstat.h"

/* Split @line at blanks into at most @max words; returns the count. */
static int wl_split(char *line, char **w, int max)
{
	char *save = NULL, *t;
	int n = 0;

	for (t = strtok_r(line, " \t\n", &save); t && n < max;
	     t = strtok_r(NULL, " \t\n", &save))
		w[n++] = t;
	return n;
}

static int wl_parse_ull(const char *s, unsigned long long *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	*v = strtoull(s, &end, 10);
	return *end ? -1 : 0;
}

static int wl_sd_line(struct wl_schedstat *s, char **w, int n)
{
	int lvl, first, want, i;
	unsigned long long v[3];

	lvl = atoi(w[0] + 6);
	if (lvl < 0 || lvl >= WL_SD_MAX)
		return -1;
	/* domainN [name] mask fields... */
	first = s->version >= 17 ? 3 : 2;
	want = s->version >= 17 ? WL_SD_FIELDS_V17 : WL_SD_FIELDS_V15;
	if (n != first + want)
		return -1;
	for (i = 0; i < 3; i++)
		if (wl_parse_ull(w[n - 3 + i], &v[i]))
			return -1;
	if (s->version >= 17 && !s->sd[lvl].name[0])
		snprintf(s->sd[lvl].name, WL_SD_NAME_LEN, "%s", w[1]);
	s->sd[lvl].wake_remote += v[0];
	s->sd[lvl].move_affine += v[1];
	s->sd[lvl].move_balance += v[2];
	if (lvl + 1 > s->ndomains)
		s->ndomains = lvl + 1;
	return 0;
}

int wl_schedstat_parse(char *text, struct wl_schedstat *s)
{
	char *line, *save = NULL, *w[64];
	unsigned long long v[2];
	int n;

	memset(s, 0, sizeof(*s));
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		n = wl_split(line, w, 64);
		if (!n)
			continue;
		if (!strcmp(w[0], "version")) {
			if (n != 2)
				return -1;
			s->version = atoi(w[1]);
			if (s->version < 15 || s->version > 17)
				return -2;
		} else if (!strcmp(w[0], "timestamp")) {
			continue;
		} else if (!s->version) {
			return -1;	/* The version line comes first. */
		} else if (!strncmp(w[0], "cpu", 3)) {
			if (n != 1 + WL_RQ_FIELDS ||
			    wl_parse_ull(w[5], &v[0]) ||
			    wl_parse_ull(w[6], &v[1]))
				return -1;
			s->ttwu_count += v[0];
			s->ttwu_local += v[1];
			s->ncpus++;
		} else if (!strncmp(w[0], "domain", 6)) {
			if (wl_sd_line(s, w, n))
				return -1;
		} else {
			return -1;
		}
	}
	return s->version ? 0 : -1;
}

int wl_schedstat_read(const char *path, struct wl_schedstat *s)
{
	size_t len = 0, cap = 1 << 16;
	char *buf, *bigger;
	size_t n;
	FILE *f;
	int ret;

	f = fopen(path, "re");
	if (!f)
		return -1;
	buf = malloc(cap);
	while (buf) {
		n = fread(buf + len, 1, cap - 1 - len, f);
		len += n;
		if (len < cap - 1)
			break;
		cap *= 2;
		bigger = realloc(buf, cap);
		if (!bigger)
			free(buf);
		buf = bigger;
	}
	fclose(f);
	if (!buf)
		return -1;
	buf[len] = '\0';
	ret = wl_schedstat_parse(buf, s);
	free(buf);
	return ret;
}

static unsigned long long wl_ull_delta(unsigned long long a,
				       unsigned long long b)
{
	return b >= a ? b - a : 0;
}

void wl_schedstat_delta(const struct wl_schedstat *a,
			const struct wl_schedstat *b,
			struct wl_schedstat *d)
{
	int i;

	*d = *b;
	d->ttwu_count = wl_ull_delta(a->ttwu_count, b->ttwu_count);
	d->ttwu_local = wl_ull_delta(a->ttwu_local, b->ttwu_local);
	for (i = 0; i < b->ndomains; i++) {
		d->sd[i].wake_remote = wl_ull_delta(a->sd[i].wake_remote,
						    b->sd[i].wake_remote);
		d->sd[i].move_affine = wl_ull_delta(a->sd[i].move_affine,
						    b->sd[i].move_affine);
		d->sd[i].move_balance = wl_ull_delta(a->sd[i].move_balance,
						     b->sd[i].move_balance);
	}
}

int wl_schedstats_enabled(void)
{
	FILE *f = fopen(WL_SCHEDSTATS_SYSCTL, "re");
	int v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%d", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

int wl_schedstats_set(int on)
{
	FILE *f = fopen(WL_SCHEDSTATS_SYSCTL, "we");
	int ret;

	if (!f)
		return -1;
	ret = fprintf(f, "%d\n", on) < 0;
	ret |= fclose(f) != 0;
	return ret ? -1 : 0;
}
