/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wl_compare's state file: while settings are changed
 * (wl/compare/settings.h), their originals are also kept in a file, so
 * that a run killed before it could restore them (SIGKILL, a crash) can be
 * undone by "wl_compare --restore".
 */
#ifndef WL_COMPARE_STATE_H
#define WL_COMPARE_STATE_H

#include <stddef.h>

#include "wl/compare/settings.h"

/* Where a run keeps the originals while it has changed settings. */
#define WL_STATE_PATH		"/run/wl_compare.state"
#define WL_STATE_NAME		"wl_compare.state"
#define WL_STATE_MAGIC		"wl_compare-state 1"

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

#endif /* WL_COMPARE_STATE_H */
