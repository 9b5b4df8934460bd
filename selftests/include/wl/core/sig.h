/* SPDX-License-Identifier: GPL-2.0 */
/* The signals that stop wl_stream and wl_compare. */
#ifndef WL_CORE_SIG_H
#define WL_CORE_SIG_H

/*
 * Send SIGINT, SIGTERM and SIGHUP to @handler, without SA_RESTART (so a
 * blocked poll() or wait returns), and ignore SIGPIPE.
 */
void wl_stop_signals(void (*handler)(int));

#endif /* WL_CORE_SIG_H */
