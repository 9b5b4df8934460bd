/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Latency histogram for tcp_rr: log-linear buckets (exact below 32 ns, then
 * 32 buckets per power of two, so a reported percentile is within about 3%
 * of the true value) with plain integer arithmetic, and percentiles from the
 * merged buckets.  One histogram per client, in shared memory, written only
 * by its client and read by the controller after the run.
 */
#ifndef WL_CORE_HIST_H
#define WL_CORE_HIST_H

#include <stdint.h>

#define WL_HIST_SUB_BITS	5
#define WL_HIST_SUB		(1U << WL_HIST_SUB_BITS)
#define WL_HIST_MAX_MSB		40	/* 2^41 ns is about 36 minutes. */
#define WL_HIST_BUCKETS		((WL_HIST_MAX_MSB - WL_HIST_SUB_BITS + 2) * \
				 WL_HIST_SUB)

/**
 * struct wl_hist - latency histogram in nanoseconds
 * @count:	samples
 * @bucket:	samples per bucket
 */
struct wl_hist {
	uint64_t count;
	uint64_t bucket[WL_HIST_BUCKETS];
};

unsigned int wl_hist_index(uint64_t ns);

/* Lowest value of bucket @idx, and its width in *width. */
uint64_t wl_hist_low(unsigned int idx, uint64_t *width);

void wl_hist_add(struct wl_hist *h, uint64_t ns);

void wl_hist_merge(struct wl_hist *dst, const struct wl_hist *src);

/*
 * The @pct percentile (0 < pct <= 100) in ns: the middle of the bucket
 * holding the sample of rank ceil(pct * count / 100); 0 when empty.
 */
uint64_t wl_hist_pct(const struct wl_hist *h, unsigned int pct);

#endif /* WL_CORE_HIST_H */
