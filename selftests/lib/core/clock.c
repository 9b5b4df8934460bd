// SPDX-License-Identifier: GPL-2.0
/* The monotonic clock in seconds: see wl/core/clock.h. */
#include <time.h>

#include "wl/core/clock.h"

double wl_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}
