// SPDX-License-Identifier: GPL-2.0
/* CPUs of wl_stream's senders and receivers: see wl/stream/pin.h. */
#include <stddef.h>

#include "wl/stream/pin.h"

const char *wl_pin_unsupported(const struct wl_topo *t, enum wl_pin mode)
{
	if (mode == WL_PIN_SAME_LLC && wl_topo_max_llc(t) < 2)
		return "same-llc needs an LLC shared by at least 2 online CPUs";
	if (mode == WL_PIN_CROSS_LLC && t->nllc < 2)
		return t->from_sysfs ?
		       "cross-llc needs at least 2 LLCs (this system has 1)" :
		       "cross-llc needs at least 2 LLCs (sysfs has no cache information)";
	return NULL;
}

void wl_pin_cpus(const struct wl_topo *t, enum wl_pin mode, int i, int *snd,
		 int *rcv)
{
	int g, r, sz, ng, k, gi;

	*snd = -1;
	*rcv = -1;
	switch (mode) {
	case WL_PIN_SAME_CPU:
		*snd = t->cpu[i % t->ncpus];
		*rcv = *snd;
		break;
	case WL_PIN_SAME_LLC:
		/* Only groups with 2+ CPUs. */
		for (g = 0, ng = 0; g < t->nllc; g++)
			ng += t->llc_size[g] >= 2;
		k = i % ng;
		r = i / ng;
		for (g = 0, gi = 0; g < t->nllc; g++) {
			if (t->llc_size[g] < 2)
				continue;
			if (gi++ != k)
				continue;
			sz = t->llc_size[g];
			*snd = t->cpu[t->llc_start[g] + (2 * r) % sz];
			*rcv = t->cpu[t->llc_start[g] + (2 * r + 1) % sz];
			if (*rcv == *snd)	/* Odd size wrapped. */
				*rcv = t->cpu[t->llc_start[g] +
					      (2 * r + 2) % sz];
			break;
		}
		break;
	case WL_PIN_CROSS_LLC:
		g = i % t->nllc;
		r = i / t->nllc;
		*snd = t->cpu[t->llc_start[g] + r % t->llc_size[g]];
		g = (g + 1) % t->nllc;
		*rcv = t->cpu[t->llc_start[g] + r % t->llc_size[g]];
		break;
	default:
		break;
	}
}
