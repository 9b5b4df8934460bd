/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Wakeup counters from /proc/schedstat, summed over all CPUs: the runqueue
 * ttwu_count and ttwu_local, and per domain level ttwu_wake_remote,
 * ttwu_move_affine and ttwu_move_balance (the last three fields of every
 * domain line).  The format is parsed by version: 15 (6.1), 16 (idle type
 * columns reordered) and 17 (domain name before the mask, lb_imbalance split
 * in four), and checked by field count, so a new format fails loudly
 * instead of being misread.  Whether the counters move at all depends on
 * kernel.sched_schedstats (off by default).
 */
#ifndef WL_SCHEDSTAT_H
#define WL_SCHEDSTAT_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WS_SCHEDSTAT_PATH	"/proc/schedstat"
#define WS_SCHEDSTATS_SYSCTL	"/proc/sys/kernel/sched_schedstats"
#define WS_SD_MAX		8
#define WS_SD_NAME_LEN		16
/* Numeric fields after the mask: 3 idle types x 8 (x 11 in v17) + 12. */
#define WS_SD_FIELDS_V15	36
#define WS_SD_FIELDS_V17	45
#define WS_RQ_FIELDS		9

/**
 * struct ws_sd_stat - one domain level, summed over CPUs
 * @name:		sched domain name (v17 prints it; else empty)
 * @wake_remote:	ttwu_wake_remote: wakee's previous CPU in this domain
 * @move_affine:	ttwu_move_affine: wake_affine() pulled the wakee
 * @move_balance:	ttwu_move_balance (unused since 2.6.x, kept)
 */
struct ws_sd_stat {
	char name[WS_SD_NAME_LEN];
	unsigned long long wake_remote, move_affine, move_balance;
};

/**
 * struct ws_schedstat - one snapshot of /proc/schedstat
 * @version:	format version from the "version" line
 * @ncpus:	cpuN lines seen
 * @ttwu_count:	wakeups, summed over runqueues
 * @ttwu_local:	wakeups onto the waking CPU
 * @ndomains:	domain levels seen (deepest CPU decides)
 * @sd:		per domain level
 */
struct ws_schedstat {
	int version;
	int ncpus;
	unsigned long long ttwu_count, ttwu_local;
	int ndomains;
	struct ws_sd_stat sd[WS_SD_MAX];
};

/* Split @line at blanks into at most @max words; returns the count. */
static inline int ws_split(char *line, char **w, int max)
{
	char *save = NULL, *t;
	int n = 0;

	for (t = strtok_r(line, " \t\n", &save); t && n < max;
	     t = strtok_r(NULL, " \t\n", &save))
		w[n++] = t;
	return n;
}

static inline int ws_parse_ull(const char *s, unsigned long long *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	*v = strtoull(s, &end, 10);
	return *end ? -1 : 0;
}

static inline int ws_sd_line(struct ws_schedstat *s, char **w, int n)
{
	int lvl, first, want, i;
	unsigned long long v[3];

	lvl = atoi(w[0] + 6);
	if (lvl < 0 || lvl >= WS_SD_MAX)
		return -1;
	/* domainN [name] mask fields... */
	first = s->version >= 17 ? 3 : 2;
	want = s->version >= 17 ? WS_SD_FIELDS_V17 : WS_SD_FIELDS_V15;
	if (n != first + want)
		return -1;
	for (i = 0; i < 3; i++)
		if (ws_parse_ull(w[n - 3 + i], &v[i]))
			return -1;
	if (s->version >= 17 && !s->sd[lvl].name[0])
		snprintf(s->sd[lvl].name, WS_SD_NAME_LEN, "%s", w[1]);
	s->sd[lvl].wake_remote += v[0];
	s->sd[lvl].move_affine += v[1];
	s->sd[lvl].move_balance += v[2];
	if (lvl + 1 > s->ndomains)
		s->ndomains = lvl + 1;
	return 0;
}

/**
 * ws_schedstat_parse() - parse a /proc/schedstat text
 * @text: the file contents (modified: split in place)
 * @s: the sums
 *
 * Return: 0; -1 for a malformed line; -2 for an unknown version.
 */
static inline int ws_schedstat_parse(char *text, struct ws_schedstat *s)
{
	char *line, *save = NULL, *w[64];
	unsigned long long v[2];
	int n;

	memset(s, 0, sizeof(*s));
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		n = ws_split(line, w, 64);
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
			if (n != 1 + WS_RQ_FIELDS ||
			    ws_parse_ull(w[5], &v[0]) ||
			    ws_parse_ull(w[6], &v[1]))
				return -1;
			s->ttwu_count += v[0];
			s->ttwu_local += v[1];
			s->ncpus++;
		} else if (!strncmp(w[0], "domain", 6)) {
			if (ws_sd_line(s, w, n))
				return -1;
		} else {
			return -1;
		}
	}
	return s->version ? 0 : -1;
}

/* Read and parse @path; 0, -1 (unreadable or malformed) or -2. */
static inline int ws_schedstat_read(const char *path, struct ws_schedstat *s)
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
	ret = ws_schedstat_parse(buf, s);
	free(buf);
	return ret;
}

static inline unsigned long long ws_ull_delta(unsigned long long a,
					      unsigned long long b)
{
	return b >= a ? b - a : 0;
}

/* @d = @b - @a, counter by counter; names come from @b. */
static inline void ws_schedstat_delta(const struct ws_schedstat *a,
				      const struct ws_schedstat *b,
				      struct ws_schedstat *d)
{
	int i;

	*d = *b;
	d->ttwu_count = ws_ull_delta(a->ttwu_count, b->ttwu_count);
	d->ttwu_local = ws_ull_delta(a->ttwu_local, b->ttwu_local);
	for (i = 0; i < b->ndomains; i++) {
		d->sd[i].wake_remote = ws_ull_delta(a->sd[i].wake_remote,
						    b->sd[i].wake_remote);
		d->sd[i].move_affine = ws_ull_delta(a->sd[i].move_affine,
						    b->sd[i].move_affine);
		d->sd[i].move_balance = ws_ull_delta(a->sd[i].move_balance,
						     b->sd[i].move_balance);
	}
}

/* kernel.sched_schedstats: 1 on, 0 off, -1 unknown (no such sysctl). */
static inline int ws_schedstats_enabled(void)
{
	FILE *f = fopen(WS_SCHEDSTATS_SYSCTL, "re");
	int v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%d", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static inline int ws_schedstats_set(int on)
{
	FILE *f = fopen(WS_SCHEDSTATS_SYSCTL, "we");
	int ret;

	if (!f)
		return -1;
	ret = fprintf(f, "%d\n", on) < 0;
	ret |= fclose(f) != 0;
	return ret ? -1 : 0;
}

#endif /* WL_SCHEDSTAT_H */
