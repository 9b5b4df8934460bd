/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wl_compare's command line (lib/compare/opts.c): the options, the specs
 * and cells of the run they ask for, and the plan of its trials.  Nothing
 * here exits: bad input is said on stderr and returned, so the host unit
 * tests can drive the parser (tests/test_compare_opts.c).
 */
#ifndef WL_COMPARE_OPTS_H
#define WL_COMPARE_OPTS_H

#include <limits.h>

#include "wl/compare/model.h"
#include "wl/compare/settings.h"

#define WL_DEFAULT_INSTANCES	"1,cpus/4,cpus/2,cpus,2*cpus"
#define WL_DEFAULT_TRIALS	8
#define WL_DEFAULT_DURATION	10.0
#define WL_DEFAULT_ALPHA	0.05
#define WL_DEFAULT_MAX_EXACT	100000
#define WL_DEFAULT_PERMS	20000
#define WL_OPT_STATE		256
#define WL_OPT_RESTORE		257
#define WL_OPT_MERGE		258
#define WL_OPT_DESCRIBE		259
#define WL_OPT_CMP_PROFILE	260
/* wl_compare's exit status on bad usage. */
#define WL_EXIT_USAGE		2

/**
 * struct wl_cmp_opts - command line
 * @runner:	wl_stream path
 * @out:	--out directory or NULL
 * @format:	't' table, 'b' brief, 'j' json
 * @check:	only check specs
 * @quiet:	no progress
 * @restore:	--restore: put back what a killed run saved
 * @timeout:	per-trial timeout in seconds
 * @nextra:	wl_stream options after "--"
 * @extra:	them
 * @state_path:	the state file
 * @merge:	--merge: operands are KERNEL=FILE, one per boot
 * @nargs:	number of operands (--merge)
 * @args:	them
 * @ndesc:	--describe KERNEL=TEXT options
 * @desc:	them
 * @profile:	--profile: where each trial's profile goes ("": none)
 */
struct wl_cmp_opts {
	char	runner[PATH_MAX];
	char	*out;
	int	format;
	int	check;
	int	quiet;
	int	restore;
	double	timeout;
	int	nextra;
	char	**extra;
	char	state_path[PATH_MAX];
	int	merge;
	int	nargs;
	char	**args;
	int	ndesc;
	char	*desc[WL_CMP_MAX_SPECS];
	char	profile[PATH_MAX - 32];
};

/**
 * wl_cmp_parse_args() - parse wl_compare's command line
 * @argc:	argument count of the command line
 * @argv:	the command line
 * @o:		filled in with the defaults, then the options
 * @r:		a zeroed run: gets the run's settings, and its specs and
 *		cells (none with --merge or --restore)
 * @st:		wl_state_init()ed settings, for the default state file
 *
 * Each call is a fresh getopt_long() scan.  Bad usage, and a SPEC that
 * does not parse, are said on stderr (with the usage after a bad option),
 * --help prints the usage on stdout.
 *
 * Return: 0 to run, 1 after --help (exit 0), -1 on bad usage (exit
 * WL_EXIT_USAGE).
 */
int wl_cmp_parse_args(int argc, char **argv, struct wl_cmp_opts *o,
		      struct wl_run *r, const struct wl_state *st);

/* The trials of every round of @r, in the order they run. */
void wl_cmp_plan(struct wl_run *r);

#endif /* WL_COMPARE_OPTS_H */
