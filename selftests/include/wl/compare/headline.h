/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The headline of a wl_compare report (lib/compare/headline.c): its
 * verdict in words above the table.
 */
#ifndef WL_COMPARE_HEADLINE_H
#define WL_COMPARE_HEADLINE_H

#include <stdio.h>

#include "wl/compare/model.h"

/*
 * One line per (cell, policy) with a significant difference, placement
 * first under TCG, throughput first on KVM, another hypervisor or bare
 * metal; or, when nothing differs, the difference the run could have
 * detected from its spread.
 */
void wl_print_headline(FILE *f, const struct wl_run *r);

#endif /* WL_COMPARE_HEADLINE_H */
