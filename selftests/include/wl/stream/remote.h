/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wl_stream on two hosts, in the manner of netperf and netserver: one
 * host serves (--serve), the other runs the session (--remote ADDR).  A
 * TCP control connection, one line per message, carries the client's
 * session settings, the receivers' ports, the common start and, while the
 * run lasts, each side's counters, so that both ends hold every instance's
 * sender and receiver figures (the receiver's are the truth for UDP) and
 * the window is the client's.  Protocol: docs/wl_stream.md, "Two hosts".
 */
#ifndef WL_STREAM_REMOTE_H
#define WL_STREAM_REMOTE_H

#include <stddef.h>

/*
 * The control protocol's version, WL_REMOTE_PROTO, and the peer's address
 * (wl_srun.peer) are in the run state (wl/stream/run.h): the report names
 * them.
 */

/* Client: reach the server (retrying up to --connect-timeout); 0 or -1. */
int wl_remote_connect(char *why, size_t len);
/* Client: send the session, learn the server's ports; 0 or -1. */
int wl_remote_hello(char *why, size_t len);
/* Client: wait for the server's workers, release both sides; 0 or -1. */
int wl_remote_go(char *why, size_t len);
/* Client: the server's final counters after the run; 0 or -1. */
int wl_remote_final(char *why, size_t len);
/* Server: serve sessions (--serve); returns the exit status. */
int wl_remote_serve(void);

#endif /* WL_STREAM_REMOTE_H */
