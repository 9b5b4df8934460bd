/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wakelab: which LLC each CPU is in.
 */
#ifndef WAKELAB_LLC_H
#define WAKELAB_LLC_H

#include <linux/compiler.h>

extern int *wl_llc_ids;

int wl_llc_init(void);
void wl_llc_exit(void);

/**
 * wl_llc_of() - the LLC of @cpu: its first online CPU
 * @cpu: a possible CPU
 *
 * An offline CPU is its own LLC.  Any context; during a hotplug operation
 * the answer may be the old or the new one.
 */
static inline int wl_llc_of(int cpu)
{
	return READ_ONCE(wl_llc_ids[cpu]);
}

#endif /* WAKELAB_LLC_H */
