// SPDX-License-Identifier: GPL-2.0
/*
 * wakelab: which LLC each CPU is in.
 *
 * CPUs are grouped by wl_cpu_llc_id() (llc.h), the cacheinfo-derived id
 * the x86 topology code also uses to build the scheduler's LLC domain
 * (cpu_llc_shared_map); an LLC is
 * named by its first online CPU, like the scheduler's sd_llc_id.  The map
 * from CPU to LLC (read by the placement probes and the llc table) is
 * computed at load and again by a CPU hotplug callback whenever a CPU
 * comes or goes; nothing else writes it.
 */
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/slab.h>
#include <linux/topology.h>

#include "llc.h"

/* LLC of each CPU, read through wl_llc_of(). */
int *wl_llc_ids;
static int wl_llc_hp_state;

/*
 * Recompute each CPU's LLC, @gone counted as offline (-1 for none).
 * Context: hotplug lock held (read or write).  Readers on the wakeup path
 * may see a mix of old and new values while it runs.
 */
static void wl_llc_map(int gone)
{
	int cpu, first, other;

	for_each_possible_cpu(cpu) {
		first = cpu;
		if (cpu_online(cpu) && cpu != gone &&
		    wl_cpu_llc_id(cpu) != BAD_APICID) {
			for_each_online_cpu(other) {
				if (other != gone &&
				    wl_cpu_llc_id(other) == wl_cpu_llc_id(cpu)) {
					first = other;
					break;
				}
			}
		}
		WRITE_ONCE(wl_llc_ids[cpu], first);
	}
}

/* CPUHP_AP_ONLINE_DYN: @cpu is online, or still online on the way down. */
static int wl_llc_cpu_online(unsigned int cpu)
{
	wl_llc_map(-1);
	return 0;
}

static int wl_llc_cpu_offline(unsigned int cpu)
{
	wl_llc_map(cpu);
	return 0;
}

/**
 * wl_llc_init() - map CPUs to LLCs, and keep the map across hotplug
 *
 * Return: 0, or -errno.
 */
int wl_llc_init(void)
{
	int ret;

	wl_llc_ids = kcalloc(nr_cpu_ids, sizeof(*wl_llc_ids), GFP_KERNEL);
	if (!wl_llc_ids)
		return -ENOMEM;
	cpus_read_lock();
	ret = cpuhp_setup_state_nocalls_cpuslocked(CPUHP_AP_ONLINE_DYN,
						   "sched/wakelab:online",
						   wl_llc_cpu_online,
						   wl_llc_cpu_offline);
	if (ret >= 0) {
		wl_llc_hp_state = ret;
		wl_llc_map(-1);
	}
	cpus_read_unlock();
	if (ret < 0) {
		kfree(wl_llc_ids);
		wl_llc_ids = NULL;
		return ret;
	}
	return 0;
}

/* Once no probe runs any more. */
void wl_llc_exit(void)
{
	cpuhp_remove_state_nocalls(wl_llc_hp_state);
	kfree(wl_llc_ids);
	wl_llc_ids = NULL;
}
