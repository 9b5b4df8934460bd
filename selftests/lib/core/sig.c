// SPDX-License-Identifier: GPL-2.0
/* The signals that stop wl_stream and wl_compare: see wl/core/sig.h. */
#include <signal.h>
#include <string.h>

#include "wl/core/sig.h"

void wl_stop_signals(void (*handler)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}
