/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wakelab: the runqueues of a stock kernel, read through the layout of the
 * target kernel (layout.h) once a probe has confirmed it.
 */
#ifndef WAKELAB_RQ_H
#define WAKELAB_RQ_H

#include <linux/types.h>

int wl_rq_init(void);
bool wl_rq_located(void);
const char *wl_rq_reason(void);
const char *wl_rq_layout(void);
const char *wl_rq_nr_source(void);
unsigned int wl_rq_nr_runnable(int cpu);
unsigned long wl_rq_load_avg(int cpu);
unsigned long wl_rq_util_avg(int cpu);

#endif /* WAKELAB_RQ_H */
