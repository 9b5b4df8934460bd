// SPDX-License-Identifier: GPL-2.0
/*
 * wl_topo [SYSFS_CPU_DIR]: print the last-level cache groups of the online
 * CPUs as one line, "N LLC groups: 0-1 2-3" (each group a CPU list, "0 LLC
 * groups:" when sysfs has no cache information).  The VM's /init prints it
 * at boot.  SYSFS_CPU_DIR defaults to /sys/devices/system/cpu.
 */
#include <stdio.h>

#include "wl/kernel/topo.h"

int main(int argc, char **argv)
{
	static struct wl_topo t;
	char list[4096];
	int g, n;

	if (argc > 2 || (argc == 2 && argv[1][0] == '-')) {
		fprintf(stderr, "usage: wl_topo [SYSFS_CPU_DIR]\n");
		return 2;
	}
	if (wl_topo_load(argc == 2 ? argv[1] : WL_CPU_SYSFS, 0, &t)) {
		fprintf(stderr, "wl_topo: no online CPUs\n");
		return 1;
	}
	n = t.from_sysfs ? t.nllc : 0;
	printf("%d LLC groups:", n);
	for (g = 0; g < n; g++) {
		wl_topo_llc_list(&t, g, list, sizeof(list));
		printf(" %s", list);
	}
	printf("\n");
	return 0;
}
