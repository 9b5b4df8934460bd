// SPDX-License-Identifier: GPL-2.0
/* wl_stream's run state: see wl/stream/run.h. */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

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

/* The controller's event word before wl_srun.sh exists (netperf engine). */
static uint32_t wl_events_local;

uint32_t *wl_stream_events(void)
{
	return wl_srun.sh ? &wl_srun.sh->events : &wl_events_local;
}

void wl_stream_wake_controller(void)
{
	uint32_t *ev = wl_stream_events();
	int saved = errno;

	__atomic_add_fetch(ev, 1, __ATOMIC_RELEASE);
	syscall(SYS_futex, ev, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
	errno = saved;
}
