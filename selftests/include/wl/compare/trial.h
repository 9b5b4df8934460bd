/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wl_compare's trial runner (lib/compare/trial.c): the spec checks before
 * the run, every planned trial (its spec applied live, wl_stream run as a
 * child and its JSON read back), and the restore of the original settings
 * after it, with the state file that keeps them meanwhile.  It works on
 * the process's run state (wl/compare/run.h).
 */
#ifndef WL_COMPARE_TRIAL_H
#define WL_COMPARE_TRIAL_H

#include "wl/compare/opts.h"

#define WL_MAX_OUTPUT		(1 << 20)
#define WL_MAX_ARGS		128
#define WL_KILL_GRACE_MS	10000

/*
 * Check the specs against the running kernel, save the originals, apply
 * and restore each once: 0, or the exit status.
 */
int wl_cmp_check_specs(const struct wl_cmp_opts *o);
/*
 * --profile: make its directory (and the missing ones above it) before
 * anything changes; 0, or WL_EXIT_USAGE with the reason on stderr.
 */
int wl_cmp_profile_dir(const struct wl_cmp_opts *o);
/* Run every planned trial, applying each spec before its trials. */
void wl_cmp_run_all(const struct wl_cmp_opts *o);
/* Restore and verify the original settings; 0 when restored. */
int wl_cmp_restore(void);
/* Remove the state file once restored (else say so); returns @ret. */
int wl_cmp_finish(int ret);
/* --restore: put back what a killed run saved; the exit status. */
int wl_cmp_restore_saved(const struct wl_cmp_opts *o);

#endif /* WL_COMPARE_TRIAL_H */
