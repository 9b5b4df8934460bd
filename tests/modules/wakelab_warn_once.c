// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only module: WARNs once when loaded.  tests/test_vm.sh loads it to
 * prove that scripts/vm fails a run whose guest kernel log has a splat.
 */
#include <linux/bug.h>
#include <linux/module.h>

static int __init warn_once_init(void)
{
	WARN_ONCE(1, "wakelab: test-only warning\n");
	return 0;
}

static void __exit warn_once_exit(void)
{
}

module_init(warn_once_init);
module_exit(warn_once_exit);

MODULE_DESCRIPTION("wakelab harness test: WARN once at load");
MODULE_LICENSE("GPL");
