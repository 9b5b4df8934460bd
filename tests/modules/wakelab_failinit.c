// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only module: registers a wake-affine policy, then fails its own
 * init.  wakelab_policy_test loads it to check that the kernel drops a
 * policy whose module goes away (built only for a kernel with the
 * wakelab series' policy hook).
 */
#include <linux/errno.h>
#include <linux/module.h>
#include <linux/sched/wake_affine.h>

/* No opinion: the sched features decide, as without a policy. */
static int failinit_select(const struct wake_affine_args *args)
{
	return -1;
}

static struct wake_affine_policy failinit_policy = {
	.name	= "failinit",
	.select	= failinit_select,
	.owner	= THIS_MODULE,
};

static int __init failinit_init(void)
{
	int ret = wake_affine_policy_register(&failinit_policy);

	if (ret)
		return ret;
	/* Registered, and now the init fails: no unregister on purpose. */
	return -ECANCELED;
}

module_init(failinit_init);

MODULE_DESCRIPTION("wakelab test: register a wake-affine policy, then fail init");
MODULE_LICENSE("GPL");
