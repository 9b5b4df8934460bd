/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Policy specs for wl_compare: parse a spec ("WA_OLD,NO_WA_IDLE",
 * "wakelab:old", "wakelab.tunable=3", "imbalance_pct.MC=130", "pin=same-cpu",
 * "name=label", "default"), check it against the running kernel before
 * anything is touched, save the original value of every setting any spec
 * touches, apply one spec at a time (every touched setting is set to the
 * spec's value or back to its original, then re-read and verified), and
 * restore the originals exactly (verified by re-reading).  While settings
 * are changed, the originals are also kept in a state file, so that a run
 * killed before it could restore them (SIGKILL, a crash) can be undone by
 * "wl_compare --restore".  The debugfs root can be redirected for host
 * tests, which may also ask for the kernel's token semantics of
 * sched/features and wakelab/policy to be emulated on plain files.
 * Header-only; libc only.
 */
#ifndef WL_SPEC_H
#define WL_SPEC_H

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wakelab_debugfs.h"
#include "wakelab_util.h"

#define WL_SPEC_MAX_ITEMS	24
#define WL_SPEC_TEXT		256
#define WL_SPEC_LABEL		24
#define WL_SPEC_KEY		64
#define WL_SPEC_VAL		128
#define WL_SPEC_MAX_SET		512
#define WL_SPEC_PATH		320
#define WL_SPEC_FILE		8192
#define WL_IMB_MIN		100
#define WL_IMB_MAX		1000
/* Where a run keeps the originals while it has changed settings. */
#define WL_STATE_PATH		"/run/wl_compare.state"
#define WL_STATE_NAME		"wl_compare.state"
#define WL_STATE_MAGIC		"wl_compare-state 1"

/**
 * enum wl_item_kind - what one spec item changes
 * @WL_IT_FEATURE:	sched feature (value "1" set, "0" NO_)
 * @WL_IT_POLICY:	wakelab module policy (value = policy name)
 * @WL_IT_TUNABLE:	wakelab debugfs tunable (key = file, value = text)
 * @WL_IT_IMBALANCE:	sched domain imbalance_pct (key = domain name or "")
 * @WL_IT_ARG:		extra wl_stream argument (changes nothing in the
 *			kernel)
 */
enum wl_item_kind {
	WL_IT_FEATURE,
	WL_IT_POLICY,
	WL_IT_TUNABLE,
	WL_IT_IMBALANCE,
	WL_IT_ARG,
};

/* Names of the kinds of settings in a state file. */
static const char * const wl_kind_names[] = {
	[WL_IT_FEATURE]		= "feature",
	[WL_IT_POLICY]		= "policy",
	[WL_IT_TUNABLE]		= "tunable",
	[WL_IT_IMBALANCE]	= "imbalance_pct",
};

struct wl_item {
	enum wl_item_kind	kind;
	char			key[WL_SPEC_KEY];
	char			value[WL_SPEC_VAL];
};

/**
 * struct wl_spec - one parsed policy spec
 * @label:	column label (name= item, else derived from the text)
 * @text:	the spec as given
 * @named:	label came from a name= item
 * @nitems:	number of items
 * @items:	the items, in the order given
 */
struct wl_spec {
	char		label[WL_SPEC_LABEL];
	char		text[WL_SPEC_TEXT];
	int		named;
	int		nitems;
	struct wl_item	items[WL_SPEC_MAX_ITEMS];
};

/**
 * struct wl_setting - one kernel setting some spec touches
 * @kind:	as the items that touch it
 * @key:	feature name, "policy", tunable file name, or domain name
 * @path:	file holding it
 * @orig:	value before wl_compare touched anything
 * @cur:	value wl_compare last wrote or read
 */
struct wl_setting {
	enum wl_item_kind	kind;
	char			key[WL_SPEC_KEY];
	char			path[WL_SPEC_PATH];
	char			orig[WL_SPEC_VAL];
	char			cur[WL_SPEC_VAL];
};

/**
 * struct wl_state - the settings all specs touch, with their originals
 * @root:	debugfs mount point
 * @fake:	emulate kernel token semantics on plain files (host tests)
 * @saved:	originals have been read (restore is meaningful)
 * @nset:	number of settings
 * @set:	the settings
 */
struct wl_state {
	char			root[200];
	int			fake;
	int			saved;
	int			nset;
	struct wl_setting	set[WL_SPEC_MAX_SET];
};

static inline int wl_err(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

/*
 * snprintf() through a va_list, so that paths built from directory entries
 * do not trip -Wformat-truncation; returns -1 when the result was cut.
 */
static inline int wl_fmt(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* Debugfs root: $WL_FAKE_DEBUGFS (emulated, tests) or /sys/kernel/debug. */
static inline void wl_state_init(struct wl_state *st)
{
	const char *fake = getenv("WL_FAKE_DEBUGFS");

	memset(st, 0, sizeof(*st));
	if (fake && *fake) {
		snprintf(st->root, sizeof(st->root), "%s", fake);
		st->fake = 1;
	} else {
		snprintf(st->root, sizeof(st->root), "%s", WL_DEBUGFS);
	}
}

static inline void wl_path(const struct wl_state *st, char *buf, size_t len,
			   const char *rel)
{
	wl_fmt(buf, len, "%s/%s", st->root, rel);
}

static inline void wl_trim(char *s)
{
	size_t n = strlen(s);

	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	while (isspace((unsigned char)*s))
		memmove(s, s + 1, n--);
}

static inline int wl_is_feature_name(const char *s)
{
	if (!isupper((unsigned char)*s))
		return 0;
	for (; *s; s++)
		if (!isupper((unsigned char)*s) && !isdigit((unsigned char)*s) &&
		    *s != '_')
			return 0;
	return 1;
}

/* [a-z0-9_-]+ : policy and tunable names. */
static inline int wl_is_word(const char *s, const char *extra)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!islower((unsigned char)*s) && !isdigit((unsigned char)*s) &&
		    *s != '_' && !strchr(extra, *s))
			return 0;
	return 1;
}

static inline int wl_is_uint(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return 0;
	return 1;
}

/* Does item b set the same thing as item a (a conflict in one spec)? */
static inline int wl_item_same(const struct wl_item *a,
			       const struct wl_item *b)
{
	if (a->kind != b->kind || a->kind == WL_IT_ARG)
		return 0;
	if (a->kind == WL_IT_POLICY)
		return 1;
	if (a->kind == WL_IT_IMBALANCE)
		return !a->key[0] || !b->key[0] || !strcmp(a->key, b->key);
	return !strcmp(a->key, b->key);
}

static inline int wl_spec_add(struct wl_spec *s, enum wl_item_kind kind,
			      const char *key, const char *value, char *err,
			      size_t elen)
{
	struct wl_item *it;
	int i;

	if (s->nitems >= WL_SPEC_MAX_ITEMS)
		return wl_err(err, elen, "spec '%s': more than %d items",
			      s->text, WL_SPEC_MAX_ITEMS);
	if (strlen(key) >= WL_SPEC_KEY || strlen(value) >= WL_SPEC_VAL)
		return wl_err(err, elen, "spec '%s': item too long", s->text);
	it = &s->items[s->nitems];
	it->kind = kind;
	strcpy(it->key, key);
	strcpy(it->value, value);
	for (i = 0; i < s->nitems; i++)
		if (wl_item_same(&s->items[i], it))
			return wl_err(err, elen,
				      "spec '%s': sets %s%s twice", s->text,
				      kind == WL_IT_POLICY ? "wakelab:" : "",
				      kind == WL_IT_POLICY ? "policy" :
				      key[0] ? key : "imbalance_pct");
	s->nitems++;
	return 0;
}

/* One item (a token without separators) into s. */
static inline int wl_spec_item(struct wl_spec *s, char *tok, int *dflt,
			       char *err, size_t elen)
{
	char *eq = strchr(tok, '=');

	if (!strcmp(tok, "default")) {
		*dflt = 1;
		return 0;
	}
	if (!strncmp(tok, "name=", 5)) {
		if (s->named)
			return wl_err(err, elen, "spec '%s': two name= items",
				      s->text);
		if (!tok[5] || strlen(tok + 5) >= WL_SPEC_LABEL ||
		    strspn(tok + 5, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.+-") != strlen(tok + 5))
			return wl_err(err, elen,
				      "spec '%s': bad label '%s' (1-%d of [A-Za-z0-9_.+-])",
				      s->text, tok + 5, WL_SPEC_LABEL - 1);
		strcpy(s->label, tok + 5);
		s->named = 1;
		return 0;
	}
	if (!strncmp(tok, "arg=", 4)) {
		if (!tok[4])
			return wl_err(err, elen, "spec '%s': empty arg=",
				      s->text);
		return wl_spec_add(s, WL_IT_ARG, "", tok + 4, err, elen);
	}
	if (!strncmp(tok, "pin=", 4)) {
		if (!wl_is_word(tok + 4, "-"))
			return wl_err(err, elen, "spec '%s': bad pin mode '%s'",
				      s->text, tok + 4);
		if (wl_spec_add(s, WL_IT_ARG, "", "--pin", err, elen))
			return -1;
		return wl_spec_add(s, WL_IT_ARG, "", tok + 4, err, elen);
	}
	if (!strncmp(tok, "wakelab:", 8)) {
		if (!wl_is_word(tok + 8, "-"))
			return wl_err(err, elen,
				      "spec '%s': bad wakelab policy name '%s'",
				      s->text, tok + 8);
		return wl_spec_add(s, WL_IT_POLICY, "policy", tok + 8, err,
				   elen);
	}
	if (!strncmp(tok, "wakelab.", 8)) {
		if (!eq || eq == tok + 8 || !eq[1])
			return wl_err(err, elen,
				      "spec '%s': '%s' is not wakelab.<tunable>=<value>",
				      s->text, tok);
		*eq = '\0';
		if (!wl_is_word(tok + 8, "") || !strcmp(tok + 8, "policy"))
			return wl_err(err, elen,
				      "spec '%s': bad wakelab tunable '%s'",
				      s->text, tok + 8);
		return wl_spec_add(s, WL_IT_TUNABLE, tok + 8, eq + 1, err,
				   elen);
	}
	if (!strncmp(tok, "imbalance_pct", 13) &&
	    (tok[13] == '=' || tok[13] == '.')) {
		const char *dom = "";
		long v;

		if (!eq)
			return wl_err(err, elen,
				      "spec '%s': '%s' is not imbalance_pct[.DOMAIN]=N",
				      s->text, tok);
		*eq = '\0';
		if (tok[13] == '.') {
			dom = tok + 14;
			if (!wl_is_feature_name(dom))
				return wl_err(err, elen,
					      "spec '%s': bad domain name '%s' (MC, DIE, NUMA...)",
					      s->text, dom);
		}
		v = wl_is_uint(eq + 1) ? strtol(eq + 1, NULL, 10) : -1;
		if (v < WL_IMB_MIN || v > WL_IMB_MAX)
			return wl_err(err, elen,
				      "spec '%s': imbalance_pct '%s' is not an integer in %d..%d",
				      s->text, eq + 1, WL_IMB_MIN, WL_IMB_MAX);
		return wl_spec_add(s, WL_IT_IMBALANCE, dom, eq + 1, err,
				   elen);
	}
	if (wl_is_feature_name(tok)) {
		int on = strncmp(tok, "NO_", 3) != 0;

		if (!on && !wl_is_feature_name(tok + 3))
			return wl_err(err, elen,
				      "spec '%s': bad feature token '%s'",
				      s->text, tok);
		return wl_spec_add(s, WL_IT_FEATURE, on ? tok : tok + 3,
				   on ? "1" : "0", err, elen);
	}
	return wl_err(err, elen,
		      "spec '%s': unknown item '%s' (expected FEATURE, NO_FEATURE, wakelab:POLICY, wakelab.TUNABLE=V, imbalance_pct[.DOM]=N, pin=MODE, arg=ARG, name=LABEL or default)",
		      s->text, tok);
}

/**
 * wl_spec_parse() - parse one spec (syntax only; see README "Spec syntax")
 * @text:	items separated by commas and/or white space
 * @s:		result
 * @err:	error message buffer
 * @elen:	its size
 *
 * Return: 0 or -1 with a message in @err.
 */
static inline int wl_spec_parse(const char *text, struct wl_spec *s,
				char *err, size_t elen)
{
	char buf[WL_SPEC_TEXT], *tok, *save = NULL;
	int dflt = 0, n = 0;

	memset(s, 0, sizeof(*s));
	if (strlen(text) >= WL_SPEC_TEXT)
		return wl_err(err, elen, "spec too long (max %d characters)",
			      WL_SPEC_TEXT - 1);
	strcpy(s->text, text);
	strcpy(buf, text);
	for (tok = strtok_r(buf, ", \t\n", &save); tok;
	     tok = strtok_r(NULL, ", \t\n", &save)) {
		if (wl_spec_item(s, tok, &dflt, err, elen))
			return -1;
		n++;
	}
	if (!n)
		return wl_err(err, elen,
			      "empty spec (write 'default' for the kernel's settings)");
	if (dflt && s->nitems)
		return wl_err(err, elen,
			      "spec '%s': 'default' cannot be mixed with settings",
			      text);
	if (!s->named) {
		const char *t = dflt ? "default" : text;

		snprintf(s->label, sizeof(s->label), "%s", t);
		if (strlen(t) >= sizeof(s->label))
			strcpy(s->label + sizeof(s->label) - 3, "..");
	}
	return 0;
}

/* Whether the spec changes anything in the kernel. */
static inline int wl_spec_touches_kernel(const struct wl_spec *s)
{
	int i;

	for (i = 0; i < s->nitems; i++)
		if (s->items[i].kind != WL_IT_ARG)
			return 1;
	return 0;
}

/* ---- reading and writing settings ---- */

static inline int wl_read_text(const char *path, char *buf, size_t len)
{
	ssize_t n = wl_read_file(path, buf, len);

	return n < 0 ? (int)n : 0;
}

/* Find token NAME or NO_NAME in a features listing: 1, 0, or -ENOENT. */
static inline int wl_feature_state(const char *list, const char *name)
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
static inline int wl_policy_active(const char *text, char *buf, size_t len)
{
	struct wl_dbg_policy pol;
	int ret = wl_dbg_policy_parse(text, &pol);

	if (ret)
		return ret;
	snprintf(buf, len, "%s", pol.name[pol.active]);
	return 0;
}

/* Whether @name is one of the policies a policy file's text lists. */
static inline int wl_policy_listed(const char *text, const char *name)
{
	struct wl_dbg_policy pol;
	int i;

	if (wl_dbg_policy_parse(text, &pol))
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
static inline int wl_hook_present(const struct wl_state *st,
				  const char *policy_text)
{
	struct wl_dbg_table *t = wl_dbg_table_new();
	char path[WL_SPEC_PATH];
	int r, c, ret = -1;

	if (t) {
		wl_path(st, path, sizeof(path), "wakelab/caps");
		if (!wl_dbg_table_read(path, t)) {
			r = wl_dbg_row(t, "hook");
			c = wl_dbg_col(t, "value");
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
static inline int wl_setting_read(const struct wl_setting *s, char *buf,
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
		snprintf(buf, len, "%s", text);
		return 0;
	}
}

/* Replace a plain file's content (the emulation's write). */
static inline int wl_fake_store(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	int ret = 0;

	if (!f)
		return -errno;
	if (fputs(text, f) < 0)
		ret = -EIO;
	if (fclose(f) && !ret)
		ret = -errno;
	return ret;
}

/* Emulate the kernel's write semantics on a plain file (host tests). */
static inline int wl_fake_write(const struct wl_setting *s, const char *tok)
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
		o += snprintf(out + o, sizeof(out) - o, "%s%s", o ? " " : "",
			      t);
	}
	snprintf(out + o, sizeof(out) - o, "\n");
	return wl_fake_store(s->path, out);
}

/* Write value v ("1"/"0" for features) to a setting. */
static inline int wl_setting_write(const struct wl_state *st,
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

/* ---- checking specs against this kernel ---- */

static inline int wl_state_add(struct wl_state *st, enum wl_item_kind kind,
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
static inline int wl_state_add_domains(struct wl_state *st, const char *text,
				       const char *dom, char *err,
				       size_t elen)
{
	char base[WL_SPEC_PATH], p[WL_SPEC_PATH + 64], name[64];
	struct dirent *c, *d;
	DIR *cd, *dd;
	int found = 0;

	wl_path(st, base, sizeof(base), "sched/domains");
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

static inline int wl_check_item(struct wl_state *st, const struct wl_spec *sp,
				const struct wl_item *it, char *err,
				size_t elen)
{
	char path[WL_SPEC_PATH], text[WL_SPEC_FILE];
	struct stat sb;

	switch (it->kind) {
	case WL_IT_ARG:
		return 0;
	case WL_IT_FEATURE:
		wl_path(st, path, sizeof(path), "sched/features");
		if (wl_read_text(path, text, sizeof(text)))
			return wl_err(err, elen,
				      "spec '%s': cannot read %s (needs root, debugfs mounted and CONFIG_SCHED_DEBUG)",
				      sp->text, path);
		if (wl_feature_state(text, it->key) < 0) {
			if (!strcmp(it->key, "WA_OLD"))
				return wl_err(err, elen,
					      "spec '%s': this kernel has no sched feature WA_OLD (it comes with the wakelab patch series: boot the patched kernel, KERNEL=patched)",
					      sp->text);
			return wl_err(err, elen,
				      "spec '%s': this kernel has no sched feature %s (see %s)",
				      sp->text, it->key, path);
		}
		return wl_state_add(st, WL_IT_FEATURE, it->key, path, err,
				    elen);
	case WL_IT_POLICY:
	case WL_IT_TUNABLE:
		wl_path(st, path, sizeof(path), "wakelab");
		if (stat(path, &sb) || !S_ISDIR(sb.st_mode))
			return wl_err(err, elen,
				      "spec '%s': wakelab.ko is not loaded (no %s)",
				      sp->text, path);
		if (it->kind == WL_IT_POLICY) {
			wl_path(st, path, sizeof(path), "wakelab/policy");
			if (wl_read_text(path, text, sizeof(text)) ||
			    !wl_hook_present(st, text))
				return wl_err(err, elen,
					      "spec '%s': this kernel has no wakelab policy hook (module policies need the patched kernel, KERNEL=patched)",
					      sp->text);
			if (!wl_policy_listed(text, it->value)) {
				struct wl_dbg_policy pol;
				size_t o = 0;
				int k;

				wl_dbg_policy_parse(text, &pol);
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
		wl_path(st, path, sizeof(path), text);
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
	}
	return 0;
}

/**
 * wl_spec_check() - check specs against this kernel, save the originals
 * @st:		state (wl_state_init()ed); filled with every touched setting
 * @sp:		specs
 * @n:		number of specs
 * @err:	error message buffer
 * @elen:	its size
 *
 * Nothing is written.  Return: 0, or -1 with a message in @err.
 */
static inline int wl_spec_check(struct wl_state *st, const struct wl_spec *sp,
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
static inline const char *wl_spec_want(const struct wl_spec *sp,
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
		    ((it->kind == WL_IT_FEATURE || it->kind == WL_IT_TUNABLE) &&
		     !strcmp(it->key, s->key)))
			v = it->value;
	}
	return v;
}

/**
 * wl_spec_apply() - make the kernel match a spec, verified by re-reading
 * @st:		checked state
 * @sp:		spec, or NULL for the originals (restore)
 * @err:	error message buffer
 * @elen:	its size
 *
 * Every touched setting is written when its value differs from the wanted
 * one; a failed write does not stop the others.  Then every setting is read
 * back.  Return: 0, or -1 (first problem in @err).
 */
static inline int wl_spec_apply(struct wl_state *st, const struct wl_spec *sp,
				char *err, size_t elen)
{
	char now[WL_SPEC_VAL];
	int i, ret, bad = 0;

	for (i = 0; i < st->nset; i++) {
		struct wl_setting *s = &st->set[i];
		const char *want = wl_spec_want(sp, s);

		if (wl_setting_read(s, now, sizeof(now)) == 0 &&
		    !strcmp(now, want))
			continue;
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
			if (!bad++)
				wl_err(err, elen, "re-reading %s: %s", s->path,
				       strerror(-ret));
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

static inline int wl_spec_restore(struct wl_state *st, char *err,
				  size_t elen)
{
	if (!st->saved)
		return 0;
	return wl_spec_apply(st, NULL, err, elen);
}

/* ---- the state file: originals that outlive a killed run ---- */

/*
 * Default state file: WL_STATE_PATH, or inside the emulated debugfs when
 * WL_FAKE_DEBUGFS redirects it (host tests), so tests never share one.
 */
static inline void wl_state_default_path(const struct wl_state *st,
					 char *buf, size_t len)
{
	if (st->fake)
		wl_path(st, buf, len, WL_STATE_NAME);
	else
		snprintf(buf, len, "%s", WL_STATE_PATH);
}

/* This boot's id: a state file from an earlier boot is stale. */
static inline void wl_boot_id(char *buf, size_t len)
{
	if (wl_read_text("/proc/sys/kernel/random/boot_id", buf, len))
		snprintf(buf, len, "unknown");
	wl_trim(buf);
}

/* Whether a state file field can hold @s (one line, no tab). */
static inline int wl_state_field_ok(const char *s)
{
	return !strpbrk(s, "\t\n");
}

/**
 * wl_state_save() - keep the originals in a state file, exclusively
 * @st:		checked state (originals read)
 * @path:	the state file; it must not exist yet
 * @err:	error message buffer
 * @elen:	its size
 *
 * The file is written beside @path under a temporary name, synced, and
 * linked into place, so @path is complete whenever it exists, and a second
 * run cannot take it over (EEXIST).  Text, one setting per line:
 * "set<TAB>kind<TAB>key<TAB>path<TAB>original", after the boot id, the
 * writer's pid and the debugfs root, up to a closing "end".
 * Return: 0, or -1 with a message in @err.
 */
static inline int wl_state_save(const struct wl_state *st, const char *path,
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
static inline int wl_state_set_line(struct wl_state *st, char *line)
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

/**
 * wl_state_load() - read the originals back from a state file
 * @st:		wl_state_init()ed state; gets the saved settings
 * @path:	the state file
 * @pid:	the pid of the run that wrote it
 * @err:	error message buffer
 * @elen:	its size
 *
 * Refused: no file, a file that is not a complete state file, one written
 * in an earlier boot (the reboot reset what it holds), or one for another
 * debugfs root.  Return: 0, or -1 with a message in @err.
 */
static inline int wl_state_load(struct wl_state *st, const char *path,
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

/*
 * Describe what a spec means for every touched setting, Peter's way:
 * "NO_WA_OLD WA_IDLE WA_WEIGHT" (features), "wakelab:old", ... .
 */
static inline void wl_spec_describe(const struct wl_state *st,
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

#endif /* WL_SPEC_H */
