/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel settings wl_compare's specs (wl/compare/spec.h) change: check
 * a spec against the running kernel before anything is touched, save the
 * original value of every setting any spec touches, apply one spec at a
 * time (every touched setting is set to the spec's value or back to its
 * original, then re-read and verified), and restore the originals exactly
 * (verified by re-reading).  The debugfs root can be redirected for host
 * tests, which may also ask for the kernel's token semantics of
 * sched/features and wakelab/policy to be emulated on plain files.
 */
#ifndef WL_COMPARE_SETTINGS_H
#define WL_COMPARE_SETTINGS_H

#include <stddef.h>

#include "wl/compare/spec.h"

#define WL_SPEC_MAX_SET		512
#define WL_SPEC_PATH		320
#define WL_SPEC_FILE		8192

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

/* @rel ("sched/features") under the debugfs root, into @buf. */
void wl_state_path(const struct wl_state *st, char *buf, size_t len,
		   const char *rel);
/*
 * @rel ("module/wakelab_planted") under sysfs into @buf: /sys for the
 * debugfs root /sys/kernel/debug, else (an emulation) ROOT/sys.
 */
void wl_sys_path(const char *root, char *buf, size_t len, const char *rel);

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

/* Put back the originals (wl_spec_apply() without a spec), once read. */
int wl_spec_restore(struct wl_state *st, char *err,
		    size_t elen);

/*
 * Describe what a spec means for every touched setting, Peter's way:
 * "NO_WA_OLD WA_IDLE WA_WEIGHT" (features), "wakelab:old", ... .
 */
void wl_spec_describe(const struct wl_state *st,
		      const struct wl_spec *sp, char *buf,
		      size_t len);

#endif /* WL_COMPARE_SETTINGS_H */
