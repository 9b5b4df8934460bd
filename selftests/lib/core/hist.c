// SPDX-License-Identifier: GPL-2.0
/* Latency histogram: see wl/core/hist.h. */
#include <stdint.h>
#include <string.h>

#include "wl/core/hist.h"

unsigned int wl_hist_index(uint64_t ns)
{
	unsigned int msb, shift, idx;

	if (ns < WL_HIST_SUB)
		return ns;
	msb = 63 - __builtin_clzll(ns);
	shift = msb - WL_HIST_SUB_BITS;
	idx = (shift + 1) * WL_HIST_SUB +
	      (unsigned int)((ns >> shift) - WL_HIST_SUB);
	return idx < WL_HIST_BUCKETS ? idx : WL_HIST_BUCKETS - 1;
}

uint64_t wl_hist_low(unsigned int idx, uint64_t *width)
{
	unsigned int shift;

	if (idx < WL_HIST_SUB) {
		*width = 1;
		return idx;
	}
	shift = idx / WL_HIST_SUB - 1;
	*width = 1ULL << shift;
	return (uint64_t)(idx % WL_HIST_SUB + WL_HIST_SUB) << shift;
}

void wl_hist_add(struct wl_hist *h, uint64_t ns)
{
	h->bucket[wl_hist_index(ns)]++;
	h->count++;
}

void wl_hist_merge(struct wl_hist *dst, const struct wl_hist *src)
{
	unsigned int i;

	for (i = 0; i < WL_HIST_BUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
	dst->count += src->count;
}

uint64_t wl_hist_pct(const struct wl_hist *h, unsigned int pct)
{
	uint64_t rank, seen = 0, low, width;
	unsigned int i;

	if (!h->count)
		return 0;
	rank = (h->count * pct + 99) / 100;
	if (!rank)
		rank = 1;
	for (i = 0; i < WL_HIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= rank)
			break;
	}
	if (i == WL_HIST_BUCKETS)
		i--;
	low = wl_hist_low(i, &width);
	return low + width / 2;
}
