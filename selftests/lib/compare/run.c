// SPDX-License-Identifier: GPL-2.0
/* wl_compare's run state, one set for the process: see wl/compare/run.h. */
#include "wl/compare/run.h"

struct wl_run wl_cmp_run;
struct wl_state wl_cmp_state;
volatile sig_atomic_t wl_cmp_stop;
