# SPDX-License-Identifier: GPL-2.0
#
# wakelab: top-level entry points.  The module is built by Kbuild (see Kbuild
# and module/Kbuild); everything that boots a kernel goes through scripts/vm.
# Build outputs live under .cache/ (ignored by git).

KVER	?= $(shell bash -c '. scripts/lib.sh && wl_kver' 2>/dev/null)
KDIR	?= /lib/modules/$(KVER)/build
KSRC	?= $(CURDIR)/.cache/linux-source-6.1
V	?= 0

export KVER KSRC

all: module selftests

deps:
	@scripts/deps

module:
	$(MAKE) -C $(KDIR) M=$(CURDIR) W=1 modules

install: module
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules_install
	depmod -a $(KVER)

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null || true
	$(MAKE) -C selftests clean
	rm -rf .cache/build .cache/initramfs .cache/modbuild

selftests:
	$(MAKE) -C selftests KSRC=$(KSRC)

# The README's test command: host unit tests, then the kselftest suite
# inside the VM (stock kernel, and the patched one when it is built).
check:
	@scripts/check

# The README's main job: a live policy comparison in the default VM
# (README "Comparing policies"; variables KERNEL, SOCKETS, CORES, WORKLOAD,
# POLICIES, INSTANCES, TRIALS, DURATION, SEED, WL_STREAM_OPTS).
compare:
	@scripts/compare

# False-positive rate and power of wl_compare's verdict in the VM.
bench-verdict:
	@scripts/bench-verdict

# wakelab.ko through DKMS (installs dkms with apt when missing; not part of
# make check).
dkms-install:
	@scripts/dkms-install

# checkpatch --strict on the module's sources (0 errors/warnings/checks).
CHECKPATCH ?= $(KSRC)/scripts/checkpatch.pl
style checkpatch:
	perl $(CHECKPATCH) --no-tree --strict --show-types --terse -f \
		$(filter-out %.mod.c,$(wildcard module/*.[ch])) \
		module/compat/linux/sched/wake_affine.h

# Per-wakeup cost of the module's two observation methods (README
# "wakelab.ko", "Observation method").
bench-observe:
	@scripts/bench-observe

# tcp_rr with no module vs the module's kernel pass-through vs its old
# policy, on the patched kernel (README "wakelab.ko", "Control mode").
bench-hook:
	@scripts/bench-hook

# The patched 6.1 kernel (patches/ on Debian's linux-source-6.1), built in
# .cache/kernel/build, and the series check (checkpatch, bisectability).
kernel:
	@scripts/build-kernel

kernel-check:
	@scripts/kernel-check

# wl_stream against iperf3 on the host's loopback (README "wl_stream").
bench-stream: selftests
	@scripts/bench-stream

# The debug kernel (scripts/kernel-debug.config over the patched one: KASAN,
# lockdep, kmemleak, ...) in .cache/kernel/build-debug, and the suite, the
# long fuzzer/stress runs and a kmemleak scan on it (README "Debug kernel").
kernel-debug:
	@scripts/build-kernel-debug

check-debug:
	@scripts/check-debug

.PHONY: all deps module install clean selftests check compare dkms-install style checkpatch bench-observe bench-hook kernel kernel-check kernel-debug check-debug bench-stream bench-verdict
