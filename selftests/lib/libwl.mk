# SPDX-License-Identifier: GPL-2.0
#
# The wakelab library, by role (docs/testing.md, "The library"):
#   core/     libc only: clock, signals, text, files and processes, JSON,
#             statistics, histograms;
#   kernel/   what reads or drives the running kernel: topology, schedstat,
#             sched/debug, tracefs, features, perf counters, cpustat,
#             wakelab.ko's tables and module, load generators;
#   stream/   wl_stream: options, engine, workloads, netperf, remote, report;
#   compare/  wl_compare: options, trials, merge, report, headline, the
#             statistics of a run, env, spec, settings, state.
# A group includes its own headers and those of the groups above it in this
# list, never below (tests/test_include_layering.sh checks it).
#
# Included by selftests/Makefile and tests/Makefile with
#   LIBWL_OUT  the directory the objects go to (LIBWL_OUT/lib/<group>/x.o);
# each object gets a -MD -MP dependency file beside it.

LIBWL_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))

LIBWL_CORE := clock.c file.c hist.c json_read.c json_write.c proc.c sig.c \
	      stats.c text.c
LIBWL_KERNEL := cgroup.c cpustat.c features.c load.c perf.c perf_tool.c \
		sched_debug.c schedstat.c topo.c tracefs.c wakelab_module.c \
		wakelab_tables.c
LIBWL_STREAM := cfg.c engine.c netns.c netperf.c opts.c pin.c remote.c report.c \
		run.c wakelab.c workload.c
LIBWL_COMPARE := analysis.c env.c headline.c merge.c model.c opts.c \
		 profile.c report.c run.c settings.c spec.c state.c trial.c

LIBWL_SRCS := $(addprefix core/,$(LIBWL_CORE)) \
	      $(addprefix kernel/,$(LIBWL_KERNEL)) \
	      $(addprefix stream/,$(LIBWL_STREAM)) \
	      $(addprefix compare/,$(LIBWL_COMPARE))
LIBWL_OBJS := $(patsubst %.c,$(LIBWL_OUT)/lib/%.o,$(LIBWL_SRCS))
LIBWL_DEPS := $(LIBWL_OBJS:.o=.d)

$(LIBWL_OUT)/lib/%.o: $(LIBWL_DIR)/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -MD -MP -c $< -o $@

-include $(LIBWL_DEPS)
