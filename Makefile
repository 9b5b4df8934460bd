# SPDX-License-Identifier: GPL-2.0
#
# wakelab: top-level entry points.  The module is built by Kbuild (see Kbuild
# and module/Kbuild); everything that boots a kernel goes through scripts/vm.
# Build outputs live under .cache/ (ignored by git).  Make variables named
# below map to the scripts' options (`make compare DURATION=5` runs
# `scripts/compare --duration 5`); each script's --help lists its defaults.

# `make module` builds for kernel KERNEL of scripts/kernels; without it,
# for the running kernel when its build tree is installed, else for the
# newest Debian image of the table (scripts/vm builds for the kernel it
# boots).  KDIR= names
# a build tree directly.
MODVARS	:= $(shell bash -c '. scripts/lib.sh && wl_module_vars $(KERNEL)' 2>/dev/null)
KDIR	?= $(patsubst KDIR=%,%,$(filter KDIR=%,$(MODVARS)))
KSRC	?= $(shell bash -c '. scripts/lib.sh && echo $$WL_KSRC')
BENCH_OUT ?= $(CURDIR)/.cache/bench
V	?= 0

export KSRC

# $(call wl_opt,OPTION,VAR): "--OPTION 'value'" when make variable VAR is set.
wl_opt = $(if $($(2)),--$(1) '$($(2))')
# KDIR=/path/to/build as the user gave it (not the default above): the
# build tree of a KERNEL=/path/to/bzImage.
USER_KDIR = $(if $(filter command line environment,$(origin KDIR)),--kdir '$(KDIR)')

all: module selftests

deps:
	@scripts/deps

# A Debian image of a newer release (WL_BUILDROOT=<release> in MODVARS) is
# built for in that release's build root, with its own compiler
# (scripts/buildroot).
WL_BUILDROOT ?= $(patsubst WL_BUILDROOT=%,%,$(filter WL_BUILDROOT=%,$(MODVARS)))
KRUN	= $(if $(WL_BUILDROOT),scripts/buildroot --release $(WL_BUILDROOT) --)

module:
	$(KRUN) $(MAKE) -C $(KDIR) M=$(CURDIR) W=1 $(filter-out KDIR=% WL_BUILDROOT=%,$(MODVARS)) modules

# Into the running kernel's /lib/modules.
install: module
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules_install
	depmod -a

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null || true
	$(MAKE) -C selftests clean
	rm -rf .cache/build .cache/initramfs .cache/modbuild $(BENCH_OUT)

selftests:
	$(MAKE) -C selftests KSRC=$(KSRC)

# The test command: host unit tests, then the kselftest suite inside the VM
# on the kernels of scripts/kernels' check column (those built from source
# are built when missing); check-all: on every kernel of the table.
check:
	@scripts/check $(call wl_opt,kernel,KERNEL) $(USER_KDIR)

check-all:
	@scripts/check --all

# The prototype-to-upstream path alone (make check-all runs it too):
# compare, make upstream, boot the series' kernel, differential.
check-upstream:
	@tests/helpers/upstream_path.sh

# The main job: a live policy comparison in the default VM; with
# KERNELS='A B ...', a comparison of kernels across boots; with
# TARGET=local on this machine's running kernel, TARGET=ssh:[user@]host
# on a test box's (docs/targets.md).
compare:
	@scripts/compare $(call wl_opt,target,TARGET) $(call wl_opt,kernel,KERNEL) \
		$(call wl_opt,sockets,SOCKETS) $(call wl_opt,cores,CORES) \
		$(call wl_opt,workload,WORKLOAD) $(call wl_opt,policies,POLICIES) \
		$(call wl_opt,instances,INSTANCES) $(call wl_opt,trials,TRIALS) \
		$(call wl_opt,duration,DURATION) $(call wl_opt,seed,SEED) \
		$(call wl_opt,stream-opts,WL_STREAM_OPTS) \
		$(call wl_opt,results,RESULTS) $(call wl_opt,kernels,KERNELS) \
		$(call wl_opt,boots,BOOTS) $(call wl_opt,jobs,JOBS) $(USER_KDIR) \
		$(if $(NO_MODULE),--no-module) $(if $(QUICK),--quick) \
		$(if $(NETNS),--netns) $(if $(PAIR),--pair) \
		$(if $(PROFILE),--profile) $(call wl_opt,peer-kernel,PEER_KERNEL)

# False-positive rate and power of wl_compare's verdict in the VM.
bench-verdict validate-verdict:
	@scripts/validate-verdict $(call wl_opt,kernel,KERNEL) \
		$(call wl_opt,sockets,SOCKETS) $(call wl_opt,cores,CORES) \
		$(call wl_opt,trials,TRIALS) $(call wl_opt,duration,DURATION) \
		$(call wl_opt,aa-runs,AA_RUNS) $(call wl_opt,pl-runs,PL_RUNS) \
		$(call wl_opt,ke-runs,KE_RUNS) \
		$(call wl_opt,known,KNOWN) $(call wl_opt,results,RESULTS) \
		$(call wl_opt,kernel-aa,KERNEL_AA) $(call wl_opt,boots,BOOTS) \
		$(call wl_opt,jobs,JOBS)

# wakelab.ko through DKMS (installs dkms with apt when missing; not part of
# make check), for the running kernel unless KVER is given.
dkms-install:
	@scripts/dkms-install $(call wl_opt,kver,KVER)

# checkpatch --strict on the module's sources (0 errors/warnings/checks).
CHECKPATCH ?= $(KSRC)/scripts/checkpatch.pl
style checkpatch:
	perl $(CHECKPATCH) --no-tree --strict --show-types --terse -f \
		$(filter-out %.mod.c,$(wildcard module/*.[ch])) \
		module/compat/linux/sched/wake_affine.h

# The benchmarks' C programs (scripts/bench/*.c), for the host and the VM.
BENCH_PROGS := $(patsubst scripts/bench/%.c,$(BENCH_OUT)/%,$(wildcard scripts/bench/*.c))
bench-progs: $(BENCH_PROGS)

$(BENCH_OUT)/%: scripts/bench/%.c
	@mkdir -p $(@D)
	$(CC) -O2 -Wall -o $@ $<

# Per-wakeup cost of the module's two observation methods.
bench-observe: bench-progs
	@scripts/bench/observe $(call wl_opt,kernel,KERNEL) \
		$(call wl_opt,rounds,ROUNDS) $(call wl_opt,secs,SECS)

# tcp_rr with no module, with the module's kernel pass-through (the hook
# registered, then unregistered) and with its old policy, on the patched
# kernel.
bench-hook:
	@scripts/bench/hook $(call wl_opt,kernel,KERNEL) \
		$(call wl_opt,rounds,ROUNDS) $(call wl_opt,secs,SECS)

# wl_stream against iperf3 on the host's loopback.
bench-stream: selftests
	@scripts/bench/stream $(call wl_opt,rounds,ROUNDS) $(call wl_opt,secs,SECS)

# wl_stream against its netperf engine (Debian's netperf) in one boot:
# throughput ratio and both placement mixes per instance count
# (NETPERF_TEST=UDP_STREAM or TCP_RR for another test).
bench-netperf: selftests
	@scripts/bench/netperf $(call wl_opt,kernel,KERNEL) \
		$(call wl_opt,rounds,ROUNDS) $(call wl_opt,secs,SECS) \
		$(call wl_opt,test,NETPERF_TEST) $(call wl_opt,counts,COUNTS) \
		$(if $(PLAIN),--plain)

# A kernel of scripts/kernels built from Debian's source (default: the
# patched kernel of the newest base; KERNEL=base-*/debug-* for the others)
# in .cache/kernel/<base>/<kind>, or, with KSRC=/path/to/linux given here,
# that tree (left untouched; SERIES=<base> applies patches/<base>/ to a
# copy) in .cache/kernel/user-*/build; and the series check (checkpatch,
# bisectability) of every base, or of KERNEL's.
kernel:
	@scripts/kernel/build $(call wl_opt,kernel,KERNEL) \
		$(if $(filter command line,$(origin KSRC)),--ksrc '$(KSRC)') \
		$(call wl_opt,series,SERIES) $(call wl_opt,kconfig,KCONFIG)

kernel-check:
	@scripts/kernel/check-series $(call wl_opt,kernel,KERNEL)

# The commit of the git tree KSRC (given here; only read: the bisection
# runs in a clone in .cache/bisect/) between GOOD and BAD that changed
# placement or throughput: git bisect run with a booted, measured and
# tested step (scripts/bisect-step); report in results/<stamp>/bisect/
# (docs/bisect.md).  The guest's programs build against wakelab's own
# kselftest tree (WL_KSFT), not KSRC, which may be at any commit.
WL_KSFT = $(shell bash -c '. scripts/lib.sh && echo $$WL_KSRC')
bisect:
	@$(MAKE) -s -C selftests KSRC='$(WL_KSFT)'
	@scripts/bisect $(if $(filter command line,$(origin KSRC)),--ksrc '$(KSRC)') \
		$(call wl_opt,good,GOOD) $(call wl_opt,bad,BAD) \
		$(call wl_opt,kconfig,KCONFIG) $(call wl_opt,policies,POLICIES) \
		$(call wl_opt,workload,WORKLOAD) $(call wl_opt,instances,INSTANCES) \
		$(call wl_opt,trials,TRIALS) $(call wl_opt,duration,DURATION) \
		$(call wl_opt,sockets,SOCKETS) $(call wl_opt,cores,CORES) \
		$(call wl_opt,stream-opts,WL_STREAM_OPTS) $(call wl_opt,boots,BOOTS) \
		$(call wl_opt,step-boots,STEP_BOOTS) $(call wl_opt,max-boots,MAX_BOOTS) \
		$(call wl_opt,alpha,ALPHA) $(call wl_opt,jobs,JOBS) \
		$(call wl_opt,seed,SEED) $(call wl_opt,results,RESULTS)

# How often make bisect is right: RUNS bisections of planted trees on the
# newest patched kernel's source (the planted commit named) and RUNS of A/A trees
# (nothing to bisect), BROKEN_RUNS around a commit that does not build;
# rates against 9 in 10 (docs/bisect.md).
# Does wl_compare --profile find a planted cause, and stay quiet on A/A?
validate-profile:
	@scripts/validate-profile $(call wl_opt,kernel,KERNEL) \
		$(call wl_opt,sockets,SOCKETS) $(call wl_opt,cores,CORES) \
		$(call wl_opt,trials,TRIALS) $(call wl_opt,duration,DURATION) \
		$(call wl_opt,workload,WORKLOAD) $(call wl_opt,instances,INSTANCES) \
		$(call wl_opt,aa-runs,AA_RUNS) $(call wl_opt,pl-runs,PL_RUNS) \
		$(call wl_opt,burn,BURN) $(call wl_opt,results,RESULTS)

validate-bisect:
	@$(MAKE) -s -C selftests KSRC='$(WL_KSFT)'
	@scripts/validate-bisect $(call wl_opt,base,BASE) $(call wl_opt,runs,RUNS) \
		$(call wl_opt,broken-runs,BROKEN_RUNS) $(call wl_opt,kinds,KINDS) \
		$(call wl_opt,commits,COMMITS) $(call wl_opt,seed,SEED) \
		$(call wl_opt,bisect-opts,BISECT_OPTS) $(call wl_opt,results,RESULTS)

# A module policy (module/policy_$(POLICY).c) as a mail-ready series in
# results/upstream/$(POLICY)/: the body as the sched feature WA_<NAME>, with
# only the wakelab patches it needs, on the HEAD of the git tree KSRC given
# here (a clone of it; KSRC untouched) or on Debian's source of BASE,
# authored by your git identity, To/Cc from get_maintainer.pl, its numbers
# from the latest report of make compare POLICIES='kernel;<name>' (or
# REPORT=dir); checkpatch and the kernel built unless NO_BUILD=1; SEND=b4
# prepares a b4 prep branch (nothing is sent; docs/upstream.md).
upstream:
	@scripts/upstream $(call wl_opt,policy,POLICY) $(call wl_opt,base,BASE) \
		$(if $(filter command line,$(origin KSRC)),--ksrc '$(KSRC)') \
		$(call wl_opt,report,REPORT) $(call wl_opt,results,RESULTS) \
		$(call wl_opt,jobs,JOBS) $(if $(NO_BUILD),--no-build) \
		$(call wl_opt,send,SEND)

# The debug kernel (scripts/kernel/debug.config over the patched one:
# KASAN, lockdep, kmemleak, ...; on the newest base with PREEMPT_RT), and
# the suite, the long fuzzer/stress runs and a kmemleak scan on it.
kernel-debug:
	@scripts/kernel/build --kernel $(or $(KERNEL),$(shell bash -c '. scripts/lib.sh && wl_kernel_default debug'))

check-debug:
	@scripts/check-debug $(call wl_opt,kernel,KERNEL)

.PHONY: all deps module install clean selftests check check-all check-upstream compare bisect validate-bisect dkms-install style checkpatch bench-progs bench-observe bench-hook kernel kernel-check upstream kernel-debug check-debug bench-stream bench-netperf validate-verdict bench-verdict validate-profile
