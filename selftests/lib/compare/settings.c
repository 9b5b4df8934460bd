// SPDX-License-Identifier: GPL-2.0
/*
 * The settings wl_compare's specs change: read, checked against the running
 * kernel, applied and restored, each write verified.  See
 * wl/compare/settings.h.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wl/compare/settings.h"
#include "wl/core/file.h"
#include "wl/core/text.h"
#include "wl/kernel/features.h"
#include "wl/kernel/wakelab_tables.h"

/*
 * The emulated debugfs is a host-test hook: a test build (tests/Makefile
 * defines WL_TEST_BUILD) honours it always, any other build only when not
 * root, so that a stray WL_FAKE_DEBUGFS in root's environment cannot turn
 * a real comparison into one that changes nothing, or point the state
 * file somewhere else.
 */
#ifdef WL_TEST_BUILD
#define WL_FAKE_OK()	1
#else
#define WL_FAKE_OK()	(geteuid() != 0)
#endif

int wl_state_init(struct wl_state *st)
{
	const char *fake = getenv("WL_FAKE_DEBUGFS");

	memset(st, 0, sizeof(*st));
	if (fake && *fake && !WL_FAKE_OK()) {
		/* Nothing can be read or written through a refused root. */
		snprintf(st->root, sizeof(st->root), "%s", WL_FAKE_REFUSED);
		return -1;
	}
	if (fake && *fake) {
		snprintf(st->root, sizeof(st->root), "%s", fake);
		st->fake = 1;
	} else {
		snprintf(st->root, sizeof(st->root), "%s", WL_DEBUGFS);
	}
	return 0;
}

void wl_state_path(const struct wl_state *st, char *buf, size_t len,
		   const char *rel)
{
	wl_fmt(buf, len, "%s/%s", st->root, rel);
}

void wl_sys_path(const char *root, char *buf, size_t len, const char *rel)
{
	if (!strcmp(root, WL_DEBUGFS))
		wl_fmt(buf, len, "/sys/%s", rel);
	else
		wl_fmt(buf, len, "%s/sys/%s", root, rel);
}

static int wl_read_text(const char *path, char *buf, size_t len)
{
	ssize_t n = wl_read_file(path, buf, len);

	return n < 0 ? (int)n : 0;
}

/* Find token NAME or NO_NAME in a features listing: 1, 0, or -ENOENT. */
static int wl_feature_state(const char *list, const char *name)
{
	size_t nl = strlen(name);
	const char *p = list;

	while (*p) {
		size_t l;

		p += strspn(p, " \t\n");
		l = strcspn(p, " \t\n");
		if (l == nl && !strncmp(p, name, nl))
			return 1;
		if (l == nl + 3 && !strncmp(p, "NO_", 3) &&
		    !strncmp(p + 3, name, nl))
			return 0;
		p += l;
	}
	return -ENOENT;
}

/* Active policy of a policy file's text into buf; 0 or -errno. */
static int wl_policy_active(const char *text, char *buf, size_t len)
{
	struct wl_policy_list pol;
	int ret = wl_policy_parse(text, &pol);

	if (ret)
		return ret;
	snprintf(buf, len, "%s", pol.name[pol.active]);
	return 0;
}

/* Whether @name is one of the policies a policy file's text lists. */
static int wl_policy_listed(const char *text, const char *name)
{
	struct wl_policy_list pol;
	int i;

	if (wl_policy_parse(text, &pol))
		return 0;
	for (i = 0; i < pol.n; i++)
		if (!strcmp(pol.name[i], name))
			return 1;
	return 0;
}

/*
 * Whether the module reports the kernel's policy hook: caps "hook yes"
 * (or, without a readable caps table, a policy file not saying "absent").
 */
static int wl_hook_present(const struct wl_state *st,
			   const char *policy_text)
{
	struct wl_table *t = wl_table_new();
	char path[WL_SPEC_PATH];
	int r, c, ret = -1;

	if (t) {
		wl_state_path(st, path, sizeof(path), "wakelab/caps");
		if (!wl_table_load(path, t)) {
			r = wl_table_row(t, "hook");
			c = wl_table_col(t, "value");
			if (r >= 0 && c >= 0)
				ret = !strcmp(t->cell[r][c], "yes");
		}
		free(t);
	}
	if (ret < 0)
		ret = !strstr(policy_text, "hook: absent");
	return ret;
}

/* Current value of a setting into buf (features: "1"/"0"). */
static int wl_setting_read(const struct wl_setting *s, char *buf,
			   size_t len)
{
	char text[WL_SPEC_FILE];
	int ret, on;

	ret = wl_read_text(s->path, text, sizeof(text));
	if (ret)
		return ret;
	switch (s->kind) {
	case WL_IT_FEATURE:
		on = wl_feature_state(text, s->key);
		if (on < 0)
			return on;
		snprintf(buf, len, "%d", on);
		return 0;
	case WL_IT_POLICY:
		return wl_policy_active(text, buf, len);
	default:
		wl_trim(text);
		wl_fmt(buf, len, "%s", text);	/* Cut to @len. */
		return 0;
	}
}

/*
 * Replace a plain file's content (the emulation's write).  Like a debugfs
 * file, it must exist: a write never creates one.
 */
static int wl_fake_store(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOFOLLOW);
	size_t len = strlen(text);
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, text, len) != (ssize_t)len)
		ret = -EIO;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

/* Emulate the kernel's write semantics on a plain file (host tests). */
static int wl_fake_write(const struct wl_setting *s, const char *tok)
{
	char text[WL_SPEC_FILE], out[WL_SPEC_FILE], *t, *save = NULL;
	size_t o = 0;

	if (s->kind != WL_IT_FEATURE && s->kind != WL_IT_POLICY)
		return wl_fake_store(s->path, tok);
	if (wl_read_text(s->path, text, sizeof(text)))
		return -EIO;
	out[0] = '\0';
	for (t = strtok_r(text, " \t\n", &save); t;
	     t = strtok_r(NULL, " \t\n", &save)) {
		const char *name = t;
		char b[WL_SPEC_KEY + 4];

		if (s->kind == WL_IT_FEATURE) {
			if (!strncmp(t, "NO_", 3))
				name = t + 3;
			if (!strcmp(name, s->key))
				t = (char *)tok;
		} else {
			if (*t == '[') {
				name = t + 1;
				t[strlen(t) - 1] = '\0';
			}
			snprintf(b, sizeof(b), strcmp(name, tok) ? "%s" : "[%s]",
				 name);
			t = b;
		}
		/* Bounded: a listing that does not fit is refused whole. */
		if (wl_fmt(out + o, sizeof(out) - o, "%s%s", o ? " " : "", t))
			return -EFBIG;
		o += strlen(out + o);
	}
	if (wl_fmt(out + o, sizeof(out) - o, "\n"))
		return -EFBIG;
	return wl_fake_store(s->path, out);
}

/* Write value v ("1"/"0" for features) to a setting. */
static int wl_setting_write(const struct wl_state *st,
			    const struct wl_setting *s, const char *v)
{
	char tok[WL_SPEC_KEY + WL_SPEC_VAL];

	if (s->kind == WL_IT_FEATURE)
		snprintf(tok, sizeof(tok), "%s%s", strcmp(v, "1") ? "NO_" : "",
			 s->key);
	else
		snprintf(tok, sizeof(tok), "%s", v);
	return st->fake ? wl_fake_write(s, tok) : wl_write_str(s->path, tok);
}

static int wl_state_add(struct wl_state *st, enum wl_item_kind kind,
			const char *key, const char *path, char *err,
			size_t elen)
{
	struct wl_setting *s;
	int i, ret;

	for (i = 0; i < st->nset; i++)
		if (st->set[i].kind == kind && !strcmp(st->set[i].path, path) &&
		    !strcmp(st->set[i].key, key))
			return 0;
	if (st->nset >= WL_SPEC_MAX_SET)
		return wl_err(err, elen, "more than %d settings touched",
			      WL_SPEC_MAX_SET);
	s = &st->set[st->nset];
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	if (wl_fmt(s->key, sizeof(s->key), "%s", key) ||
	    wl_fmt(s->path, sizeof(s->path), "%s", path))
		return wl_err(err, elen, "path too long: %s", path);
	ret = wl_setting_read(s, s->orig, sizeof(s->orig));
	if (ret)
		return wl_err(err, elen, "cannot read %s of %s: %s", key, path,
			      strerror(-ret));
	strcpy(s->cur, s->orig);
	st->nset++;
	return 0;
}

/* Add every imbalance_pct file of domain @dom ("" = all). */
static int wl_state_add_domains(struct wl_state *st, const char *text,
				const char *dom, char *err,
				size_t elen)
{
	char base[WL_SPEC_PATH], p[WL_SPEC_PATH + 64], name[64];
	struct dirent *c, *d;
	DIR *cd, *dd;
	int found = 0;

	wl_state_path(st, base, sizeof(base), "sched/domains");
	cd = opendir(base);
	if (!cd)
		return wl_err(err, elen,
			      "spec '%s': no %s (imbalance_pct needs the sched domain debugfs: boot with sched_verbose or echo Y > %s/sched/verbose)",
			      text, base, st->root);
	while ((c = readdir(cd))) {
		if (strncmp(c->d_name, "cpu", 3))
			continue;
		if (wl_fmt(p, sizeof(p), "%s/%s", base, c->d_name))
			continue;
		dd = opendir(p);
		if (!dd)
			continue;
		while ((d = readdir(dd))) {
			if (strncmp(d->d_name, "domain", 6))
				continue;
			if (wl_fmt(p, sizeof(p), "%s/%s/%s/name", base,
				   c->d_name, d->d_name) ||
			    wl_read_text(p, name, sizeof(name)))
				continue;
			wl_trim(name);
			if (*dom && strcmp(dom, name))
				continue;
			if (wl_fmt(p, sizeof(p), "%s/%s/%s/imbalance_pct",
				   base, c->d_name, d->d_name))
				continue;
			if (wl_state_add(st, WL_IT_IMBALANCE, name, p, err,
					 elen)) {
				closedir(dd);
				closedir(cd);
				return -1;
			}
			found++;
		}
		closedir(dd);
	}
	closedir(cd);
	if (!found)
		return wl_err(err, elen, "spec '%s': no sched domain%s%s here",
			      text, *dom ? " named " : "", dom);
	return 0;
}

/*
 * Cache-aware scheduling (CONFIG_SCHED_CACHE, 7.3) has no sched feature:
 * its user switch and tunables are the files of sched/llc_balancing.
 */
static int wl_check_sched_cache(struct wl_state *st, const struct wl_spec *sp,
				const struct wl_item *it, char *err,
				size_t elen)
{
	char path[WL_SPEC_PATH], rel[WL_SPEC_KEY + 32];
	struct stat sb;

	wl_state_path(st, path, sizeof(path), "sched");
	if (stat(path, &sb))
		return wl_err(err, elen,
			      "spec '%s': cannot see %s: %s (needs root and debugfs mounted)",
			      sp->text, path, strerror(errno));
	wl_state_path(st, path, sizeof(path), WL_LLC_BALANCING "/enabled");
	if (stat(path, &sb))
		return wl_err(err, elen, errno == ENOENT ?
			      "spec '%s': this kernel has no cache-aware scheduling (CONFIG_SCHED_CACHE): no %s" :
			      "spec '%s': cannot see %s: %s", sp->text, path,
			      strerror(errno));
	snprintf(rel, sizeof(rel), WL_LLC_BALANCING "/%s", it->key);
	wl_state_path(st, path, sizeof(path), rel);
	if (stat(path, &sb) || !S_ISREG(sb.st_mode) || !(sb.st_mode & 0200))
		return wl_err(err, elen,
			      "spec '%s': this kernel's cache-aware scheduling has no writable %s",
			      sp->text, path);
	return wl_state_add(st, WL_IT_SCHED_CACHE, it->key, path, err, elen);
}

/* param.MODULE.NAME: the module is loaded and the parameter writable. */
static int wl_check_param(struct wl_state *st, const struct wl_spec *sp,
			  const struct wl_item *it, char *err, size_t elen)
{
	char path[WL_SPEC_PATH], rel[WL_SPEC_KEY + 32], mod[WL_SPEC_KEY];
	const char *name = strchr(it->key, '.') + 1;
	struct stat sb;

	snprintf(mod, sizeof(mod), "%.*s", (int)(name - 1 - it->key), it->key);
	snprintf(rel, sizeof(rel), "module/%s", mod);
	wl_sys_path(st->root, path, sizeof(path), rel);
	if (stat(path, &sb))
		return wl_err(err, elen,
			      "spec '%s': module %s is not loaded (no %s)",
			      sp->text, mod, path);
	snprintf(rel, sizeof(rel), "module/%s/parameters/%s", mod, name);
	wl_sys_path(st->root, path, sizeof(path), rel);
	if (stat(path, &sb))
		return wl_err(err, elen,
			      "spec '%s': module %s has no parameter %s (no %s)",
			      sp->text, mod, name, path);
	if (!S_ISREG(sb.st_mode) || !(sb.st_mode & 0200))
		return wl_err(err, elen,
			      "spec '%s': parameter %s of module %s cannot be changed while it is loaded (%s is not writable)",
			      sp->text, name, mod, path);
	return wl_state_add(st, WL_IT_PARAM, it->key, path, err, elen);
}

static int wl_check_item(struct wl_state *st, const struct wl_spec *sp,
			 const struct wl_item *it, char *err,
			 size_t elen)
{
	char path[WL_SPEC_PATH], text[WL_SPEC_FILE];
	struct stat sb;

	switch (it->kind) {
	case WL_IT_ARG:
		return 0;
	case WL_IT_FEATURE:
		wl_state_path(st, path, sizeof(path), "sched/features");
		if (wl_read_text(path, text, sizeof(text)))
			return wl_err(err, elen,
				      "spec '%s': cannot read %s (needs root, debugfs mounted and CONFIG_SCHED_DEBUG)",
				      sp->text, path);
		if (wl_feature_state(text, it->key) < 0) {
			if (!strcmp(it->key, "WA_OLD"))
				return wl_err(err, elen,
					      "spec '%s': this kernel has no sched feature WA_OLD (it comes with the wakelab patch series: boot a patched-* kernel of scripts/kernels)",
					      sp->text);
			return wl_err(err, elen,
				      "spec '%s': this kernel has no sched feature %s (see %s)",
				      sp->text, it->key, path);
		}
		return wl_state_add(st, WL_IT_FEATURE, it->key, path, err,
				    elen);
	case WL_IT_POLICY:
	case WL_IT_TUNABLE:
		wl_state_path(st, path, sizeof(path), "wakelab");
		if (stat(path, &sb) || !S_ISDIR(sb.st_mode))
			return wl_err(err, elen,
				      "spec '%s': wakelab.ko is not loaded (no %s)",
				      sp->text, path);
		if (it->kind == WL_IT_POLICY) {
			wl_state_path(st, path, sizeof(path), "wakelab/policy");
			if (wl_read_text(path, text, sizeof(text)) ||
			    !wl_hook_present(st, text))
				return wl_err(err, elen,
					      "spec '%s': this kernel has no wakelab policy hook (module policies need a patched-* kernel of scripts/kernels)",
					      sp->text);
			if (!wl_policy_listed(text, it->value)) {
				struct wl_policy_list pol;
				size_t o = 0;
				int k;

				wl_policy_parse(text, &pol);
				text[0] = '\0';
				for (k = 0; k < pol.n && o < 512; k++)
					o += snprintf(text + o, 512 - o, "%s%s",
						      k ? " " : "", pol.name[k]);
				return wl_err(err, elen,
					      "spec '%s': unknown wakelab policy '%s' (this module offers: %s)",
					      sp->text, it->value, text);
			}
			return wl_state_add(st, WL_IT_POLICY, "policy", path,
					    err, elen);
		}
		snprintf(text, sizeof(text), "wakelab/%s", it->key);
		wl_state_path(st, path, sizeof(path), text);
		if (stat(path, &sb) && errno == ENOENT)
			return wl_err(err, elen,
				      "spec '%s': the loaded wakelab.ko has no tunable '%s' (no %s: a module older than this wl_compare? reload module/wakelab.ko)",
				      sp->text, it->key, path);
		if (stat(path, &sb) || !S_ISREG(sb.st_mode) ||
		    !(sb.st_mode & 0200) || !strcmp(it->key, "placement") ||
		    !strcmp(it->key, "caps") || !strcmp(it->key, "reset") ||
		    !strcmp(it->key, "llc"))
			return wl_err(err, elen,
				      "spec '%s': no writable wakelab tunable %s",
				      sp->text, path);
		return wl_state_add(st, WL_IT_TUNABLE, it->key, path, err,
				    elen);
	case WL_IT_IMBALANCE:
		return wl_state_add_domains(st, sp->text, it->key, err, elen);
	case WL_IT_SCHED_CACHE:
		return wl_check_sched_cache(st, sp, it, err, elen);
	case WL_IT_PARAM:
		return wl_check_param(st, sp, it, err, elen);
	}
	return 0;
}

int wl_spec_check(struct wl_state *st, const struct wl_spec *sp,
		  int n, char *err, size_t elen)
{
	int i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < sp[i].nitems; j++)
			if (wl_check_item(st, &sp[i], &sp[i].items[j], err,
					  elen))
				return -1;
	st->saved = 1;
	return 0;
}

/* Value spec sp wants for setting s (its original when sp leaves it). */
static const char *wl_spec_want(const struct wl_spec *sp,
				const struct wl_setting *s)
{
	const char *v = s->orig;
	int i;

	for (i = 0; sp && i < sp->nitems; i++) {
		const struct wl_item *it = &sp->items[i];

		if (it->kind != s->kind)
			continue;
		if (it->kind == WL_IT_POLICY ||
		    (it->kind == WL_IT_IMBALANCE &&
		     (!it->key[0] || !strcmp(it->key, s->key))) ||
		    ((it->kind == WL_IT_FEATURE || it->kind == WL_IT_TUNABLE ||
		      it->kind == WL_IT_SCHED_CACHE || it->kind == WL_IT_PARAM) &&
		     !strcmp(it->key, s->key)))
			v = it->value;
	}
	return v;
}

/*
 * Why setting @s could not be read (wl_setting_read() returned @ret), in
 * words: a setting that is gone is named as such, not "No such file".
 */
static void wl_setting_why(const struct wl_setting *s, int ret, char *buf,
			   size_t len)
{
	struct stat sb;

	if (ret != -ENOENT) {
		wl_fmt(buf, len, "reading %s: %s", s->path, strerror(-ret));
		return;
	}
	if (!stat(s->path, &sb)) {
		if (s->kind == WL_IT_FEATURE)
			wl_fmt(buf, len,
				 "feature %s is not in this kernel's sched/features (%s)",
				 s->key, s->path);
		else
			wl_fmt(buf, len, "%s of %s: no value in it", s->key,
				 s->path);
		return;
	}
	switch (s->kind) {
	case WL_IT_FEATURE:
		wl_fmt(buf, len,
			 "feature %s: %s is gone (debugfs not mounted, or a kernel without CONFIG_SCHED_DEBUG)",
			 s->key, s->path);
		break;
	case WL_IT_POLICY:
	case WL_IT_TUNABLE:
		wl_fmt(buf, len,
			 "wakelab %s%s: %s is gone (wakelab.ko unloaded, or a module without it loaded)",
			 s->kind == WL_IT_POLICY ? "" : "tunable ", s->key,
			 s->path);
		break;
	case WL_IT_IMBALANCE:
		wl_fmt(buf, len,
			 "imbalance_pct of domain %s: %s is gone (the sched domains were rebuilt: CPU hotplug, cpusets?)",
			 s->key, s->path);
		break;
	case WL_IT_PARAM:
		wl_fmt(buf, len,
			 "module parameter %s: %s is gone (the module was unloaded)",
			 s->key, s->path);
		break;
	default:
		wl_fmt(buf, len, "%s: %s is gone (no cache-aware scheduling now)",
			 s->key, s->path);
		break;
	}
}

int wl_spec_apply(struct wl_state *st, const struct wl_spec *sp,
		  char *err, size_t elen)
{
	char now[WL_SPEC_VAL], why[2 * WL_SPEC_PATH];
	int i, ret, bad = 0;

	for (i = 0; i < st->nset; i++) {
		struct wl_setting *s = &st->set[i];
		const char *want = wl_spec_want(sp, s);

		ret = wl_setting_read(s, now, sizeof(now));
		if (!ret && !strcmp(now, want))
			continue;
		/* Nothing is written to a setting that is not there. */
		if (ret == -ENOENT) {
			wl_setting_why(s, ret, why, sizeof(why));
			if (!bad++)
				wl_err(err, elen, "cannot %s '%s': %s",
				       sp ? "apply" : "restore", want, why);
			continue;
		}
		ret = wl_setting_write(st, s, want);
		if (ret && !bad++)
			wl_err(err, elen, "writing '%s' for %s to %s: %s",
			       want, s->key, s->path, strerror(-ret));
	}
	for (i = 0; i < st->nset; i++) {
		struct wl_setting *s = &st->set[i];
		const char *want = wl_spec_want(sp, s);

		ret = wl_setting_read(s, now, sizeof(now));
		if (ret) {
			wl_setting_why(s, ret, why, sizeof(why));
			if (!bad++)
				wl_err(err, elen, "re-reading: %s", why);
			continue;
		}
		strcpy(s->cur, now);
		if (strcmp(now, want) && !bad++)
			wl_err(err, elen,
			       "%s %s is '%s' after writing '%s' (%s)",
			       s->path, s->key, now, want,
			       sp ? "apply" : "restore");
	}
	return bad ? -1 : 0;
}

int wl_spec_restore(struct wl_state *st, char *err,
		    size_t elen)
{
	if (!st->saved)
		return 0;
	return wl_spec_apply(st, NULL, err, elen);
}

void wl_spec_describe(const struct wl_state *st,
		      const struct wl_spec *sp, char *buf,
		      size_t len)
{
	size_t o = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < st->nset && o < len; i++) {
		const struct wl_setting *s = &st->set[i];
		const char *v = wl_spec_want(sp, s);

		if (s->kind == WL_IT_FEATURE)
			o += snprintf(buf + o, len - o, "%s%s%s", o ? " " : "",
				      strcmp(v, "1") ? "NO_" : "", s->key);
		else if (s->kind == WL_IT_POLICY)
			o += snprintf(buf + o, len - o, "%swakelab:%s",
				      o ? " " : "", v);
		else if (s->kind == WL_IT_TUNABLE)
			o += snprintf(buf + o, len - o, "%swakelab.%s=%s",
				      o ? " " : "", s->key, v);
		else if (s->kind == WL_IT_SCHED_CACHE &&
			 !strcmp(s->key, "enabled"))
			o += snprintf(buf + o, len - o, "%s%sSCHED_CACHE",
				      o ? " " : "", strcmp(v, "0") ? "" : "NO_");
		else if (s->kind == WL_IT_SCHED_CACHE)
			o += snprintf(buf + o, len - o, "%s" WL_SCHED_CACHE_PREFIX "%s=%s",
				      o ? " " : "", s->key, v);
		else if (s->kind == WL_IT_PARAM)
			o += snprintf(buf + o, len - o, "%s" WL_PARAM_PREFIX "%s=%s",
				      o ? " " : "", s->key, v);
	}
	for (i = 0; sp && i < sp->nitems && o < len; i++)
		if (sp->items[i].kind == WL_IT_IMBALANCE)
			o += snprintf(buf + o, len - o, "%simbalance_pct%s%s=%s",
				      o ? " " : "", sp->items[i].key[0] ? "." : "",
				      sp->items[i].key, sp->items[i].value);
		else if (sp->items[i].kind == WL_IT_ARG)
			o += snprintf(buf + o, len - o, "%s%s", o ? " " : "",
				      sp->items[i].value);
	if (!buf[0])
		snprintf(buf, len, "default");
}
