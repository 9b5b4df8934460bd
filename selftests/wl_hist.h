/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Latency histogram for tcp_rr: log-linear buckets (exact below 32 ns, then
 * 32 buckets per power of two, so a reported percentile is within about 3%
 * of the true value) with plain integer arithmetic, and percentiles from the
 * merged buckets.  One histogram per client, in shared memory, written only
 * by its client and read by the controller after the run.
 */
#ifndef WL_HIST_H
#define WL_HIST_H

#include <stdint.h>
#include <string.h>

#define WS_HIST_SUB_BITS	5
#define WS_HIST_SUB		(1U << WS_HIST_SUB_BITS)
#define WS_HIST_MAX_MSB		40	/* 2^41 ns is about 36 minutes. */
#define WS_HIST_BUCKETS		((WS_HIST_MAX_MSB - WS_HIST_SUB_BITS + 2) * \
				 WS_HIST_SUB)

/**
 * struct ws_hist - latency histogram in nanoseconds
 * @count:	samples
 * @bucket:	samples per bucket
 */
struct ws_hist {
	uint64_t count;
	uint64_t bucket[WS_HIST_BUCKETS];
};

static inline unsigned int ws_hist_index(uint64_t ns)
{
	unsigned int msb, shift, idx;

	if (ns < WS_HIST_SUB)
		return ns;
	msb = 63 - __builtin_clzll(ns);
	shift = msb - WS_HIST_SUB_BITS;
	idx = (shift + 1) * WS_HIST_SUB +
	      (unsigned int)((ns >> shift) - WS_HIST_SUB);
	return idx < WS_HIST_BUCKETS ? idx : WS_HIST_BUCKETS - 1;
}

/* Lowest value of bucket @idx, and its width in *width. */
static inline uint64_t ws_hist_low(unsigned int idx, uint64_t *width)
{
	unsigned int shift;

	if (idx < WS_HIST_SUB) {
		*width = 1;
		return idx;
	}
	shift = idx / WS_HIST_SUB - 1;
	*width = 1ULL << shift;
	return (uint64_t)(idx % WS_HIST_SUB + WS_HIST_SUB) << shift;
}

static inline void ws_hist_add(struct ws_hist *h, uint64_t ns)
{
	h->bucket[ws_hist_index(ns)]++;
	h->count++;
}

static inline void ws_hist_merge(struct ws_hist *dst, const struct ws_hist *src)
{
	unsigned int i;

	for (i = 0; i < WS_HIST_BUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
	dst->count += src->count;
}

/*
 * The @pct percentile (0 < pct <= 100) in ns: the middle of the bucket
 * holding the sample of rank ceil(pct * count / 100); 0 when empty.
 */
static inline uint64_t ws_hist_pct(const struct ws_hist *h, unsigned int pct)
{
	uint64_t rank, seen = 0, low, width;
	unsigned int i;

	if (!h->count)
		return 0;
	rank = (h->count * pct + 99) / 100;
	if (!rank)
		rank = 1;
	for (i = 0; i < WS_HIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= rank)
			break;
	}
	if (i == WS_HIST_BUCKETS)
		i--;
	low = ws_hist_low(i, &width);
	return low + width / 2;
}

#endif /* WL_HIST_H */
