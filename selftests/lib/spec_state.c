// SPDX-License-Identifier: GPL-2.0
/*
 * wl_compare's state file: the original settings, kept while they are
 * changed, for "wl_compare --restore".  See wl/spec.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wl/spec.h"
#include "wl/text.h"
#include "wl/util.h"

/* Names of the kinds of settings in a state file. */
static const char * const wl_kind_names[] = {
	[WL_IT_FEATURE]		= "feature",
	[WL_IT_POLICY]		= "policy",
	[WL_IT_TUNABLE]		= "tunable",
	[WL_IT_IMBALANCE]	= "imbalance_pct",
	[WL_IT_SCHED_CACHE]	= "sched_cache",
};

void wl_state_default_path(const struct wl_state *st,
			   char *buf, size_t len)
{
	if (st->fake)
		wl_state_path(st, buf, len, WL_STATE_NAME);
	else
		snprintf(buf, len, "%s", WL_STATE_PATH);
}

/* This boot's id: a state file from an earlier boot is stale. */
static void wl_boot_id(char *buf, size_t len)
{
	if (wl_read_file("/proc/sys/kernel/random/boot_id", buf, len) < 0)
		snprintf(buf, len, "unknown");
	wl_trim(buf);
}

/* Whether a state file field can hold @s (one line, no tab). */
static int wl_state_field_ok(const char *s)
{
	return !strpbrk(s, "\t\n");
}

int wl_state_save(const struct wl_state *st, const char *path,
		  char *err, size_t elen)
{
	char tmp[PATH_MAX], boot[64];
	int i, ret = 0;
	FILE *f;

	for (i = 0; i < st->nset; i++)
		if (!wl_state_field_ok(st->set[i].key) ||
		    !wl_state_field_ok(st->set[i].path) ||
		    !wl_state_field_ok(st->set[i].orig))
			return wl_err(err, elen,
				      "cannot save %s of %s in %s: a tab or newline in it",
				      st->set[i].key, st->set[i].path, path);
	if (wl_fmt(tmp, sizeof(tmp), "%s.%d", path, (int)getpid()))
		return wl_err(err, elen, "state file path too long: %s", path);
	f = fopen(tmp, "wxe");
	if (!f)
		return wl_err(err, elen, "cannot write the state file %s: %s",
			      tmp, strerror(errno));
	wl_boot_id(boot, sizeof(boot));
	fprintf(f, "%s\n", WL_STATE_MAGIC);
	fputs("# Settings a wl_compare run changed, as they were before it.\n", f);
	fputs("# 'wl_compare --restore' puts them back and removes this file.\n",
	      f);
	fprintf(f, "boot_id %s\npid %d\nroot %s\n", boot, (int)getpid(),
		st->root);
	for (i = 0; i < st->nset; i++)
		fprintf(f, "set\t%s\t%s\t%s\t%s\n",
			wl_kind_names[st->set[i].kind], st->set[i].key,
			st->set[i].path, st->set[i].orig);
	fputs("end\n", f);
	if (fflush(f) || fsync(fileno(f)))
		ret = -errno;
	if (fclose(f) && !ret)
		ret = -errno;
	if (!ret && link(tmp, path))
		ret = -errno;
	unlink(tmp);
	if (ret == -EEXIST)
		return wl_err(err, elen,
			      "%s exists: another wl_compare is running, or one was killed before it restored the settings it changed ('wl_compare --restore' puts them back)",
			      path);
	if (ret)
		return wl_err(err, elen, "cannot write the state file %s: %s",
			      path, strerror(-ret));
	return 0;
}

/* One "set" line (tabs split in place) into a new setting of @st. */
static int wl_state_set_line(struct wl_state *st, char *line)
{
	char *f[5], *save = NULL;
	struct wl_setting *s;
	int n, k;

	for (n = 0; n < 5; n++) {
		f[n] = strtok_r(n ? NULL : line, "\t", &save);
		if (!f[n])
			return -1;
	}
	if (strcmp(f[0], "set") || strtok_r(NULL, "\t", &save) ||
	    st->nset >= WL_SPEC_MAX_SET)
		return -1;
	for (k = 0; k < WL_IT_ARG; k++)
		if (!strcmp(f[1], wl_kind_names[k]))
			break;
	s = &st->set[st->nset];
	memset(s, 0, sizeof(*s));
	s->kind = k;
	if (k == WL_IT_ARG || wl_fmt(s->key, sizeof(s->key), "%s", f[2]) ||
	    wl_fmt(s->path, sizeof(s->path), "%s", f[3]) ||
	    wl_fmt(s->orig, sizeof(s->orig), "%s", f[4]))
		return -1;
	strcpy(s->cur, s->orig);
	st->nset++;
	return 0;
}

int wl_state_load(struct wl_state *st, const char *path,
		  int *pid, char *err, size_t elen)
{
	char line[WL_SPEC_PATH + WL_SPEC_KEY + 2 * WL_SPEC_VAL], boot[64];
	int lineno = 0, end = 0, have = 0, ret = 0;
	size_t n;
	FILE *f;

	st->nset = 0;
	*pid = 0;
	f = fopen(path, "re");
	if (!f)
		return wl_err(err, elen, errno == ENOENT ?
			      "no saved settings: %s does not exist (nothing to restore)" :
			      "cannot read the state file %s: %s", path,
			      strerror(errno));
	wl_boot_id(boot, sizeof(boot));
	while (!ret && fgets(line, sizeof(line), f)) {
		lineno++;
		n = strlen(line);
		if (!n || line[n - 1] != '\n' || end) {
			ret = -1;
			break;
		}
		line[n - 1] = '\0';
		if (lineno == 1) {
			ret = strcmp(line, WL_STATE_MAGIC) ? -1 : 0;
		} else if (line[0] == '#') {
			continue;
		} else if (!strncmp(line, "boot_id ", 8)) {
			if (strcmp(line + 8, boot)) {
				fclose(f);
				return wl_err(err, elen,
					      "%s was written in an earlier boot (boot id %s, now %s): the reboot reset the settings it holds; remove it",
					      path, line + 8, boot);
			}
			have |= 1;
		} else if (!strncmp(line, "pid ", 4)) {
			*pid = atoi(line + 4);
			have |= 2;
		} else if (!strncmp(line, "root ", 5)) {
			if (strcmp(line + 5, st->root)) {
				fclose(f);
				return wl_err(err, elen,
					      "%s holds settings under %s, not %s",
					      path, line + 5, st->root);
			}
			have |= 4;
		} else if (!strcmp(line, "end")) {
			end = 1;
		} else {
			ret = wl_state_set_line(st, line);
		}
	}
	fclose(f);
	if (ret || !end || have != 7 || *pid <= 0 || !st->nset)
		return wl_err(err, elen,
			      "%s is not a complete wl_compare state file (line %d); restore by hand from it, then remove it",
			      path, lineno);
	st->saved = 1;
	return 0;
}
