/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wl_stream --netns: two network namespaces joined by a veth pair, made
 * and removed with iproute2's ip (as tools/testing/selftests/net does),
 * the senders in one, the receivers in the other, on addresses of the
 * benchmarking range (RFC 2544, 198.18.0.0/15) that exist only inside
 * them.  Offloads (GRO, TSO, GSO) of both ends are set and read with the
 * ethtool ioctl.
 */
#ifndef WL_STREAM_NETNS_H
#define WL_STREAM_NETNS_H

#include <stdbool.h>
#include <stddef.h>
#include <netinet/in.h>

enum wl_ns {
	WL_NS_HOME,	/* the namespace wl_stream started in */
	WL_NS_SND,
	WL_NS_RCV,
};

/* The receiving end's address, inside the receiver namespace. */
#define WL_NETNS_SND_ADDR	"198.18.0.1"
#define WL_NETNS_RCV_ADDR	"198.18.0.2"
#define WL_NETNS_PREFIX		30
#define WL_NETNS_SND_DEV	"wl-snd"
#define WL_NETNS_RCV_DEV	"wl-rcv"

/**
 * struct wl_netns_info - what a run used, for the report
 * @snd:	sender namespace name
 * @rcv:	receiver namespace name
 * @offload:	GRO (of the receiving end), TSO and GSO (of the sending end) as
 *		read back: 1 on, 0 off, -1 unknown (both ends are set alike)
 * @ip:		the ip command's version line
 */
struct wl_netns_info {
	char snd[48];
	char rcv[48];
	int offload[3];
	char ip[96];
};

extern struct wl_netns_info wl_netns;

/*
 * Remove the namespaces a killed run left (names of PIDs that are gone),
 * create this run's pair and link, apply @offload (enum wl_offload per
 * enum wl_offload_kind); 0, or -1 with @why (everything made is removed),
 * -2 when the ip in PATH is not iproute2's (a skip).
 */
int wl_netns_setup(const int *offload, char *why, size_t len);
/* Move the calling thread into @ns; 0 or -1 (errno). */
int wl_netns_enter(enum wl_ns ns);
/* Delete this run's namespaces (and so the veth pair); idempotent. */
void wl_netns_cleanup(void);

#endif /* WL_STREAM_NETNS_H */
