// SPDX-License-Identifier: GPL-2.0
/* The syntax of wl_compare's specs: see wl/compare/spec.h. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wl/compare/spec.h"
#include "wl/core/text.h"

static int wl_is_feature_name(const char *s)
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
static int wl_is_word(const char *s, const char *extra)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!islower((unsigned char)*s) && !isdigit((unsigned char)*s) &&
		    *s != '_' && !strchr(extra, *s))
			return 0;
	return 1;
}

static int wl_is_uint(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return 0;
	return 1;
}

/*
 * A decimal number in 0..@max, made of digits only, as the kernel prints it
 * back, into @out ("007" is "7"): what is written is then what is read back
 * and checked.  0, or -1 when @s is no such number.
 */
static int wl_norm_uint(const char *s, unsigned long long max, char *out,
			size_t len)
{
	unsigned long long v;
	size_t z;

	if (!wl_is_uint(s))
		return -1;
	z = strspn(s, "0");
	s += s[z] ? z : z - 1;		/* All zeros: "0". */
	if (strlen(s) > 20)
		return -1;
	errno = 0;
	v = strtoull(s, NULL, 10);
	if (errno || v > max)
		return -1;
	snprintf(out, len, "%llu", v);
	return 0;
}

/* Does item b set the same thing as item a (a conflict in one spec)? */
static int wl_item_same(const struct wl_item *a,
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

static int wl_spec_add(struct wl_spec *s, enum wl_item_kind kind,
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
				      kind == WL_IT_POLICY ? "wakelab:" :
				      kind == WL_IT_SCHED_CACHE ?
				      WL_SCHED_CACHE_PREFIX : "",
				      kind == WL_IT_POLICY ? "policy" :
				      key[0] ? key : "imbalance_pct");
	s->nitems++;
	return 0;
}

/* The files of sched/llc_balancing (7.3's kernel/sched/debug.c). */
static const char * const wl_llc_balancing_files[] = {
	"enabled", "aggr_tolerance", "epoch_period",
	"epoch_affinity_timeout", "overaggr_pct", "imb_pct",
};
#define WL_NR_LLC_FILES \
	(sizeof(wl_llc_balancing_files) / sizeof(wl_llc_balancing_files[0]))

int wl_spec_llc_file(const char *name)
{
	size_t i;

	for (i = 0; i < WL_NR_LLC_FILES; i++)
		if (!strcmp(name, wl_llc_balancing_files[i]))
			return (int)i;
	return -1;
}

/*
 * param.MODULE.NAME=VALUE (@name: "MODULE.NAME=VALUE", @eq its '='): both
 * names [a-z0-9_]+, the value of WL_PARAM_CHARS.
 */
static int wl_spec_param(struct wl_spec *s, char *name, char *eq, char *err,
			 size_t elen)
{
	char *dot = strchr(name, '.');

	if (!eq || !dot || dot > eq)
		return wl_err(err, elen,
			      "spec '%s': '" WL_PARAM_PREFIX "%s' is not param.MODULE.NAME=VALUE",
			      s->text, name);
	*eq = '\0';
	*dot = '\0';
	if (!wl_is_word(name, "") || !wl_is_word(dot + 1, "")) {
		*dot = '.';
		return wl_err(err, elen,
			      "spec '%s': bad module parameter '%s' (MODULE.NAME, each of a-z 0-9 _)",
			      s->text, name);
	}
	*dot = '.';
	if (!eq[1] || strspn(eq + 1, WL_PARAM_CHARS) != strlen(eq + 1))
		return wl_err(err, elen,
			      "spec '%s': module parameter %s: bad value '%s' (one word of A-Z a-z 0-9 _ . : + -)",
			      s->text, name, eq + 1);
	return wl_spec_add(s, WL_IT_PARAM, name, eq + 1, err, elen);
}

/*
 * "sched_cache.FILE=N": a u32 for a file of sched/llc_balancing (0 or 1
 * for "enabled"), written back as the kernel prints it ("007" is "7").
 */
static int wl_spec_sched_cache(struct wl_spec *s, char *tok, char *eq,
			       char *err, size_t elen)
{
	const char *file = tok + strlen(WL_SCHED_CACHE_PREFIX);
	char v[24];
	int i;

	if (!eq || eq == file || !eq[1])
		return wl_err(err, elen,
			      "spec '%s': '%s' is not sched_cache.FILE=N",
			      s->text, tok);
	*eq = '\0';
	i = wl_spec_llc_file(file);
	if (i < 0)
		return wl_err(err, elen,
			      "spec '%s': no llc_balancing file '%s' (enabled, aggr_tolerance, epoch_period, epoch_affinity_timeout, overaggr_pct or imb_pct)",
			      s->text, file);
	if (wl_norm_uint(eq + 1, i ? 4294967295ULL : 1ULL, v, sizeof(v)))
		return wl_err(err, elen,
			      "spec '%s': sched_cache.%s '%s' is not %s",
			      s->text, file, eq + 1, i ?
			      "an integer in 0..4294967295" : "0 or 1");
	return wl_spec_add(s, WL_IT_SCHED_CACHE, file, v, err, elen);
}

/* One item (a token without separators) into s. */
static int wl_spec_item(struct wl_spec *s, char *tok, int *dflt,
			char *err, size_t elen)
{
	char *eq = strchr(tok, '='), v[24];

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
		if (!wl_is_word(tok + 8, "+-"))
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
		/* The module's knobs take digits only, and print "%llu". */
		if (wl_norm_uint(eq + 1, 4294967295ULL, v, sizeof(v)))
			return wl_err(err, elen,
				      "spec '%s': wakelab.%s '%s' is not a decimal integer in 0..4294967295",
				      s->text, tok + 8, eq + 1);
		return wl_spec_add(s, WL_IT_TUNABLE, tok + 8, v, err, elen);
	}
	if (!strncmp(tok, "imbalance_pct", 13) &&
	    (tok[13] == '=' || tok[13] == '.')) {
		const char *dom = "";

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
		if (wl_norm_uint(eq + 1, WL_IMB_MAX, v, sizeof(v)) ||
		    atoi(v) < WL_IMB_MIN)
			return wl_err(err, elen,
				      "spec '%s': imbalance_pct '%s' is not an integer in %d..%d",
				      s->text, eq + 1, WL_IMB_MIN, WL_IMB_MAX);
		return wl_spec_add(s, WL_IT_IMBALANCE, dom, v, err, elen);
	}
	if (!strncmp(tok, WL_PARAM_PREFIX, strlen(WL_PARAM_PREFIX)))
		return wl_spec_param(s, tok + strlen(WL_PARAM_PREFIX), eq,
				     err, elen);
	/* Not a sched feature: its own switch, sched/llc_balancing/enabled. */
	if (!strcmp(tok, "SCHED_CACHE") || !strcmp(tok, "NO_SCHED_CACHE"))
		return wl_spec_add(s, WL_IT_SCHED_CACHE, "enabled",
				   *tok == 'N' ? "0" : "1", err, elen);
	if (!strncmp(tok, WL_SCHED_CACHE_PREFIX, strlen(WL_SCHED_CACHE_PREFIX)))
		return wl_spec_sched_cache(s, tok, eq, err, elen);
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
		      "spec '%s': unknown item '%s' (expected FEATURE, NO_FEATURE, wakelab:POLICY, wakelab.TUNABLE=V, imbalance_pct[.DOM]=N, [NO_]SCHED_CACHE, sched_cache.FILE=N, pin=MODE, arg=ARG, name=LABEL or default)",
		      s->text, tok);
}

int wl_spec_parse(const char *text, struct wl_spec *s,
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

int wl_spec_touches_kernel(const struct wl_spec *s)
{
	int i;

	for (i = 0; i < s->nitems; i++)
		if (s->items[i].kind != WL_IT_ARG)
			return 1;
	return 0;
}
