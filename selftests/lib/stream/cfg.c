// SPDX-License-Identifier: GPL-2.0
/*
 * The names and kinds of wl_stream's workloads, pin modes and offloads:
 * see wl/stream/cfg.h.
 */
#include "wl/stream/cfg.h"

const char * const wl_workload_names[WL_NR_WORKLOADS] = {
	"tcp_stream", "udp_stream", "sctp_stream", "sctp_stream_many", "tcp_rr",
	"tipc_stream", "tipc_rr",
};

const char * const wl_workload_upper[WL_NR_WORKLOADS] = {
	"TCP_STREAM", "UDP_STREAM", "SCTP_STREAM", "SCTP_STREAM_MANY", "TCP_RR",
	"TIPC_STREAM", "TIPC_RR",
};

const char * const wl_offload_names[WL_NR_OFFLOADS] = { "gro", "tso", "gso" };

const char * const wl_pin_names[WL_NR_PINS] = {
	"none", "same-cpu", "same-llc", "cross-llc",
};

bool wl_workload_rr(int workload)
{
	return workload == WL_TCP_RR || workload == WL_TIPC_RR;
}

bool wl_workload_tipc(int workload)
{
	return workload == WL_TIPC_STREAM || workload == WL_TIPC_RR;
}

bool wl_workload_sctp(int workload)
{
	return workload == WL_SCTP_STREAM || workload == WL_SCTP_STREAM_MANY;
}

bool wl_workload_reliable(int workload)
{
	return workload == WL_TCP_STREAM || workload == WL_TIPC_STREAM ||
	       wl_workload_sctp(workload);
}
