/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wl_stream's workers (lib/stream/workload.c): one sender and one receiver
 * per instance, each pinned as the run asks, setting up its socket, waiting
 * at the barrier (struct wl_shared's phase) and then running its
 * workload's loop until the stop -- TCP, SCTP and TIPC streams, SCTP
 * one-to-many, UDP, and the request/response exchange of tcp_rr and
 * tipc_rr -- counting into its slot (struct wl_slot, wl/stream/run.h).
 * The engine (wl/stream/engine.h) makes the receivers' sockets, starts the
 * workers and watches the slots.
 */
#ifndef WL_STREAM_WORKLOAD_H
#define WL_STREAM_WORKLOAD_H

#include <stdbool.h>

/**
 * struct wl_worker_arg - what a worker thread (--threads) is started with
 * @inst:	its instance
 * @sender:	the sender (client), else the receiver (server)
 */
struct wl_worker_arg {
	int inst;
	bool sender;
};

/*
 * The payload pattern every sender sends and --verify checks, long enough
 * for the run's send and receive sizes; 0, or -1 (out of memory).
 */
int wl_stream_setup_pattern(void);

/* The workload's socket(): address family, type and protocol. */
void wl_socket_type(int *family, int *type, int *proto);

/* SO_SNDBUF and SO_RCVBUF of @fd to @bytes (0: leave them); 0 or -1. */
int wl_set_bufs(int fd, long bytes);

/*
 * Instance @i's sender (@sender) or receiver, from its pinning to the end
 * of its loop; its exit status (a failure is also in its slot).
 */
int wl_worker(int i, bool sender);

/* wl_worker() as a thread: @arg is a struct wl_worker_arg. */
void *wl_worker_thread(void *arg);

#endif /* WL_STREAM_WORKLOAD_H */
