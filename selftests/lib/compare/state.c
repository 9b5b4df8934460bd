// SPDX-License-Identifier: GPL-2.0
/*
 * wl_compare's state file: the original settings, kept while they are
 * changed, for "wl_compare --restore".  See wl/compare/state.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wl/compare/state.h"
#include "wl/core/file.h"
#include "wl/core/text.h"

/* Names of the kinds of settings in a state file. */
static const char * const wl_kind_names[] = {
	[WL_IT_FEATURE]		= "feature",
	[WL_IT_POLICY]		= "policy",
	[WL_IT_TUNABLE]		= "tunable",
	[WL_IT_IMBALANCE]	= "imbalance_pct",
	[WL_IT_SCHED_CACHE]	= "sched_cache",
	[WL_IT_PARAM]		= "param",
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
	int i, fd, ret = 0;
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
	/* Only its owner may write it: --restore refuses it otherwise. */
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
		  0600);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		ret = errno;
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		return wl_err(err, elen, "cannot write the state file %s: %s",
			      tmp, strerror(ret));
	}
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

/* @s is non-empty and made of the characters of @set only. */
static int wl_all_of(const char *s, const char *set)
{
	return *s && strspn(s, set) == strlen(s);
}

#define WL_UPPER	"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"
#define WL_LOWER	"abcdefghijklmnopqrstuvwxyz0123456789_"
#define WL_DIGITS	"0123456789"

/*
 * Whether setting @s is one wl_compare itself saves: the path its kind and
 * key give under @root, and a value of that kind; 0, or -1 with @why.
 */
static int wl_state_set_ok(const struct wl_setting *s, const char *root,
			   char *why, size_t len)
{
	char want[WL_SPEC_PATH + 64] = "", rel[WL_SPEC_PATH];
	const char *p, *k = s->key, *v = s->orig;
	unsigned int cpu, dom;
	int n = -1, key_ok = 0, val_ok = 0;

	for (p = s->path; p; p = strchr(p, '/')) {
		p += *p == '/';
		if (!strncmp(p, "..", 2) && (!p[2] || p[2] == '/'))
			return wl_err(why, len, "a path with a '..' component");
	}
	switch (s->kind) {
	case WL_IT_FEATURE:
		key_ok = wl_all_of(k, WL_UPPER);
		val_ok = !strcmp(v, "0") || !strcmp(v, "1");
		wl_fmt(want, sizeof(want), "%s/sched/features", root);
		break;
	case WL_IT_POLICY:
		key_ok = !strcmp(k, "policy");
		val_ok = wl_all_of(v, WL_LOWER "+-");
		wl_fmt(want, sizeof(want), "%s/wakelab/policy", root);
		break;
	case WL_IT_TUNABLE:
		key_ok = wl_all_of(k, WL_LOWER) && strcmp(k, "policy") &&
			 strcmp(k, "placement") && strcmp(k, "caps") &&
			 strcmp(k, "reset") && strcmp(k, "llc");
		val_ok = wl_all_of(v, WL_DIGITS);
		wl_fmt(want, sizeof(want), "%s/wakelab/%s", root, k);
		break;
	case WL_IT_IMBALANCE:
		key_ok = wl_all_of(k, WL_UPPER);
		val_ok = wl_all_of(v, WL_DIGITS);
		/* sched/domains/cpuN/domainM/imbalance_pct, as printed. */
		if (!strncmp(s->path, root, strlen(root)) &&
		    !wl_fmt(rel, sizeof(rel), "%s", s->path + strlen(root)) &&
		    sscanf(rel, "/sched/domains/cpu%u/domain%u/imbalance_pct%n",
			   &cpu, &dom, &n) == 2 && n == (int)strlen(rel))
			wl_fmt(want, sizeof(want),
			       "%s/sched/domains/cpu%u/domain%u/imbalance_pct",
			       root, cpu, dom);
		else
			wl_fmt(want, sizeof(want),
			       "%s/sched/domains/cpuN/domainM/imbalance_pct", root);
		break;
	case WL_IT_SCHED_CACHE:
		key_ok = wl_spec_llc_file(k) >= 0;
		val_ok = wl_all_of(v, WL_DIGITS);
		wl_fmt(want, sizeof(want), "%s/" WL_LLC_BALANCING "/%s", root, k);
		break;
	case WL_IT_PARAM:
		/* MODULE.NAME: /sys/module/MODULE/parameters/NAME. */
		p = strchr(k, '.');
		key_ok = p && p > k && wl_all_of(p + 1, WL_LOWER) &&
			 strspn(k, WL_LOWER) == (size_t)(p - k);
		val_ok = wl_all_of(v, WL_PARAM_CHARS);
		if (key_ok) {
			wl_fmt(rel, sizeof(rel), "module/%.*s/parameters/%s",
			       (int)(p - k), k, p + 1);
			wl_sys_path(root, want, sizeof(want), rel);
		}
		break;
	default:
		break;
	}
	if (!key_ok)
		return wl_err(why, len, "no %s wl_compare saves is named '%s'",
			      wl_kind_names[s->kind], k);
	if (strcmp(want, s->path))
		return wl_err(why, len,
			      "not the file wl_compare saves it from (%s)", want);
	if (!val_ok)
		return wl_err(why, len, "'%s' is no value a %s has", v,
			      wl_kind_names[s->kind]);
	return 0;
}

/*
 * Whether the state file open as @fd at @path, and its directory, are
 * safe to take orders from: this user's (root's as root), not writable by
 * group or others; 0, or -1 with @err.
 */
static int wl_state_trusted(int fd, const char *path, char *err, size_t elen)
{
	char dir[PATH_MAX], *slash;
	uid_t me = geteuid();
	struct stat sb;

	if (fstat(fd, &sb))
		return wl_err(err, elen, "cannot stat the state file %s: %s",
			      path, strerror(errno));
	if (!S_ISREG(sb.st_mode))
		return wl_err(err, elen, "refused: the state file %s is not a regular file",
			      path);
	if (sb.st_uid != me)
		return wl_err(err, elen,
			      "refused: the state file %s belongs to uid %u, not %u (%s): it could name any file to write",
			      path, (unsigned int)sb.st_uid, (unsigned int)me,
			      me ? "this user" : "root");
	if (sb.st_mode & 022)
		return wl_err(err, elen,
			      "refused: the state file %s is writable by %s (mode %04o): it could name any file to write",
			      path, sb.st_mode & 020 ? "its group" : "others",
			      (unsigned int)(sb.st_mode & 07777));
	if (wl_fmt(dir, sizeof(dir), "%s", path))
		return wl_err(err, elen, "state file path too long: %s", path);
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	if (stat(dir, &sb))
		return wl_err(err, elen, "cannot stat %s: %s", dir,
			      strerror(errno));
	if (sb.st_uid != me && sb.st_uid != 0)
		return wl_err(err, elen,
			      "refused: the state file's directory %s belongs to uid %u, neither this user nor root",
			      dir, (unsigned int)sb.st_uid);
	if ((sb.st_mode & 022) && !(sb.st_mode & S_ISVTX))
		return wl_err(err, elen,
			      "refused: the state file's directory %s is writable by %s (mode %04o), so the file could have been replaced",
			      dir, sb.st_mode & 020 ? "its group" : "others",
			      (unsigned int)(sb.st_mode & 07777));
	return 0;
}

int wl_state_load(struct wl_state *st, const char *path,
		  int *pid, char *err, size_t elen)
{
	char line[WL_SPEC_PATH + WL_SPEC_KEY + 2 * WL_SPEC_VAL], boot[64];
	char why[WL_SPEC_PATH * 2];
	int lineno = 0, end = 0, have = 0, ret = 0, fd, i;
	size_t n;
	FILE *f;

	st->nset = 0;
	*pid = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return wl_err(err, elen, errno == ENOENT ?
			      "no saved settings: %s does not exist (nothing to restore)" :
			      errno == ELOOP ?
			      "refused: the state file %s is a symbolic link" :
			      "cannot read the state file %s: %s", path,
			      strerror(errno));
	if (wl_state_trusted(fd, path, err, elen)) {
		close(fd);
		return -1;
	}
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return wl_err(err, elen, "cannot read the state file %s: %s",
			      path, strerror(errno));
	}
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
	if (ret || !end || have != 7 || *pid <= 0 || !st->nset) {
		st->nset = 0;
		return wl_err(err, elen,
			      "%s is not a complete wl_compare state file (line %d); restore by hand from it, then remove it",
			      path, lineno);
	}
	/* Every setting checked before the caller may write any. */
	for (i = 0; i < st->nset; i++) {
		if (!wl_state_set_ok(&st->set[i], st->root, why, sizeof(why)))
			continue;
		wl_err(err, elen,
		       "refused: %s, setting %d: %s %s at %s: %s; nothing restored",
		       path, i + 1, wl_kind_names[st->set[i].kind],
		       st->set[i].key, st->set[i].path, why);
		st->nset = 0;
		return -1;
	}
	st->saved = 1;
	return 0;
}
