/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wakelab: which LLC each CPU is in.
 */
#ifndef WAKELAB_LLC_H
#define WAKELAB_LLC_H

#include <linux/compiler.h>
#include <linux/types.h>
#include <asm/processor.h>

extern int *wl_llc_ids;

int wl_llc_init(void);
void wl_llc_exit(void);

/**
 * wl_cpu_llc_id() - the cacheinfo LLC id of @cpu
 * @cpu: a possible CPU
 *
 * x86 exports no LLC helper common to all kernels: cpu_llc_shared_mask()
 * reads the unexported cpu_llc_shared_map, cpus_share_cache() is not
 * exported.  The id is get_llc_id() (exported) until the x86 topology
 * rework, per_cpu_llc_id() (an inline reading the exported cpu_info)
 * after it; Kbuild finds which one the target's asm/processor.h has.
 *
 * Return: the id, BAD_APICID while unknown.
 */
static inline u32 wl_cpu_llc_id(int cpu)
{
#ifdef WAKELAB_HAVE_PER_CPU_LLC_ID
	return per_cpu_llc_id(cpu);
#else
	return get_llc_id(cpu);
#endif
}

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
