// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of wl_compare's policy specs (selftests/lib/compare/spec.c):
 * the syntax (every item kind, separators, labels, conflicts, bad input),
 * the checks against a kernel (a fake debugfs tree in a temporary
 * directory, with the kernel's token semantics of sched/features and
 * wakelab/policy emulated): WA_OLD on a kernel without it, module policies
 * without the hook, unknown policies and tunables; and applying specs one
 * after the other, restoring, and noticing a setting that cannot be
 * written; the state file (saved once, exclusively; read back into the
 * same settings; restoring from it alone); cache-aware scheduling
 * (SCHED_CACHE, NO_SCHED_CACHE, sched_cache.FILE=N): refused with the
 * reason on a kernel without sched/llc_balancing, bad values refused
 * before anything is read, applied, restored and kept in the state file
 * like the rest.  TAP via kselftest.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest.h"
#include "wl/compare/settings.h"
#include "wl/compare/spec.h"
#include "wl/compare/state.h"
#include "wl/core/file.h"

#define CHECK(cond, ...) ksft_test_result((cond), __VA_ARGS__)

static char root[64];
static const char *features0 = "GENTLE_FAIR_SLEEPERS NO_HRTICK WA_IDLE WA_WEIGHT WA_BIAS\n";

static void put(const char *rel, const char *text)
{
	char p[256];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	f = fopen(p, "w");
	if (!f)
		ksft_exit_fail_msg("cannot create %s\n", p);
	fputs(text, f);
	fclose(f);
}

static void get(const char *rel, char *buf, size_t len)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	if (wl_read_file(p, buf, len) < 0)
		buf[0] = '\0';
}

static void mk(const char *rel)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	mkdir(p, 0755);
}

static void make_tree(int with_policy)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	if (system(cmd))
		ksft_exit_fail_msg("rm failed\n");
	mkdir(root, 0755);
	mk("sched");
	mk("wakelab");
	mk("sched/domains");
	mk("sched/domains/cpu0");
	mk("sched/domains/cpu0/domain0");
	mk("sched/domains/cpu0/domain1");
	put("sched/features", features0);
	put("sched/domains/cpu0/domain0/name", "MC\n");
	put("sched/domains/cpu0/domain0/imbalance_pct", "117\n");
	put("sched/domains/cpu0/domain1/name", "DIE\n");
	put("sched/domains/cpu0/domain1/imbalance_pct", "125\n");
	put("wakelab/bias", "5\n");
	if (with_policy)
		put("wakelab/policy", "[default] old always never\n");
}

/* A 7.3 kernel's sched/llc_balancing (CONFIG_SCHED_CACHE). */
static void add_llc_balancing(void)
{
	mk("sched/llc_balancing");
	put("sched/llc_balancing/enabled", "1\n");
	put("sched/llc_balancing/aggr_tolerance", "1\n");
	put("sched/llc_balancing/imb_pct", "20\n");
}

static int parse(const char *text, struct wl_spec *s, char *err)
{
	return wl_spec_parse(text, s, err, 512);
}

static void test_syntax(void)
{
	struct wl_spec s;
	char err[512];
	static const char * const bad[] = {
		"", " , ", "default,WA_IDLE", "WA_IDLE,NO_WA_IDLE", "wa_idle",
		"NO_", "NO_wa", "wakelab:", "wakelab:Old", "wakelab:old,wakelab:never",
		"wakelab.bias", "wakelab.=3", "wakelab.policy=old",
		"imbalance_pct=99", "imbalance_pct=abc", "imbalance_pct=1001",
		"imbalance_pct.mc=120", "imbalance_pct=120,imbalance_pct.MC=130",
		"name=a,name=b", "name=", "name=a b", "name=x/y", "foo=bar",
		"arg=", "pin=Same CPU",
		"SCHED_CACHE,NO_SCHED_CACHE", "NO_SCHED_CACHE,sched_cache.enabled=1",
		"sched_cache.enabled=2", "sched_cache.nosuch=1",
		"sched_cache.aggr_tolerance", "sched_cache.aggr_tolerance=",
		"sched_cache.imb_pct=-1", "sched_cache.imb_pct=4294967296",
		"sched_cache.imb_pct=12345678901", "sched_cache.=1", "no_sched_cache",
	};
	size_t i;
	int rejected = 0;

	CHECK(!parse("WA_OLD,NO_WA_IDLE,NO_WA_WEIGHT", &s, err) &&
	      s.nitems == 3 && s.items[0].kind == WL_IT_FEATURE &&
	      !strcmp(s.items[0].key, "WA_OLD") &&
	      !strcmp(s.items[0].value, "1") &&
	      !strcmp(s.items[1].key, "WA_IDLE") &&
	      !strcmp(s.items[1].value, "0") &&
	      !strcmp(s.label, "WA_OLD,NO_WA_IDLE,NO_..") && !s.named,
	      "features, NO_ prefix, derived label\n");
	CHECK(!parse("WA_OLD NO_WA_IDLE\tNO_WA_WEIGHT", &s, err) &&
	      s.nitems == 3, "white space separates items too\n");
	CHECK(!parse("name=old,wakelab:old,wakelab.bias=7,imbalance_pct.MC=130",
		     &s, err) && s.named && !strcmp(s.label, "old") &&
	      s.nitems == 3 && s.items[0].kind == WL_IT_POLICY &&
	      !strcmp(s.items[0].value, "old") &&
	      s.items[1].kind == WL_IT_TUNABLE &&
	      !strcmp(s.items[1].key, "bias") &&
	      !strcmp(s.items[1].value, "7") &&
	      s.items[2].kind == WL_IT_IMBALANCE &&
	      !strcmp(s.items[2].key, "MC"), "module policy, tunable, domain\n");
	CHECK(!parse("name=same,pin=same-cpu,arg=-s,arg=1M", &s, err) &&
	      s.nitems == 4 && s.items[0].kind == WL_IT_ARG &&
	      !strcmp(s.items[0].value, "--pin") &&
	      !strcmp(s.items[1].value, "same-cpu") &&
	      !wl_spec_touches_kernel(&s), "pin= and arg= touch no kernel\n");
	CHECK(!parse("NO_SCHED_CACHE", &s, err) && s.nitems == 1 &&
	      s.items[0].kind == WL_IT_SCHED_CACHE &&
	      !strcmp(s.items[0].key, "enabled") &&
	      !strcmp(s.items[0].value, "0") && wl_spec_touches_kernel(&s),
	      "NO_SCHED_CACHE: llc_balancing/enabled 0, not a sched feature\n");
	CHECK(!parse("SCHED_CACHE,sched_cache.aggr_tolerance=007,sched_cache.imb_pct=4294967295",
		     &s, err) && s.nitems == 3 &&
	      s.items[0].kind == WL_IT_SCHED_CACHE &&
	      !strcmp(s.items[0].value, "1") &&
	      !strcmp(s.items[1].key, "aggr_tolerance") &&
	      !strcmp(s.items[1].value, "7") &&
	      !strcmp(s.items[2].value, "4294967295"),
	      "SCHED_CACHE, sched_cache.FILE=N written as the kernel prints it\n");
	parse("SCHED_CACHE,sched_cache.enabled=0", &s, err);
	CHECK(strstr(err, "sched_cache.enabled twice") != NULL,
	      "SCHED_CACHE and sched_cache.enabled= conflict: %s\n", err);
	CHECK(!parse("default", &s, err) && !s.nitems &&
	      !strcmp(s.label, "default"), "default\n");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (parse(bad[i], &s, err))
			rejected++;
		else
			ksft_print_msg("accepted bad spec '%s'\n", bad[i]);
	}
	CHECK(rejected == (int)(sizeof(bad) / sizeof(bad[0])),
	      "%d bad specs rejected\n", rejected);
	parse("WA_IDLE,NO_WA_IDLE", &s, err);
	CHECK(strstr(err, "twice") != NULL, "conflict message: %s\n", err);
}

static int check(struct wl_state *st, const char **texts, int n,
		 struct wl_spec *sp, char *err)
{
	int i;

	wl_state_init(st);
	for (i = 0; i < n; i++)
		if (parse(texts[i], &sp[i], err))
			return -2;
	return wl_spec_check(st, sp, n, err, 512);
}

static void test_check(void)
{
	const char *waold[] = { "default", "WA_OLD,NO_WA_IDLE" };
	const char *pol[] = { "wakelab:old" };
	const char *unk[] = { "wakelab:bogus" };
	const char *tun[] = { "wakelab.nosuch=1" };
	const char *feat[] = { "NO_WA_NOPE" };
	const char *dom[] = { "imbalance_pct.NUMA=130" };
	const char *sc[] = { "default", "NO_SCHED_CACHE" };
	const char *sc_tun[] = { "sched_cache.epoch_period=10" };
	struct wl_spec sp[4];
	struct wl_state *st = calloc(1, sizeof(*st));
	char err[512], f[256];
	int ret;

	make_tree(0);
	CHECK(check(st, waold, 2, sp, err) == -1 &&
	      strstr(err, "WA_OLD") && strstr(err, "patched"),
	      "WA_OLD refused on a kernel without it: %s\n", err);
	CHECK(check(st, pol, 1, sp, err) == -1 && strstr(err, "policy hook"),
	      "module policy without the hook refused\n");
	CHECK(check(st, feat, 1, sp, err) == -1 && strstr(err, "WA_NOPE"),
	      "unknown feature refused\n");
	CHECK(check(st, tun, 1, sp, err) == -1 && strstr(err, "nosuch"),
	      "unknown tunable refused\n");
	CHECK(check(st, dom, 1, sp, err) == -1 && strstr(err, "NUMA"),
	      "unknown domain refused\n");
	put("wakelab/policy", "# hook: absent (this kernel has no hook)\n[observe]\n");
	CHECK(check(st, pol, 1, sp, err) == -1 && strstr(err, "policy hook"),
	      "stock module's policy file (hook absent) refused\n");
	put("wakelab/policy", "# hook: present\n# old: the [old] rule\nkernel [old] never\n");
	put("wakelab/caps", "# version 1\n# caps\ncap value\nhook no\n");
	CHECK(check(st, pol, 1, sp, err) == -1 && strstr(err, "policy hook"),
	      "caps 'hook no' refused\n");
	put("wakelab/caps", "# version 1\n# caps\ncap value\nhook yes\n");
	CHECK(check(st, pol, 1, sp, err) == 0 && !strcmp(st->set[0].orig, "old"),
	      "caps 'hook yes', commented policy file parsed\n");
	make_tree(1);
	CHECK(check(st, unk, 1, sp, err) == -1 && strstr(err, "always"),
	      "unknown policy refused, offers listed\n");
	get("sched/features", f, sizeof(f));
	CHECK(!strcmp(f, features0), "checks changed nothing\n");
	CHECK(check(st, sc, 2, sp, err) == -1 &&
	      strstr(err, "no cache-aware scheduling (CONFIG_SCHED_CACHE)") &&
	      strstr(err, "sched/llc_balancing/enabled"),
	      "NO_SCHED_CACHE refused without sched/llc_balancing: %s\n", err);
	add_llc_balancing();
	CHECK(check(st, sc_tun, 1, sp, err) == -1 && strstr(err, "epoch_period"),
	      "an llc_balancing file this kernel lacks is refused: %s\n", err);
	ret = check(st, sc, 2, sp, err);
	CHECK(!ret && st->nset == 1 && !strcmp(st->set[0].orig, "1"),
	      "with sched/llc_balancing: checked, original 1 %s\n",
	      ret ? err : "");
	get("sched/llc_balancing/enabled", f, sizeof(f));
	CHECK(!strcmp(f, "1\n"), "checks wrote nothing to llc_balancing\n");
	free(st);
}

static void test_apply(void)
{
	const char *texts[] = { "default", "NO_WA_IDLE,NO_WA_WEIGHT",
				"name=old,wakelab:old,wakelab.bias=7,imbalance_pct.MC=130",
				"WA_IDLE,NO_WA_BIAS,imbalance_pct=140" };
	struct wl_state *st = calloc(1, sizeof(*st));
	struct wl_spec sp[4];
	char err[512], f[256], p[64], mc[16], die[16], b[16], desc[512];
	int ret;

	make_tree(1);
	ret = check(st, texts, 4, sp, err);
	CHECK(!ret && st->nset == 7,
	      "union of settings: 3 features, policy, tunable, 2 domains (%d) %s\n",
	      st->nset, ret ? err : "");
	wl_spec_describe(st, &sp[0], desc, sizeof(desc));
	CHECK(!strcmp(desc, "WA_IDLE WA_WEIGHT wakelab:default wakelab.bias=5 WA_BIAS"),
	      "default described Peter's way: %s\n", desc);

	ret = wl_spec_apply(st, &sp[1], err, sizeof(err));
	get("sched/features", f, sizeof(f));
	CHECK(!ret && strstr(f, "NO_WA_IDLE NO_WA_WEIGHT WA_BIAS"),
	      "apply features: %s", f);
	ret = wl_spec_apply(st, &sp[2], err, sizeof(err));
	get("sched/features", f, sizeof(f));
	get("wakelab/policy", p, sizeof(p));
	get("wakelab/bias", b, sizeof(b));
	get("sched/domains/cpu0/domain0/imbalance_pct", mc, sizeof(mc));
	get("sched/domains/cpu0/domain1/imbalance_pct", die, sizeof(die));
	CHECK(!ret && !strcmp(f, features0) &&
	      !strcmp(p, "default [old] always never\n") && !strcmp(b, "7") &&
	      !strcmp(mc, "130") && !strcmp(die, "125\n"),
	      "next spec: features back, policy, tunable, MC only\n");
	ret = wl_spec_apply(st, &sp[3], err, sizeof(err));
	get("sched/domains/cpu0/domain0/imbalance_pct", mc, sizeof(mc));
	get("sched/domains/cpu0/domain1/imbalance_pct", die, sizeof(die));
	get("wakelab/policy", p, sizeof(p));
	CHECK(!ret && !strcmp(mc, "140") && !strcmp(die, "140") &&
	      !strcmp(p, "[default] old always never\n"),
	      "imbalance_pct= sets every domain; policy back\n");
	ret = wl_spec_restore(st, err, sizeof(err));
	get("sched/features", f, sizeof(f));
	get("sched/domains/cpu0/domain0/imbalance_pct", mc, sizeof(mc));
	get("wakelab/bias", b, sizeof(b));
	CHECK(!ret && !strcmp(f, features0) && !strcmp(mc, "117") &&
	      !strcmp(b, "5"), "restore: every original back, verified\n");

	/* A setting that cannot be written any more is reported. */
	snprintf(err, sizeof(err), "rm -f %s/wakelab/bias && mkdir %s/wakelab/bias",
		 root, root);
	if (system(err))
		ksft_exit_fail_msg("cannot break the tree\n");
	err[0] = '\0';
	ret = wl_spec_apply(st, &sp[2], err, sizeof(err));
	CHECK(ret == -1 && strstr(err, "bias"),
	      "unwritable setting reported: %s\n", err);
	ret = wl_spec_restore(st, err, sizeof(err));
	get("sched/features", f, sizeof(f));
	get("wakelab/policy", p, sizeof(p));
	CHECK(ret == -1 && !strcmp(f, features0) &&
	      !strcmp(p, "[default] old always never\n"),
	      "restore fails loudly yet restores everything it can\n");
	free(st);
}

/* NO_SCHED_CACHE and a tunable, one spec after the other, then restored. */
static void test_sched_cache(void)
{
	const char *texts[] = { "default", "NO_SCHED_CACHE",
				"SCHED_CACHE,sched_cache.aggr_tolerance=0",
				"NO_SCHED_CACHE,WA_IDLE" };
	struct wl_state *st = calloc(1, sizeof(*st));
	struct wl_state *back = calloc(1, sizeof(*back));
	char err[512], en[16], ag[16], f[256], desc[512], path[96];
	struct wl_spec sp[4];
	int ret, pid;

	make_tree(1);
	add_llc_balancing();
	ret = check(st, texts, 4, sp, err);
	CHECK(!ret && st->nset == 3 && st->set[0].kind == WL_IT_SCHED_CACHE,
	      "settings: enabled, aggr_tolerance, WA_IDLE (%d) %s\n", st->nset,
	      ret ? err : "");
	wl_spec_describe(st, &sp[1], desc, sizeof(desc));
	CHECK(!strcmp(desc, "NO_SCHED_CACHE sched_cache.aggr_tolerance=1 WA_IDLE"),
	      "NO_SCHED_CACHE described: %s\n", desc);
	ret = wl_spec_apply(st, &sp[1], err, sizeof(err));
	get("sched/llc_balancing/enabled", en, sizeof(en));
	get("sched/llc_balancing/aggr_tolerance", ag, sizeof(ag));
	get("sched/features", f, sizeof(f));
	CHECK(!ret && !strcmp(en, "0") && !strcmp(ag, "1\n") &&
	      !strcmp(f, features0),
	      "NO_SCHED_CACHE writes 0 to llc_balancing/enabled, nothing else\n");
	snprintf(path, sizeof(path), "%s/%s", root, WL_STATE_NAME);
	ret = wl_state_save(st, path, err, sizeof(err));
	wl_state_init(back);
	ret = ret ? ret : wl_state_load(back, path, &pid, err, sizeof(err));
	CHECK(!ret && back->nset == 3 && back->set[0].kind == WL_IT_SCHED_CACHE &&
	      !strcmp(back->set[0].key, "enabled") &&
	      !strcmp(back->set[0].orig, "1"),
	      "state file keeps llc_balancing/enabled's original (%s)\n",
	      ret ? err : "");
	unlink(path);
	ret = wl_spec_apply(st, &sp[2], err, sizeof(err));
	get("sched/llc_balancing/enabled", en, sizeof(en));
	get("sched/llc_balancing/aggr_tolerance", ag, sizeof(ag));
	CHECK(!ret && !strcmp(en, "1") && !strcmp(ag, "0"),
	      "next spec: SCHED_CACHE back on, aggr_tolerance 0\n");
	ret = wl_spec_apply(st, &sp[3], err, sizeof(err));
	ret = ret ? ret : wl_spec_restore(back, err, sizeof(err));
	get("sched/llc_balancing/enabled", en, sizeof(en));
	get("sched/llc_balancing/aggr_tolerance", ag, sizeof(ag));
	get("sched/features", f, sizeof(f));
	CHECK(!ret && !strcmp(en, "1") && !strcmp(ag, "1") &&
	      !strcmp(f, features0),
	      "restore from the state file: enabled 1, aggr_tolerance 1, verified\n");
	/* A switch that cannot be written any more is reported. */
	snprintf(err, sizeof(err),
		 "rm -f %s/sched/llc_balancing/enabled && mkdir %s/sched/llc_balancing/enabled",
		 root, root);
	if (system(err))
		ksft_exit_fail_msg("cannot break the tree\n");
	err[0] = '\0';
	ret = wl_spec_apply(st, &sp[1], err, sizeof(err));
	CHECK(ret == -1 && strstr(err, "llc_balancing/enabled"),
	      "an unwritable llc_balancing/enabled is reported: %s\n", err);
	free(st);
	free(back);
}

/*
 * param.MODULE.NAME=V: a loaded module's parameter (the emulation's
 * ROOT/sys/module/...), checked, applied, described, kept in the state
 * file and restored; a module not loaded, a parameter it lacks, a
 * read-only one and bad syntax are refused with the reason.
 */
static void test_param(void)
{
	const char *texts[] = { "default",
				"name=planted,param.wakelab_planted.burn_loops=100000" };
	const char *bad_syntax[] = {
		"param.wakelab_planted.burn_loops", "param.burn_loops=1",
		"param.Wakelab.x=1", "param.m.p=", "param.m.p=a'b", "param.m.p=a;b",
	};
	const char *notloaded[] = { "param.nosuch.x=1" };
	const char *noparam[] = { "param.wakelab_planted.nosuch=1" };
	const char *ro[] = { "param.wakelab_planted.ro=1" };
	struct wl_state *st = calloc(1, sizeof(*st));
	struct wl_state *back = calloc(1, sizeof(*back));
	char err[512], v[32], desc[256], path[128], q[256];
	struct wl_spec sp[2];
	unsigned int i;
	int ret, pid, bad = 0;

	for (i = 0; i < sizeof(bad_syntax) / sizeof(bad_syntax[0]); i++)
		if (!parse(bad_syntax[i], &sp[0], err) || !strstr(err, "param"))
			bad++;
	CHECK(!bad, "param: %u bad forms refused, naming param.MODULE.NAME=VALUE\n", i);
	make_tree(1);
	mk("sys");
	mk("sys/module");
	mk("sys/module/wakelab_planted");
	mk("sys/module/wakelab_planted/parameters");
	put("sys/module/wakelab_planted/parameters/burn_loops", "0\n");
	put("sys/module/wakelab_planted/parameters/ro", "7\n");
	snprintf(q, sizeof(q), "%s/sys/module/wakelab_planted/parameters/ro", root);
	chmod(q, 0444);
	ret = check(st, texts, 2, sp, err);
	CHECK(!ret && st->nset == 1 && st->set[0].kind == WL_IT_PARAM &&
	      !strcmp(st->set[0].key, "wakelab_planted.burn_loops") &&
	      !strcmp(st->set[0].orig, "0"),
	      "param: the parameter and its original (%s)\n", ret ? err : "");
	wl_spec_describe(st, &sp[1], desc, sizeof(desc));
	ret = wl_spec_apply(st, &sp[1], err, sizeof(err));
	get("sys/module/wakelab_planted/parameters/burn_loops", v, sizeof(v));
	CHECK(!ret && !strcmp(v, "100000") &&
	      !strcmp(desc, "param.wakelab_planted.burn_loops=100000"),
	      "param: applied for its spec, described as %s\n", desc);
	snprintf(path, sizeof(path), "%s/%s", root, WL_STATE_NAME);
	ret = wl_state_save(st, path, err, sizeof(err));
	wl_state_init(back);
	ret = ret ? ret : wl_state_load(back, path, &pid, err, sizeof(err));
	ret = ret ? ret : wl_spec_restore(back, err, sizeof(err));
	get("sys/module/wakelab_planted/parameters/burn_loops", v, sizeof(v));
	CHECK(!ret && !strcmp(v, "0"), "param: the state file restores it (%s)\n",
	      ret ? err : v);
	unlink(path);
	ret = check(st, notloaded, 1, sp, err);
	CHECK(ret == -1 && strstr(err, "module nosuch is not loaded"),
	      "param: a module not loaded: %s\n", err);
	ret = check(st, noparam, 1, sp, err);
	CHECK(ret == -1 && strstr(err, "has no parameter nosuch"),
	      "param: a parameter it lacks: %s\n", err);
	ret = check(st, ro, 1, sp, err);
	CHECK(ret == -1 && strstr(err, "cannot be changed while it is loaded"),
	      "param: a read-only parameter: %s\n", err);
	free(st);
	free(back);
}

/* Every setting of @b is the same setting with the same original in @a. */
static int same_settings(const struct wl_state *a, const struct wl_state *b)
{
	int i;

	if (a->nset != b->nset)
		return 0;
	for (i = 0; i < a->nset; i++)
		if (a->set[i].kind != b->set[i].kind ||
		    strcmp(a->set[i].key, b->set[i].key) ||
		    strcmp(a->set[i].path, b->set[i].path) ||
		    strcmp(a->set[i].orig, b->set[i].orig))
			return 0;
	return 1;
}

static void test_state_file(void)
{
	const char *texts[] = { "NO_WA_IDLE,NO_WA_WEIGHT",
				"wakelab:old,wakelab.bias=7,imbalance_pct=130" };
	struct wl_state *st = calloc(1, sizeof(*st));
	struct wl_state *back = calloc(1, sizeof(*back));
	char err[512], path[96], f[256], b[16], mc[16];
	struct wl_spec sp[2];
	int ret, pid = 0;

	make_tree(1);
	snprintf(path, sizeof(path), "%s/%s", root, WL_STATE_NAME);
	wl_state_init(st);
	wl_state_default_path(st, f, sizeof(f));
	CHECK(!strcmp(f, path), "state file inside the emulated debugfs: %s\n",
	      f);
	ret = check(st, texts, 2, sp, err);
	ret = ret ? ret : wl_state_save(st, path, err, sizeof(err));
	CHECK(!ret && !access(path, R_OK), "originals saved (%s)\n", err);
	err[0] = '\0';
	CHECK(wl_state_save(st, path, err, sizeof(err)) == -1 &&
	      strstr(err, "exists") && strstr(err, "--restore"),
	      "a second save does not take the file over: %s\n", err);
	wl_spec_apply(st, &sp[0], err, sizeof(err));
	wl_spec_apply(st, &sp[1], err, sizeof(err));
	wl_state_init(back);
	ret = wl_state_load(back, path, &pid, err, sizeof(err));
	CHECK(!ret && pid == getpid() && back->saved && st->nset == 6 &&
	      same_settings(st, back),
	      "read back: %d settings, kind, key, path and original each (%s)\n",
	      back->nset, ret ? err : "");
	ret = wl_spec_restore(back, err, sizeof(err));
	get("sched/features", f, sizeof(f));
	get("wakelab/bias", b, sizeof(b));
	get("sched/domains/cpu0/domain0/imbalance_pct", mc, sizeof(mc));
	CHECK(!ret && !strcmp(f, features0) && !strcmp(b, "5") &&
	      !strcmp(mc, "117"),
	      "restore from the file alone: every original back\n");
	unlink(path);
	CHECK(wl_state_load(back, path, &pid, err, sizeof(err)) == -1 &&
	      strstr(err, "nothing to restore"), "no file: %s\n", err);
	snprintf(st->set[0].orig, sizeof(st->set[0].orig), "a\tb");
	CHECK(wl_state_save(st, path, err, sizeof(err)) == -1 &&
	      access(path, F_OK), "a value with a tab is refused: %s\n", err);
	free(st);
	free(back);
}

/*
 * Values are written as the kernel prints them back ("007" is "7"), so
 * that the check after the write holds; a value the module's knobs cannot
 * take is refused before anything is read.
 */
static void test_values(void)
{
	const char *texts[] = { "wakelab.bias=007,imbalance_pct.MC=0130" };
	struct wl_state *st = calloc(1, sizeof(*st));
	char err[512], b[16], mc[16];
	struct wl_spec sp[1];
	int ret;

	CHECK(!parse("wakelab.bias=007,imbalance_pct=0130,sched_cache.imb_pct=000",
		     &sp[0], err) &&
	      !strcmp(sp[0].items[0].value, "7") &&
	      !strcmp(sp[0].items[1].value, "130") &&
	      !strcmp(sp[0].items[2].value, "0"),
	      "wakelab.bias=007 is 7, imbalance_pct=0130 is 130, 000 is 0\n");
	CHECK(parse("wakelab.bias=x7", &sp[0], err) == -1 &&
	      strstr(err, "decimal integer") &&
	      parse("wakelab.bias=4294967296", &sp[0], err) == -1 &&
	      parse("wakelab.bias=-1", &sp[0], err) == -1,
	      "wakelab.bias=x7, 2^32 and -1 refused: %s\n", err);
	make_tree(1);
	ret = check(st, texts, 1, sp, err);
	ret = ret ? ret : wl_spec_apply(st, &sp[0], err, sizeof(err));
	get("wakelab/bias", b, sizeof(b));
	get("sched/domains/cpu0/domain0/imbalance_pct", mc, sizeof(mc));
	CHECK(!ret && !strcmp(b, "7") && !strcmp(mc, "130"),
	      "wakelab.bias=007 written as 7 and verified (%s)\n", ret ? err : "");
	wl_spec_restore(st, err, sizeof(err));
	free(st);
}

/* A setting gone by the restore is named in words; nothing is created. */
static void test_gone(void)
{
	const char *texts[] = { "NO_WA_IDLE,wakelab.bias=7" };
	struct wl_state *st = calloc(1, sizeof(*st));
	char err[512], p[256];
	struct wl_spec sp[1];
	int ret;

	make_tree(1);
	ret = check(st, texts, 1, sp, err);
	ret = ret ? ret : wl_spec_apply(st, &sp[0], err, sizeof(err));
	if (ret)
		ksft_print_msg("apply: %s\n", err);
	put("sched/features", "GENTLE_FAIR_SLEEPERS NO_HRTICK WA_WEIGHT WA_BIAS\n");
	err[0] = '\0';
	ret = wl_spec_restore(st, err, sizeof(err));
	CHECK(ret == -1 &&
	      strstr(err, "feature WA_IDLE is not in this kernel's sched/features") &&
	      !strstr(err, "No such file"),
	      "a feature gone at restore, in words: %s\n", err);
	put("sched/features", features0);
	snprintf(p, sizeof(p), "%s/wakelab/bias", root);
	unlink(p);
	err[0] = '\0';
	ret = wl_spec_restore(st, err, sizeof(err));
	CHECK(ret == -1 && strstr(err, "wakelab tunable bias") &&
	      strstr(err, "is gone") && access(p, F_OK),
	      "a tunable gone at restore, in words, not created: %s\n", err);
	free(st);
}

/* The emulated write of a sched/features listing that would not fit. */
static void test_fake_bound(void)
{
	const char *texts[] = { "NO_WA_IDLE" };
	struct wl_state *st = calloc(1, sizeof(*st));
	char *big = malloc(WL_SPEC_FILE), *after = malloc(WL_SPEC_FILE);
	char err[512];
	struct wl_spec sp[1];
	size_t o;
	int ret, k = 0;

	/* WA_IDLE, then tokens up to WL_SPEC_FILE - 2 bytes with the newline. */
	o = snprintf(big, WL_SPEC_FILE, "WA_IDLE");
	while (o < WL_SPEC_FILE - 12)
		o += snprintf(big + o, WL_SPEC_FILE - o, " F%07d", k++);
	while (o < WL_SPEC_FILE - 3)
		big[o++] = 'X';
	big[o++] = '\n';
	big[o] = '\0';
	make_tree(1);
	put("sched/features", big);
	ret = check(st, texts, 1, sp, err);
	err[0] = '\0';
	ret = ret ? ret : wl_spec_apply(st, &sp[0], err, sizeof(err));
	get("sched/features", after, WL_SPEC_FILE);
	CHECK(ret == -1 && strstr(err, "WA_IDLE") && !strcmp(after, big),
	      "a features listing that would outgrow the buffer: refused, unchanged (%zu bytes): %s\n",
	      o, err);
	free(st);
	free(big);
	free(after);
}

/* A state file as wl_state_save() writes it, with @lines as its settings. */
static void state_file(const char *path, const char *lines, mode_t mode)
{
	char boot[64] = "unknown";
	FILE *f;

	if (wl_read_file("/proc/sys/kernel/random/boot_id", boot, sizeof(boot)) < 0)
		snprintf(boot, sizeof(boot), "unknown");
	boot[strcspn(boot, "\n")] = '\0';
	unlink(path);
	f = fopen(path, "w");
	if (!f)
		ksft_exit_fail_msg("cannot create %s\n", path);
	fprintf(f, "%s\nboot_id %s\npid 1\nroot %s\n%send\n", WL_STATE_MAGIC,
		boot, root, lines);
	fclose(f);
	chmod(path, mode);
}

/*
 * --restore takes orders from a state file only when wl_compare could have
 * written it: paths it saves, a file and directory nobody else can write.
 * A refused file changes nothing, not even its good lines.
 */
static void test_state_refused(void)
{
	struct wl_state *st = calloc(1, sizeof(*st));
	char path[128], lines[1024], good[256], err[512], f[256], v[64];
	char core0[256] = "", core1[256] = "";
	struct {
		const char *what, *fmt;
		mode_t mode;
		const char *says;
	} bad[] = {
		{ "a set line naming /proc/sys/kernel/core_pattern",
		  "set\ttunable\tbias\t/proc/sys/kernel/core_pattern\t5\n", 0644,
		  "not the file wl_compare saves it from" },
		{ "a ../ path", "set\ttunable\tbias\t%s/wakelab/../victim\t5\n",
		  0644, "'..'" },
		{ "a tunable path under another name",
		  "set\ttunable\tbias\t%s/victim\t5\n", 0644,
		  "not the file wl_compare saves it from" },
		{ "a feature outside sched/features",
		  "set\tfeature\tWA_IDLE\t%s/victim\t1\n", 0644,
		  "not the file wl_compare saves it from" },
		{ "a domain path with a stray suffix",
		  "set\timbalance_pct\tMC\t%s/sched/domains/cpu0/domain0/imbalance_pctx\t117\n",
		  0644, "not the file wl_compare saves it from" },
		{ "a tunable named like a path",
		  "set\ttunable\t../victim\t%s/wakelab/../victim\t5\n", 0644,
		  "'..'" },
		{ "a module parameter outside /sys/module/M/parameters",
		  "set\tparam\twakelab_planted.burn_loops\t%s/victim\t0\n", 0644,
		  "not the file wl_compare saves it from" },
		{ "a module parameter named like a path",
		  "set\tparam\t../x.y\t%s/sys/module/../x/parameters/y\t0\n", 0644,
		  "'..'" },
		{ "a module parameter value with a space",
		  "set\tparam\tm.p\t%s/sys/module/m/parameters/p\ta b\n", 0644,
		  "is no value a param has" },
		{ "a tunable that is a table",
		  "set\ttunable\tplacement\t%s/wakelab/placement\t5\n", 0644,
		  "no tunable wl_compare saves is named 'placement'" },
		{ "a feature value that is no 0 or 1",
		  "set\tfeature\tWA_IDLE\t%s/sched/features\t2\n", 0644,
		  "'2' is no value a feature has" },
		{ "a group-writable state file", "", 0664, "writable by its group" },
		{ "an others-writable state file", "", 0646, "writable by others" },
	};
	size_t i;
	int pid, ret, refused = 0;

	make_tree(1);
	put("victim", "victim\n");
	snprintf(path, sizeof(path), "%s/%s", root, WL_STATE_NAME);
	wl_read_file("/proc/sys/kernel/core_pattern", core0, sizeof(core0));
	/* Its good line turns WA_IDLE off: a refused file must not. */
	snprintf(good, sizeof(good), "set\tfeature\tWA_IDLE\t%s/sched/features\t0\n",
		 root);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		size_t o = snprintf(lines, sizeof(lines), "%s", good);

		snprintf(lines + o, sizeof(lines) - o, bad[i].fmt, root);
		state_file(path, lines, bad[i].mode);
		wl_state_init(st);
		err[0] = '\0';
		ret = wl_state_load(st, path, &pid, err, sizeof(err));
		if (!ret)
			wl_spec_restore(st, err, sizeof(err));
		get("sched/features", f, sizeof(f));
		get("victim", v, sizeof(v));
		if (ret == -1 && strstr(err, bad[i].says) && !st->saved &&
		    !strcmp(f, features0) && !strcmp(v, "victim\n"))
			refused++;
		else
			ksft_print_msg("%s: not refused as it should be: %d %s\n",
				       bad[i].what, ret, err);
		ksft_print_msg("%s: %s\n", bad[i].what, err);
	}
	wl_read_file("/proc/sys/kernel/core_pattern", core1, sizeof(core1));
	CHECK(refused == (int)(sizeof(bad) / sizeof(bad[0])) &&
	      !strcmp(core0, core1),
	      "%d bad state files refused, nothing written (sched/features, the victim file, core_pattern)\n",
	      refused);

	state_file(path, good, 0644);
	snprintf(lines, sizeof(lines), "%s.link", path);
	unlink(lines);
	ret = symlink(path, lines) ? -2 : wl_state_load(st, lines, &pid, err, sizeof(err));
	CHECK(ret == -1 && strstr(err, "symbolic link"),
	      "a state file that is a symbolic link is refused: %s\n", err);
	unlink(lines);

	chmod(root, 0775);
	ret = wl_state_load(st, path, &pid, err, sizeof(err));
	chmod(root, 0755);
	CHECK(ret == -1 && strstr(err, "directory") &&
	      strstr(err, "writable by its group"),
	      "a state file in a group-writable directory is refused: %s\n", err);

	if (geteuid() == 0) {
		ret = chown(path, 65534, 65534) ? -2 :
		      wl_state_load(st, path, &pid, err, sizeof(err));
		CHECK(ret == -1 && strstr(err, "belongs to uid 65534") &&
		      strstr(err, "root"),
		      "run as root, a state file of uid 65534 is refused: %s\n", err);
		ret = chown(path, 0, 0);
	} else {
		ksft_test_result_skip("a state file of another user: needs root to chown\n");
	}

	state_file(path, good, 0600);
	ret = wl_state_load(st, path, &pid, err, sizeof(err));
	ret = ret ? ret : wl_spec_restore(st, err, sizeof(err));
	get("sched/features", f, sizeof(f));
	CHECK(!ret && strstr(f, "NO_WA_IDLE"),
	      "the same good line alone, in a file of mode 0600, is restored (%s)\n",
	      ret ? err : "");
	unlink(path);
	free(st);
}

int main(void)
{
	char cmd[96];

	snprintf(root, sizeof(root), "/tmp/test_compare_spec.%d", getpid());
	setenv("WL_FAKE_DEBUGFS", root, 1);
	ksft_print_header();
	ksft_set_plan(64);
	test_syntax();
	test_check();
	test_apply();
	test_state_file();
	test_sched_cache();
	test_param();
	test_values();
	test_gone();
	test_fake_bound();
	test_state_refused();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	if (system(cmd))
		ksft_print_msg("cleanup of %s failed\n", root);
	ksft_finished();
}
