/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wakelab: the runqueues of a stock kernel, located at load.
 */
#ifndef WAKELAB_RQ_H
#define WAKELAB_RQ_H

#include <linux/types.h>

int wl_rq_init(void);
bool wl_rq_located(void);
bool wl_rq_pelt_located(void);
unsigned int wl_rq_nr_running(int cpu);
unsigned long wl_rq_load_avg(int cpu);
unsigned long wl_rq_util_avg(int cpu);

#endif /* WAKELAB_RQ_H */
