// SPDX-License-Identifier: GPL-2.0
/*
 * Settings from the environment and a program's output; see
 * include/wl/core/proc.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "wl/core/clock.h"
#include "wl/core/file.h"
#include "wl/core/proc.h"

unsigned long wl_env_count(const char *name, unsigned long def)
{
	const char *s = getenv(name);
	unsigned long v;
	char *end;

	if (!s || !*s)
		return def;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || !v) {
		fprintf(stderr, "%s: '%s' is not a positive number\n", name, s);
		exit(1);	/* KSFT_FAIL */
	}
	return v;
}

bool wl_proc_running(int pid, const char *comm)
{
	char path[64], buf[512], *lp, *rp;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (pid <= 0 || wl_read_file(path, buf, sizeof(buf)) <= 0)
		return false;
	/* "pid (comm) S ...": comm may hold anything, so the last ')'. */
	lp = strchr(buf, '(');
	rp = strrchr(buf, ')');
	if (!lp || !rp || rp[1] != ' ' || !rp[2] || strchr("ZX", rp[2]))
		return false;
	*rp = '\0';
	return !strcmp(lp + 1, comm);
}


/* The child: its output into @fd, then @file. */
static void __attribute__((noreturn))
wl_capture_child(const char *file, char *const argv[], int fd, pid_t parent,
		 const struct wl_capture_opts *co)
{
	if (co->own_group) {
		setpgid(0, 0);
		/*
		 * In a process group of its own, no signal to the caller's
		 * group reaches it: it must not outlive the caller either.
		 */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(127);
		signal(SIGPIPE, SIG_DFL);
	}
	dup2(fd, STDOUT_FILENO);
	if (!co->stdout_only)
		dup2(fd, STDERR_FILENO);
	execvp(file, argv);
	if (co->prog)
		fprintf(stderr, "%s: exec %s: %s\n", co->prog, file,
			strerror(errno));
	else
		dprintf(STDERR_FILENO, "exec %s: %s", file, strerror(errno));
	_exit(127);
}

/* SIGTERM to @pid and its group, SIGKILL after @grace_ms; reaped. */
static void wl_capture_end(pid_t pid, int grace_ms, int *status)
{
	double end = wl_now() + grace_ms / 1000.0;

	kill(-pid, SIGTERM);
	kill(pid, SIGTERM);
	while (waitpid(pid, status, WNOHANG) == 0) {
		if (wl_now() > end) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			waitpid(pid, status, 0);
			return;
		}
		usleep(20000);
	}
}

int wl_capture_with(const char *file, char *const argv[], char *out,
		    size_t len, struct wl_capture_opts *co)
{
	double end = wl_now() + co->timeout_s, left;
	int p[2], st = 0, exited = 0, stopped, waited = 1;
	struct pollfd pf;
	pid_t pid, parent;
	ssize_t n;

	co->ran = false;
	co->fork_errno = 0;
	co->status = 0;
	co->timed_out = false;
	co->got = 0;
	if (len)
		out[0] = '\0';
	if (pipe2(p, O_CLOEXEC))
		return -1;
	parent = getpid();
	pid = fork();
	if (pid < 0) {
		co->fork_errno = errno;
		close(p[0]);
		close(p[1]);
		errno = co->fork_errno;
		return -1;
	}
	if (pid == 0)
		wl_capture_child(file, argv, p[1], parent, co);
	co->ran = true;
	if (co->own_group)
		setpgid(pid, pid);
	close(p[1]);
	pf.fd = p[0];
	pf.events = POLLIN;
	if (co->until_exit)
		fcntl(p[0], F_SETFL, O_NONBLOCK);
	while (len && co->got < len - 1) {
		if (co->stop && *co->stop)
			break;
		left = end - wl_now();
		if (co->timeout_s > 0 && left <= 0) {
			co->timed_out = true;
			if (!co->grace_ms)
				kill(pid, SIGKILL);
			break;
		}
		if (co->until_exit) {
			if (!exited && waitpid(pid, &st, WNOHANG) == pid)
				exited = 1;
			if (!exited)
				poll(&pf, 1, co->timeout_s <= 0 || left > 0.2 ?
					     200 : (int)(left * 1000) + 1);
		} else if (co->timeout_s > 0 && poll(&pf, 1, 100) <= 0) {
			continue;
		}
		n = read(p[0], out + co->got, len - 1 - co->got);
		if (n < 0 && (errno == EINTR || errno == EAGAIN)) {
			if (exited)
				break;
			continue;
		}
		if (n <= 0)
			break;
		co->got += n;
	}
	if (len)
		out[co->got] = '\0';
	close(p[0]);
	stopped = co->stop && *co->stop;
	if ((stopped || co->timed_out) && !exited && co->grace_ms) {
		wl_capture_end(pid, co->grace_ms, &st);
	} else if (!exited) {
		if (stopped && !co->timed_out)
			kill(pid, SIGKILL);
		while (waitpid(pid, &st, 0) < 0)
			if (errno != EINTR) {
				waited = 0;
				break;
			}
	}
	co->status = st;
	if (!waited || co->timed_out || stopped)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int wl_capture(const char *file, char *const argv[], char *out, size_t len,
	       double timeout_s)
{
	struct wl_capture_opts co = { .timeout_s = timeout_s };

	return wl_capture_with(file, argv, out, len, &co);
}
