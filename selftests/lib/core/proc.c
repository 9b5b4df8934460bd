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


int wl_capture(const char *file, char *const argv[], char *out, size_t len,
	       double timeout_s)
{
	double end = wl_now() + timeout_s;
	int p[2], st, killed = 0;
	struct pollfd pf;
	size_t got = 0;
	ssize_t n;
	pid_t pid;

	if (len)
		out[0] = '\0';
	if (pipe2(p, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0) {
		dup2(p[1], STDOUT_FILENO);
		dup2(p[1], STDERR_FILENO);
		execvp(file, argv);
		dprintf(STDERR_FILENO, "exec %s: %s", file, strerror(errno));
		_exit(127);
	}
	close(p[1]);
	pf.fd = p[0];
	pf.events = POLLIN;
	while (len && got < len - 1) {
		if (timeout_s > 0) {
			if (wl_now() >= end) {
				kill(pid, SIGKILL);
				killed = 1;
				break;
			}
			if (poll(&pf, 1, 100) <= 0)
				continue;
		}
		n = read(p[0], out + got, len - 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += n;
	}
	if (len)
		out[got] = '\0';
	close(p[0]);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (killed)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}
