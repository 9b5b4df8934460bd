// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit test of the report's mode line (selftests/lib/compare/env.c) on the
 * machine the test runs on: without wakelab.accel= on the kernel command
 * line, a machine whose /proc/cpuinfo has no hypervisor flag is "bare
 * metal"; one with the flag is never "bare metal", and a guest named by
 * its CPUID signature ("KVM guest", ...) says so in mode_how.  With
 * wakelab.accel= (scripts/vm's guests) the mode is TCG or KVM.
 */
#include <stdio.h>
#include <string.h>

#include "kselftest.h"
#include "wl/compare/env.h"
#include "wl/core/file.h"

static char text[65536];

int main(void)
{
	static struct wl_env e;
	int hv = 0, accel = 0;

	ksft_print_header();
	ksft_set_plan(2);
	if (wl_read_file("/proc/cpuinfo", text, sizeof(text)) > 0)
		hv = strstr(text, " hypervisor") != NULL;
	if (wl_read_file("/proc/cmdline", text, sizeof(text)) > 0)
		accel = strstr(text, "wakelab.accel=") != NULL;
	wl_env_collect(&e, "/nonexistent");
	ksft_print_msg("mode: %s (%s); hypervisor flag %d, wakelab.accel= %d\n",
		       e.mode, e.mode_how, hv, accel);

	if (accel)
		ksft_test_result(!strcmp(e.mode, "TCG") || !strcmp(e.mode, "KVM"),
				 "scripts/vm's guest: TCG or KVM\n");
	else if (hv)
		ksft_test_result(strcmp(e.mode, "bare metal") != 0,
				 "hypervisor flag: not bare metal\n");
	else
		ksft_test_result(!strcmp(e.mode, "bare metal"),
				 "no hypervisor flag: bare metal\n");

	if (!strstr(e.mode, " guest"))
		ksft_test_result(!strcmp(e.mode, "TCG") || !strcmp(e.mode, "KVM") ||
				 !strcmp(e.mode, "VM") || !strcmp(e.mode, "bare metal"),
				 "mode is one of TCG, KVM, VM, bare metal, <hypervisor> guest\n");
	else
		ksft_test_result(strstr(e.mode_how, "CPUID hypervisor signature") != NULL,
				 "a named guest says its CPUID signature\n");
	ksft_finished();
}
