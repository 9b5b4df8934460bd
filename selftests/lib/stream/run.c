// SPDX-License-Identifier: GPL-2.0
/* wl_stream's run state: see wl/stream/run.h. */
#include "wl/stream/run.h"

const char * const wl_sctp_mib[WL_SCTP_MIB_NR] = {
	"SctpT1InitExpireds", "SctpT3RtxExpireds", "SctpT3Retransmits",
	"SctpFastRetransmits", "SctpDelaySackExpireds", "SctpInPktDiscards",
	"SctpInDataChunkDiscards",
};

struct wl_stream_run wl_srun = {
	.engine = "wl_stream",
	.schedstats = -1,
};
