/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Policy specs for wl_compare: parse a spec ("WA_OLD,NO_WA_IDLE",
 * "wakelab:old", "wakelab.tunable=3", "imbalance_pct.MC=130",
 * "NO_SCHED_CACHE", "sched_cache.aggr_tolerance=0", "pin=same-cpu",
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
 */
#ifndef WL_COMPARE_SPEC_H
#define WL_COMPARE_SPEC_H

#include <stddef.h>

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
/* Cache-aware scheduling's switch and tunables (CONFIG_SCHED_CACHE). */
#define WL_LLC_BALANCING	"sched/llc_balancing"
#define WL_SCHED_CACHE_PREFIX	"sched_cache."
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
 * @WL_IT_SCHED_CACHE:	cache-aware scheduling (CONFIG_SCHED_CACHE, 7.3):
 *			a file of sched/llc_balancing (key = file name,
 *			"enabled" for SCHED_CACHE / NO_SCHED_CACHE; value =
 *			its text, "1" / "0" for enabled)
 * @WL_IT_ARG:		extra wl_stream argument (changes nothing in the
 *			kernel)
 */
enum wl_item_kind {
	WL_IT_FEATURE,
	WL_IT_POLICY,
	WL_IT_TUNABLE,
	WL_IT_IMBALANCE,
	WL_IT_SCHED_CACHE,
	WL_IT_ARG,	/* Last: the kinds before it are kernel settings. */
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
 * @key:	feature name, "policy", tunable file name, domain name, or
 *		llc_balancing file name
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

/* What a refused $WL_FAKE_DEBUGFS leaves as the root: nothing is there. */
#define WL_FAKE_REFUSED		"/nonexistent/WL_FAKE_DEBUGFS-refused"

/*
 * Debugfs root: $WL_FAKE_DEBUGFS (emulated, host tests) or
 * /sys/kernel/debug.  The emulation is honoured by a test build
 * (-DWL_TEST_BUILD, tests/Makefile) and otherwise only when not root:
 * returns -1, and a root where nothing exists, when it is set but refused.
 */
int wl_state_init(struct wl_state *st);

void wl_state_path(const struct wl_state *st, char *buf, size_t len,
		   const char *rel);

/**
 * wl_spec_parse() - parse one spec (syntax only; see docs/wl_compare.md, "Specs")
 * @text:	items separated by commas and/or white space
 * @s:		result
 * @err:	error message buffer
 * @elen:	its size
 *
 * Return: 0 or -1 with a message in @err.
 */
int wl_spec_parse(const char *text, struct wl_spec *s,
		  char *err, size_t elen);

/* Index of @name among sched/llc_balancing's files ("enabled" is 0), or -1. */
int wl_spec_llc_file(const char *name);

/* Whether the spec changes anything in the kernel. */
int wl_spec_touches_kernel(const struct wl_spec *s);

/* ---- reading and writing settings ---- */

/* ---- checking specs against this kernel ---- */

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
int wl_spec_check(struct wl_state *st, const struct wl_spec *sp,
		  int n, char *err, size_t elen);

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
int wl_spec_apply(struct wl_state *st, const struct wl_spec *sp,
		  char *err, size_t elen);

int wl_spec_restore(struct wl_state *st, char *err,
		    size_t elen);

/* ---- the state file: originals that outlive a killed run ---- */

/*
 * Default state file: WL_STATE_PATH, or inside the emulated debugfs when
 * WL_FAKE_DEBUGFS redirects it (host tests), so tests never share one.
 */
void wl_state_default_path(const struct wl_state *st,
			   char *buf, size_t len);

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
int wl_state_save(const struct wl_state *st, const char *path,
		  char *err, size_t elen);

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
 * debugfs root; a file that is a symbolic link, is not this user's (root's
 * when run as root), or that group or others can write, or in a directory
 * that is neither this user's nor root's, or that group or others can write
 * (unless sticky, as /tmp); a setting whose path is not the one wl_compare
 * saves for its kind and key (sched/features, wakelab/<tunable>,
 * sched/domains/cpuN/domainM/imbalance_pct, sched/llc_balancing/<file>
 * under the root; no "..") or whose value is not one that kind has.  All of
 * it is checked before anything is returned, so a refused file changes
 * nothing.  Return: 0, or -1 with a message in @err.
 */
int wl_state_load(struct wl_state *st, const char *path,
		  int *pid, char *err, size_t elen);

/*
 * Describe what a spec means for every touched setting, Peter's way:
 * "NO_WA_OLD WA_IDLE WA_WEIGHT" (features), "wakelab:old", ... .
 */
void wl_spec_describe(const struct wl_state *st,
		      const struct wl_spec *sp, char *buf,
		      size_t len);

#endif /* WL_COMPARE_SPEC_H */
