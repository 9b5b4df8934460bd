// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only module: a planted cause for profiles.  A kprobe on
 * __wake_up_sync_key() (a socket's wakeup of its readers, as
 * sock_def_readable() makes it) makes every such wakeup spin burn_loops
 * iterations in wakelab_planted_burn(), a function of its own, so that a
 * profile of a loopback load names it: wakelab_perf_test (perf in the
 * guest) looks for it.  The probe's function is entered with interrupts on:
 * a cpu-clock profile (no PMU, as under TCG) samples from a timer
 * interrupt, so time spun with interrupts off would be charged to the
 * place that turns them back on.  The spin counts iterations, not time
 * (no clock read to hold the samples).  burn_loops (module parameter,
 * writable in /sys/module/wakelab_planted/parameters/) 0 turns the burning
 * off; the kprobe stays.
 */
#include <linux/kprobes.h>
#include <linux/minmax.h>
#include <linux/module.h>

#define PLANTED_MAX_LOOPS	10000000U

static unsigned int burn_loops = 20000;
module_param(burn_loops, uint, 0644);
MODULE_PARM_DESC(burn_loops, "iterations each socket wakeup spins in wakelab_planted_burn() (0: none; at most 10000000)");

/*
 * The planted symbol: @loops iterations of a dependent chain.  Its result
 * is kept (planted_sink), so that the compiler leaves the function whole
 * and under its own name.
 */
static unsigned long planted_sink;

static noinline unsigned long wakelab_planted_burn(unsigned int loops)
{
	unsigned long x = loops;
	unsigned int i;

	for (i = 0; i < loops; i++) {
		x = x * 6364136223846793005UL + 1442695040888963407UL;
		barrier();
	}
	return x;
}

static int planted_pre(struct kprobe *kp, struct pt_regs *regs)
{
	unsigned int n = READ_ONCE(burn_loops);

	if (n)
		WRITE_ONCE(planted_sink, wakelab_planted_burn(min(n, PLANTED_MAX_LOOPS)));
	return 0;
}

static struct kprobe planted_kp = {
	.symbol_name	= "__wake_up_sync_key",
	.pre_handler	= planted_pre,
};

static int __init planted_init(void)
{
	return register_kprobe(&planted_kp);
}

static void __exit planted_exit(void)
{
	unregister_kprobe(&planted_kp);
}

module_init(planted_init);
module_exit(planted_exit);

MODULE_DESCRIPTION("wakelab test: socket wakeups burn CPU time in a named function");
MODULE_LICENSE("GPL");
