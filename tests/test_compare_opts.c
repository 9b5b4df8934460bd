// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of wl_compare's command line
 * (selftests/lib/compare/opts.c): the defaults, a few valid combinations
 * (every option at once, --merge with --describe, --restore), --help,
 * and bad input, each returned with its message and the usage where
 * wl_compare prints it, never an exit; the plan of a parsed run.  TAP via
 * kselftest.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest.h"
#include "wl/compare/opts.h"
#include "wl/compare/settings.h"
#include "wl/compare/state.h"

static struct wl_cmp_opts o;
static struct wl_run run;
static struct wl_state st;
/* What the last parse said on stderr and stdout. */
static char err[8192], out[8192];

static void slurp(FILE *f, char *buf, size_t len)
{
	size_t n;

	rewind(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
}

/* Parse a NULL-terminated command line (after "wl_compare"). */
static int parse(const char *arg, ...)
{
	char *argv[64] = { "wl_compare" };
	FILE *ef = tmpfile(), *of = tmpfile();
	int argc = 1, ret, e, s;
	const char *a;
	va_list ap;

	va_start(ap, arg);
	for (a = arg; a && argc < 63; a = va_arg(ap, const char *))
		argv[argc++] = (char *)a;
	va_end(ap);
	argv[argc] = NULL;
	memset(&run, 0, sizeof(run));
	fflush(stdout);
	fflush(stderr);
	e = dup(STDERR_FILENO);
	s = dup(STDOUT_FILENO);
	dup2(fileno(ef), STDERR_FILENO);
	dup2(fileno(of), STDOUT_FILENO);
	ret = wl_cmp_parse_args(argc, argv, &o, &run, &st);
	fflush(stdout);
	fflush(stderr);
	dup2(e, STDERR_FILENO);
	dup2(s, STDOUT_FILENO);
	close(e);
	close(s);
	slurp(ef, err, sizeof(err));
	slurp(of, out, sizeof(out));
	return ret;
}

/* Bad input: -1, @msg on stderr, with the usage after it when @usage. */
static void bad(int ret, const char *what, const char *msg, int usage)
{
	int ok = ret == -1 && strstr(err, msg) &&
		 !!strstr(err, "usage: wl_compare") == usage && !out[0];

	if (!ok)
		ksft_print_msg("%s: returned %d, stderr '%.200s'\n", what,
			       ret, err);
	ksft_test_result(ok, "bad input: %s\n", what);
}

int main(void)
{
	int ret;

	ksft_print_header();
	ksft_set_plan(22);
	unsetenv("WL_FAKE_DEBUGFS");
	wl_state_init(&st);

	ret = parse("default", NULL);
	ksft_test_result(!ret && !err[0] && o.format == 't' &&
			 o.timeout == 3 * WL_DEFAULT_DURATION + 120 &&
			 !strcmp(o.state_path, WL_STATE_PATH) &&
			 strstr(o.runner, "wl_stream") && !o.out &&
			 !o.check && !o.quiet && !o.restore && !o.merge &&
			 !o.nextra && !strcmp(run.workload, "tcp_stream") &&
			 !strcmp(run.order, "shuffle") &&
			 run.rounds == WL_DEFAULT_TRIALS &&
			 run.duration == WL_DEFAULT_DURATION &&
			 run.alpha == WL_DEFAULT_ALPHA &&
			 run.max_exact == WL_DEFAULT_MAX_EXACT &&
			 run.nrand == WL_DEFAULT_PERMS && run.npol == 1 &&
			 !strcmp(run.spec[0].label, "default") &&
			 run.ncell >= 1 && !strcmp(run.cell[0].inst, "1"),
			 "defaults\n");

	ret = parse("-w", "udp_stream", "-n", "1,2", "-m", "1k,2k", "-r", "3",
		    "-l", "2", "-o", "rotate", "-s", "0x10", "-a", "0.01",
		    "-P", "500", "-E", "50", "-b", "-O", "dir", "-R", "/x",
		    "-t", "9", "-q", "-c", "--state", "/tmp/s", "default",
		    "name=b,NO_WA_IDLE", "--", "--pin", "same-cpu", "-T",
		    NULL);
	ksft_test_result(!ret && !err[0] && o.format == 'b' &&
			 !strcmp(o.out, "dir") && !strcmp(o.runner, "/x") &&
			 o.timeout == 9 && o.quiet && o.check &&
			 !strcmp(o.state_path, "/tmp/s") && o.nextra == 3 &&
			 !strcmp(run.extra, "--pin same-cpu -T") &&
			 !strcmp(run.workload, "udp_stream") &&
			 !strcmp(run.order, "rotate") && run.seed == 16 &&
			 run.rounds == 3 && run.duration == 2 &&
			 run.alpha == 0.01 && run.nrand == 500 &&
			 run.max_exact == 50 && run.npol == 2 &&
			 !strcmp(run.spec[1].label, "b") && run.ncell == 4 &&
			 !strcmp(run.cell[3].size, "2k") &&
			 run.cell[3].instances == 2,
			 "every option, two specs, wl_stream options\n");

	ret = parse("-j", "-l", "5", "name=x", "default", NULL);
	ksft_test_result(!ret && o.format == 'j' && o.timeout == 135,
			 "-j; the trial timeout follows -l\n");

	ret = parse("--merge", "--describe", "A=stock", "-s", "7", "A=f1",
		    "B=f2", "A=f3", NULL);
	ksft_test_result(!ret && o.merge && o.nargs == 3 &&
			 !strcmp(o.args[2], "A=f3") && o.ndesc == 1 &&
			 !strcmp(o.desc[0], "A=stock") && run.seed == 7 &&
			 !run.npol && !run.ncell,
			 "--merge with --describe\n");

	ret = parse("--restore", "--state", "/tmp/s", NULL);
	ksft_test_result(!ret && o.restore && !run.npol &&
			 !strcmp(o.state_path, "/tmp/s"), "--restore\n");

	ret = parse("--help", "default", NULL);
	ksft_test_result(ret == 1 && !err[0] &&
			 !strncmp(out, "usage: wl_compare", 17),
			 "--help: 1, the usage on stdout\n");

	ret = parse("-r", "2", "-n", "1", "-o", "rotate", "name=a", "default",
		    NULL);
	wl_cmp_plan(&run);
	ksft_test_result(!ret && run.ntrial == 4 &&
			 run.trial[0].policy == 0 && run.trial[1].policy == 1 &&
			 run.trial[2].policy == 1 && run.trial[3].policy == 0 &&
			 run.trial[3].round == 2 && run.trial[3].seq == 4 &&
			 run.trial[3].exit_code == -2,
			 "the plan of a rotated run\n");

	bad(parse("--bogus", "default", NULL), "unknown option",
	    "unrecognized option", 1);
	bad(parse(NULL), "no SPEC", "wl_compare: no policy SPEC given\n", 1);
	bad(parse("-r", "0", "default", NULL), "-r 0",
	    "wl_compare: bad trial count '0' (1..64)\n", 1);
	bad(parse("-l", "x", "default", NULL), "-l x",
	    "wl_compare: bad duration 'x' (0.1..86400)\n", 1);
	bad(parse("-w", "nope", "default", NULL), "-w nope",
	    "wl_compare: unknown workload 'nope'\n", 1);
	bad(parse("-s", "zz", "default", NULL), "-s zz",
	    "wl_compare: bad seed 'zz'\n", 1);
	bad(parse("-n", "1,0", "default", NULL), "-n 1,0",
	    "wl_compare: bad instance count '0' (N, cpus, cpus/K, K*cpus, P%)\n",
	    1);
	bad(parse("-m", "1k,0", "default", NULL), "-m 1k,0",
	    "wl_compare: bad message size '0'\n", 1);
	bad(parse("NO_WA_NOPE,,=x", NULL), "a spec that does not parse",
	    "wl_compare: spec 'NO_WA_NOPE,,=x': ", 0);
	bad(parse("default", "default", NULL), "two policies with one label",
	    "wl_compare: two policies labelled 'default'", 1);
	bad(parse("--describe", "A=x", "default", NULL),
	    "--describe without --merge",
	    "wl_compare: --describe is for --merge\n", 1);
	bad(parse("--merge", "A=f1", NULL), "--merge with one boot",
	    "wl_compare: --merge needs a KERNEL=FILE per boot, at least two\n",
	    1);
	bad(parse("--merge", "A=f1", "B=f2", "--", "-T", NULL),
	    "--merge with wl_stream options",
	    "wl_compare: --merge takes no --restore, --check or wl_stream options\n",
	    1);
	bad(parse("--restore", "default", NULL), "--restore with a SPEC",
	    "wl_compare: --restore takes no SPEC and no wl_stream options\n",
	    1);
	bad(parse("-r", "64", "-n",
		  "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20",
		  "name=a", "name=b", "name=c", "default", NULL),
	    "too many trials", "wl_compare: too many trials (max 4096)\n", 1);
	ksft_finished();
}
