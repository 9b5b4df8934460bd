/* SPDX-License-Identifier: GPL-2.0 */
/* Settings from the environment, and running a program for its output. */
#ifndef WL_CORE_PROC_H
#define WL_CORE_PROC_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * A positive decimal count from the environment variable @name, @def when
 * it is unset or empty; anything else ends the program with a message
 * (exit status 1, KSFT_FAIL: a mistyped setting must not run a different
 * test).
 */
unsigned long wl_env_count(const char *name, unsigned long def);

/* Whether process @pid is alive (not a zombie) and its comm is @comm. */
bool wl_proc_running(int pid, const char *comm);

/*
 * Run @file (found on PATH when it has no '/') with @argv, its stdout and
 * stderr into @out (at most @len - 1 bytes, NUL-terminated); killed after
 * @timeout_s seconds when that is > 0.  The exit status, or -1 when it
 * could not run or was killed.  wl_capture_with() with only @timeout_s.
 */
int wl_capture(const char *file, char *const argv[], char *out, size_t len,
	       double timeout_s);

/**
 * struct wl_capture_opts - how wl_capture_with() runs a program, and what
 *			    came of it
 * @timeout_s:	end it after this many seconds when > 0
 * @stop:	when not NULL, end it as soon as *@stop is non-zero
 * @grace_ms:	how it is ended: 0, SIGKILL to it; else SIGTERM to it and
 *		its process group, SIGKILL to both after @grace_ms ms
 * @own_group:	it runs in a process group of its own (so no signal to the
 *		caller's group reaches it), dies with the caller
 *		(PR_SET_PDEATHSIG) and has SIGPIPE at its default
 * @stdout_only: its stderr stays the caller's (else it goes into @out too)
 * @until_exit:	read until it has exited, rather than until end of file:
 *		what is left in the pipe then is taken without waiting, so
 *		that a stray grandchild still holding the pipe open cannot
 *		stall the caller
 * @prog:	when not NULL, a failed exec says "@prog: exec FILE: why\n"
 *		on the child's stderr; else "exec FILE: why"
 * @ran:	out: it was started (else errno: pipe2() or fork() failed)
 * @fork_errno:	out: fork()'s errno when that failed, else 0
 * @status:	out: its wait status (0 when it could not be waited for)
 * @timed_out:	out: ended for @timeout_s
 * @got:	out: bytes read into the output
 */
struct wl_capture_opts {
	double			timeout_s;
	volatile sig_atomic_t	*stop;
	int			grace_ms;
	bool			own_group;
	bool			stdout_only;
	bool			until_exit;
	const char		*prog;
	bool			ran;
	int			fork_errno;
	int			status;
	bool			timed_out;
	size_t			got;
};

/*
 * wl_capture() as @co says: @file with @argv, its output into @out (at
 * most @len - 1 bytes, NUL-terminated), ended on @co's timeout or stop.
 * The exit status, or -1 when it could not run or be waited for, was
 * ended or died of a signal; the details in @co.
 */
int wl_capture_with(const char *file, char *const argv[], char *out,
		    size_t len, struct wl_capture_opts *co);

#endif /* WL_CORE_PROC_H */
