/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wakelab: control mode -- the policy table, its hook and its tunables.
 *
 * Control mode needs the wake-affine policy hook of the wakelab patch
 * series (<linux/sched/wake_affine.h>, detected by Kbuild, which then
 * defines WAKELAB_HAVE_HOOK).  Without it the functions below describe
 * observe mode: one placement row, "observe", and no policy to set.
 */
#ifndef WAKELAB_POLICY_H
#define WAKELAB_POLICY_H

#include <linux/errno.h>
#include <linux/seq_file.h>
#include <linux/types.h>

/* The bias file's value at load: WA_BIAS on. */
#define WL_BIAS_DEFAULT		1

#ifdef WAKELAB_HAVE_HOOK
int wl_policy_init(void);
void wl_policy_exit(void);
int wl_policy_show(struct seq_file *m, void *v);
int wl_policy_set(const char *name);
int wl_policy_count(void);
const char *wl_policy_row_name(int row);

unsigned int wl_policy_bias(void);
int wl_policy_set_bias(unsigned int val);
unsigned int wl_policy_imbalance_pct(void);
int wl_policy_set_imbalance_pct(unsigned int val);

static inline bool wl_policy_hook_present(void)
{
	return true;
}
#else
static inline int wl_policy_init(void)
{
	return 0;
}

static inline void wl_policy_exit(void)
{
}

static inline int wl_policy_show(struct seq_file *m, void *v)
{
	seq_puts(m, "# hook: absent (this kernel has no wake_affine_policy_register())\n");
	seq_puts(m, "[observe]\n");
	return 0;
}

static inline int wl_policy_set(const char *name)
{
	return -EOPNOTSUPP;
}

static inline int wl_policy_count(void)
{
	return 1;
}

static inline const char *wl_policy_row_name(int row)
{
	return "observe";
}

static inline unsigned int wl_policy_bias(void)
{
	return WL_BIAS_DEFAULT;
}

static inline int wl_policy_set_bias(unsigned int val)
{
	return -EOPNOTSUPP;
}

static inline unsigned int wl_policy_imbalance_pct(void)
{
	return 0;
}

static inline int wl_policy_set_imbalance_pct(unsigned int val)
{
	return -EOPNOTSUPP;
}

static inline bool wl_policy_hook_present(void)
{
	return false;
}
#endif /* WAKELAB_HAVE_HOOK */

#endif /* WAKELAB_POLICY_H */
