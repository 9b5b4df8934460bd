/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Policy specs for wl_compare, their syntax: parse a spec ("WA_OLD,NO_WA_IDLE",
 * "wakelab:old", "wakelab.tunable=3", "imbalance_pct.MC=130",
 * "NO_SCHED_CACHE", "sched_cache.aggr_tolerance=0",
 * "param.wakelab_planted.burn_loops=100000", "pin=same-cpu",
 * "name=label", "default") into its items, nothing read or written.  The
 * settings a spec changes are wl/compare/settings.h's, the state file that
 * keeps their originals wl/compare/state.h's.
 */
#ifndef WL_COMPARE_SPEC_H
#define WL_COMPARE_SPEC_H

#include <stddef.h>

#define WL_SPEC_MAX_ITEMS	24
#define WL_SPEC_TEXT		256
#define WL_SPEC_LABEL		24
#define WL_SPEC_KEY		64
#define WL_SPEC_VAL		128
#define WL_IMB_MIN		100
#define WL_IMB_MAX		1000
/* Cache-aware scheduling's switch and tunables (CONFIG_SCHED_CACHE). */
#define WL_LLC_BALANCING	"sched/llc_balancing"
#define WL_SCHED_CACHE_PREFIX	"sched_cache."
/* A loaded module's parameter: param.MODULE.NAME=VALUE. */
#define WL_PARAM_PREFIX		"param."
/* What a parameter's value may hold (no space, comma or quote). */
#define WL_PARAM_CHARS		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.:+-"

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
 * @WL_IT_PARAM:	a loaded module's parameter, in
 *			/sys/module/MODULE/parameters/NAME (key =
 *			"MODULE.NAME", value = its text)
 * @WL_IT_ARG:		extra wl_stream argument (changes nothing in the
 *			kernel)
 */
enum wl_item_kind {
	WL_IT_FEATURE,
	WL_IT_POLICY,
	WL_IT_TUNABLE,
	WL_IT_IMBALANCE,
	WL_IT_SCHED_CACHE,
	WL_IT_PARAM,
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

#endif /* WL_COMPARE_SPEC_H */
