/* SPDX-License-Identifier: GPL-2.0 */
/* The monotonic clock in seconds, and sleeping. */
#ifndef WL_CORE_CLOCK_H
#define WL_CORE_CLOCK_H

#include <stdint.h>

/* CLOCK_MONOTONIC now, seconds. */
double wl_now(void);
/* CLOCK_MONOTONIC now, nanoseconds. */
uint64_t wl_now_ns(void);

/* Sleep @ms milliseconds. */
void wl_msleep(int ms);

#endif /* WL_CORE_CLOCK_H */
