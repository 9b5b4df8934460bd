// SPDX-License-Identifier: GPL-2.0
/*
 * module/wa_old.h, wake_affine_old() as the module and the patched fair.c
 * have it, on fixed inputs (TAP), with stubs for the fair.c names it
 * reads.  tests/test_wa_old.sh builds it for the host's 64-bit ABI and with
 * -m32: the answers must be the same, those of the rule on 64-bit.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "kselftest.h"

typedef int64_t s64;

/* What wake_affine_old() reads, set by each case. */
struct sched_domain {
	unsigned int imbalance_pct;
};

struct task_struct {
	unsigned long load;
};

struct llc_stats {
	unsigned long nr_running;
	unsigned long load;
	unsigned long capacity;
	int has_capacity;
};

#define THIS_CPU	0
#define PREV_CPU	2
#define nr_cpumask_bits	4

static struct llc_stats llc[nr_cpumask_bits];
static struct task_struct waker, *current = &waker;

static bool read_llc_stats(struct llc_stats *stats, int cpu)
{
	*stats = llc[cpu];
	return true;
}

static unsigned long task_h_load(struct task_struct *p)
{
	return p->load;
}

#include "../../module/wa_old.h"

struct wa_case {
	const char *name;
	unsigned long this_nr, this_load, prev_nr, prev_load, cur, task;
	int this_room, prev_room, sync;
	bool pull;
};

static const struct wa_case cases[] = {
	/* Full LLCs, loads decide: the waker's LLC is far lighter. */
	{ "lighter waker LLC pulls", 4, 100, 4, 2000, 0, 100, 0, 0, 0, true },
	{ "heavier waker LLC stays", 4, 2000, 4, 100, 0, 50, 0, 0, 0, false },
	/* The previous LLC carries less than the wakee: negative load. */
	{ "previous LLC lighter than the wakee stays", 4, 1000, 4, 100, 0, 600,
	  0, 0, 0, false },
	{ "previous LLC empty, heavy wakee stays", 4, 10, 4, 0, 0, 1024,
	  0, 0, 0, false },
	/* Sync: a waker heavier than its LLC's load pulls at once. */
	{ "sync, waker above its LLC's load pulls", 4, 300, 4, 100, 400, 600,
	  0, 0, 1, true },
	/* Room in the previous LLC and no more tasks there: stay. */
	{ "room at prev, not busier stays", 1, 10, 1, 2000, 0, 10, 1, 1, 0, false },
	/* Room at the waker and two fewer tasks: pull. */
	{ "room at waker, two fewer tasks pulls", 0, 2000, 3, 10, 0, 10,
	  1, 0, 0, true },
};

int main(void)
{
	unsigned int i;

	ksft_print_header();
	ksft_set_plan(sizeof(cases) / sizeof(cases[0]));
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct wa_case *c = &cases[i];
		struct sched_domain sd = { .imbalance_pct = 117 };
		struct task_struct wakee = { .load = c->task };
		bool got;

		llc[THIS_CPU] = (struct llc_stats){ c->this_nr, c->this_load,
						    2048, c->this_room };
		llc[PREV_CPU] = (struct llc_stats){ c->prev_nr, c->prev_load,
						    2048, c->prev_room };
		waker.load = c->cur;
		got = wake_affine_old(&sd, &wakee, THIS_CPU, PREV_CPU,
				      c->sync) == THIS_CPU;

		if (got != c->pull)
			ksft_print_msg("%s: %s, the rule says %s (%zu-bit long)\n",
				       c->name, got ? "pull" : "stay",
				       c->pull ? "pull" : "stay",
				       8 * sizeof(long));
		ksft_test_result(got == c->pull, "%zu-bit: %s\n",
				 8 * sizeof(long), c->name);
	}
	ksft_finished();
}
