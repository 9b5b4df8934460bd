#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The local target (scripts/guest/compare-local, "make compare
# TARGET=local") on the machine it runs on, which here is the machine under
# test: a run leaves every setting as it found it (a non-default one
# included) and wakelab.ko unloaded; SIGINT to its process group mid-trial
# restores and exits 130; after SIGKILL, --restore puts everything back;
# a module loaded before stays loaded with its knobs; each refusal (not
# root, debugfs absent, a left run, no build tree, a module that does not
# load) changes nothing and exits 3.  The driver's own hazards: TERM
# during the snapshot and during the module's load (its fault points,
# WAKELAB_LOCAL_STALL), a second run beside a live one, --restore during a
# live run, a state that names a file that is not a setting (core_pattern,
# a ../ path, a wl_compare state's "set" line) or that others can write,
# and a module loaded before that lacks one of today's knobs: each ends
# with every setting as the test's own snapshot had it.  Needs root, the driver
# ($WAKELAB_COMPARE_LOCAL, default /wakelab/guest/compare-local, which
# scripts/vm installs) and a built wakelab.ko ($WAKELAB_MODULE, default
# /wakelab/modules/wakelab.ko); skips without them.

ksft_skip=4
here=$(cd "$(dirname "$0")" && pwd)
drv=${WAKELAB_COMPARE_LOCAL:-/wakelab/guest/compare-local}
ko=${WAKELAB_MODULE:-/wakelab/modules/wakelab.ko}
D=/sys/kernel/debug
S=$D/sched
W=$D/wakelab
st=/run/wakelab-compare
tmp=/tmp/wakelab_local_test.$$
rel=$(uname -r)
n=0
fails=0
ntests=17

usage() {
	cat <<EOF
usage: ${0##*/}
  kselftest (KTAP on stdout); environment: WAKELAB_COMPARE_LOCAL (the
  driver, default /wakelab/guest/compare-local), WAKELAB_MODULE (wakelab.ko,
  default /wakelab/modules/wakelab.ko)
EOF
}
case ${1:-} in
-h|--help) usage; exit 0 ;;
'') ;;
*) usage >&2; exit 2 ;;
esac

echo "TAP version 13"
echo "1..$ntests"
skip_all() {
	echo "ok 1 # SKIP $*"
	i=2
	while [ $i -le $ntests ]; do
		echo "ok $i # SKIP $*"
		i=$((i + 1))
	done
	echo "# Totals: pass:0 fail:0 xfail:0 xpass:0 skip:$ntests error:0"
	exit $ksft_skip
}
[ "$(id -u)" = 0 ] || skip_all "not root"
[ -x "$drv" ] || skip_all "no driver $drv (scripts/vm installs it)"
[ -f "$ko" ] || skip_all "no built module $ko"
[ -x "$here/wl_compare" ] || skip_all "no wl_compare beside this test"
[ -f $S/features ] || skip_all "no $S/features"
[ ! -d /sys/module/wakelab ] || rmmod wakelab 2>/dev/null
[ ! -d /sys/module/wakelab ] && [ ! -d $st ] ||
	skip_all "wakelab.ko loaded or $st present before the test"
mkdir -p $tmp
trap 'rm -rf $tmp' EXIT

result() {	# result RC DESCRIPTION [DIAGNOSTIC FILE]
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n $2"
	else
		echo "not ok $n $2"
		fails=$((fails + 1))
		[ -z "${3:-}" ] || sed 's/^/# /' "$3" | tail -n 25
	fi
}
nskip=0
skip() {
	n=$((n + 1))
	nskip=$((nskip + 1))
	echo "ok $n $1 # SKIP $2"
}

# The settings as this test sees them, independently of the driver: the
# features' words sorted, the writable sched/ and sched sysctl files, and
# kernel.core_pattern (never the driver's to write).
settings() {
	echo "core_pattern: $(cat /proc/sys/kernel/core_pattern)"
	tr ' ' '\n' < $S/features | sed '/^$/d' | sort
	for f in $S/* $S/llc_balancing/* /proc/sys/kernel/sched_*; do
		[ -f "$f" ] && [ "$f" != $S/features ] || continue
		case $(stat -c %A "$f") in ??w*) echo "$f: $(cat "$f")" ;; esac
	done
}

# clean FILE: settings equal FILE's, module unloaded, no state left.
clean() {
	settings > $tmp/now
	cmp -s "$1" $tmp/now || { diff "$1" $tmp/now | head -n 5; return 1; }
	[ ! -d /sys/module/wakelab ] || { echo "wakelab.ko still loaded"; return 1; }
	[ ! -d $st ] || { echo "$st left"; return 1; }
}

# Specs that change a feature in every trial.
if grep -qw WA_OLD $S/features; then
	specs="WA_OLD,NO_WA_IDLE,NO_WA_WEIGHT NO_WA_IDLE,NO_WA_WEIGHT"
else
	specs="NO_WA_IDLE NO_WA_WEIGHT"
fi
args="-w tcp_stream -n 1 -l 1"

# wait_trial LOG K: until the run logs its K-th trial (at most 120 s).
wait_trial() {
	i=0
	until grep -q "trial $2/" "$1"; do
		i=$((i + 1))
		[ $i -lt 1200 ] || return 1
		sleep 0.1
	done
}

# 1: a run from a non-default state comes back to it (autogroup on: the
# driver turns it off for the run, as the VM's init does).
ag=/proc/sys/kernel/sched_autogroup_enabled
ag0=$(cat $ag 2>/dev/null)
echo NO_WA_BIAS > $S/features
[ -z "$ag0" ] || echo 1 > $ag
settings > $tmp/before
# shellcheck disable=SC2086 # word lists
"$drv" --module "$ko" --bin "$here" --out $tmp/out -- $args -r 2 $specs \
	> $tmp/log 2>&1
rc=$?
{ [ $rc = 0 ] || echo "driver exit $rc"; } >> $tmp/log
{ [ $rc = 0 ] && clean $tmp/before &&
  for f in report.txt results.json plot.dat plot.gp; do
	[ -s $tmp/out/$f ] || echo "no $f" > $tmp/missing
  done && [ ! -f $tmp/missing ] &&
  grep -q '^# mode: ' $tmp/out/report.txt &&
  grep -q '^# wakelab module: loaded' $tmp/out/report.txt &&
  { [ -z "$ag0" ] || grep -q 'autogroup off for the run' $tmp/log; } &&
  grep -q 'settings restored and verified' $tmp/log; } >> $tmp/log 2>&1
result $? "run: report written, settings back to a non-default state, module unloaded" $tmp/log
echo WA_BIAS > $S/features
[ -z "$ag0" ] || echo "$ag0" > $ag
settings > $tmp/before

# start_bg LOG ARGS...: the driver in a session of its own (its process
# group: the driver, wl_compare, wl_stream), in the background.
start_bg() {
	log=$1
	shift
	setsid "$drv" "$@" > "$log" 2>&1 &
}

# group_of LOG: the driver's process id (= its group's) once its second
# trial has started, from its state directory.
group_of() {
	wait_trial "$1" 2 && cat $st/pid
}

# 2: SIGINT to the process group mid-trial, as ^C delivers it; the
# driver in the foreground, as from a terminal (a background job of this
# shell would have SIGINT ignored).
: > $tmp/log
( g=$(group_of $tmp/log) && kill -INT -"$g" ) &
killer=$!
# shellcheck disable=SC2086
setsid "$drv" --module "$ko" --bin "$here" --out $tmp/out2 -- $args -r 20 $specs \
	>> $tmp/log 2>&1
rc=$?
wait $killer
{ echo "driver exit $rc"; [ "$rc" = 130 ] && clean $tmp/before &&
  grep -q 'signal 2: restoring' $tmp/log; } >> $tmp/log 2>&1
result $? "SIGINT mid-trial: exit 130, every setting restored, module unloaded" $tmp/log

# 3: SIGKILL mid-trial leaves the changes; --restore undoes them.
: > $tmp/log
# shellcheck disable=SC2086
start_bg $tmp/log --module "$ko" --bin "$here" --out $tmp/out3 -- $args -r 20 $specs
pid=$!
changed=1
if g=$(group_of $tmp/log); then
	i=0
	while [ $i -lt 100 ]; do
		settings | cmp -s - $tmp/before || { changed=0; break; }
		i=$((i + 1))
		sleep 0.1
	done
	kill -KILL -"$g"
fi
kill -KILL $pid 2>/dev/null
wait $pid 2>/dev/null
{ [ $changed = 0 ] || echo "no changed setting seen mid-trial"
  [ -d $st ] || echo "no snapshot left"
  "$drv" --restore; rc=$?; echo "--restore exit $rc"
  [ $changed = 0 ] && [ $rc = 0 ] && clean $tmp/before; } >> $tmp/log 2>&1
result $? "SIGKILL mid-trial: settings left changed, --restore puts them back" $tmp/log

# 4: a module loaded before stays loaded, its knobs as they were.
insmod "$ko" && echo 1 > $W/enable
cat $W/enable $W/policy > $tmp/knobs 2>/dev/null
# shellcheck disable=SC2086
"$drv" --bin "$here" --out $tmp/out4 -- $args -r 1 $specs > $tmp/log 2>&1
rc=$?
{ echo "driver exit $rc"; [ $rc = 0 ] && [ -d /sys/module/wakelab ] &&
  cat $W/enable $W/policy 2>/dev/null | cmp -s - $tmp/knobs &&
  grep -q 'loaded already' $tmp/log; } >> $tmp/log 2>&1
result $? "module loaded before: used, left loaded with its knobs" $tmp/log
echo 0 > $W/enable
rmmod wakelab

# refused CASE DESCRIPTION DRIVER-ARGS...: exit 3, the reason, nothing
# changed.
refused() {
	want=$1 desc=$2
	shift 2
	"$@" > $tmp/log 2>&1
	rc=$?
	{ echo "exit $rc"; [ $rc = 3 ] && grep -q "refused (nothing changed): .*$want" $tmp/log &&
	  clean $tmp/before; } >> $tmp/log 2>&1
	result $? "refusal: $desc" $tmp/log
}

# 5: not root.
if ! id nobody > /dev/null 2>&1 && [ -f /wakelab/cmd ]; then
	echo "nobody:x:65534:65534:nobody:/:/bin/sh" >> /etc/passwd	# the test guest's
fi
if id nobody > /dev/null 2>&1 && command -v su > /dev/null; then
	refused "not root" "not root" su -s /bin/sh nobody -c "$drv --module $ko --bin $here -- $args default"
else
	skip "refusal: not root" "no user nobody or no su"
fi

# 6: an earlier run's state is left (and stays).
mkdir $st
# shellcheck disable=SC2086
"$drv" --module "$ko" --bin "$here" -- $args default > $tmp/log 2>&1
rc=$?
{ echo "exit $rc"; [ $rc = 3 ] && grep -q "refused (nothing changed): .*left by an earlier run" $tmp/log &&
  [ -d $st ] && rmdir $st && clean $tmp/before; } >> $tmp/log 2>&1
result $? "refusal: an earlier run's state left (and kept)" $tmp/log
rmdir $st 2> /dev/null

# 7: a file that is not a module.
cp "$here/settings" $tmp/bad.ko
refused "cannot load" "a module that does not load" \
	"$drv" --module $tmp/bad.ko --bin "$here" -- $args default

# 8: no build tree for this kernel: the Debian package is named.
if [ -f "/lib/modules/$rel/build/Makefile" ]; then
	skip "refusal: no build tree" "/lib/modules/$rel/build exists"
else
	mkdir -p $tmp/src/module && : > $tmp/src/module/main.c
	refused "install Debian's linux-headers-$rel" "no build tree names linux-headers-$rel" \
		"$drv" --src $tmp/src --bin "$here" -- $args default
fi

# 9: debugfs not mounted.
if umount $D 2> /dev/null; then
	"$drv" --module "$ko" --bin "$here" -- $args default > $tmp/log 2>&1
	rc=$?
	mount -t debugfs debugfs $D
	{ echo "exit $rc"; [ $rc = 3 ] && grep -q "refused (nothing changed): debugfs is not mounted" $tmp/log &&
	  clean $tmp/before; } >> $tmp/log 2>&1
	result $? "refusal: debugfs not mounted" $tmp/log
else
	skip "refusal: debugfs not mounted" "cannot unmount $D (in use)"
fi

# wait_file FILE: until FILE exists (at most 60 s).
wait_file() {
	i=0
	until [ -e "$1" ]; do
		i=$((i + 1))
		[ $i -lt 600 ] || return 1
		sleep 0.1
	done
}

# 10: TERM while the snapshot is half taken: nothing was changed, the lock
# is gone, exit 143.
: > $tmp/log
# shellcheck disable=SC2086
WAKELAB_LOCAL_STALL=snapshot setsid "$drv" --module "$ko" --bin "$here" \
	--out $tmp/out11 -- $args -r 1 $specs > $tmp/log 2>&1 &
pid=$!
wait_file $st/stall && kill -TERM $pid
wait $pid
rc=$?
{ echo "driver exit $rc"; [ $rc = 143 ] && clean $tmp/before &&
  grep -q 'signal 15: restoring' $tmp/log; } >> $tmp/log 2>&1
result $? "TERM during the snapshot: exit 143, nothing changed, no state left" $tmp/log

# 11: TERM while the module loads (the driver's marker written, the load
# under way): the load completes, then the module is unloaded.
: > $tmp/log
# shellcheck disable=SC2086
WAKELAB_LOCAL_STALL=insmod setsid "$drv" --module "$ko" --bin "$here" \
	--out $tmp/out12 -- $args -r 1 $specs > $tmp/log 2>&1 &
pid=$!
if wait_file $st/stall; then
	[ -f $st/loaded ] || echo "no marker $st/loaded before the load" >> $tmp/log
	kill -TERM $pid
	sleep 0.3
	rm -f $st/stall
fi
wait $pid
rc=$?
{ echo "driver exit $rc"; [ $rc = 143 ] && clean $tmp/before &&
  ! grep -q 'no marker' $tmp/log &&
  grep -q 'wakelab.ko unloaded' $tmp/log; } >> $tmp/log 2>&1
result $? "TERM during the module's load: exit 143, module unloaded, settings back" $tmp/log

# 12: a second run beside a live one refuses and touches nothing of it;
# the first ends as it would alone.
: > $tmp/log
# shellcheck disable=SC2086
start_bg $tmp/log --module "$ko" --bin "$here" --out $tmp/out13 -- $args -r 3 $specs
pid=$!
if wait_trial $tmp/log 1; then
	cp -r $st $tmp/st13
	# shellcheck disable=SC2086
	"$drv" --module "$ko" --bin "$here" --out $tmp/out13b -- $args -r 1 default \
		> $tmp/log2 2>&1
	rc2=$?
	diff -r $st/snapshot $tmp/st13/snapshot > /dev/null &&
		cmp -s $st/pid $tmp/st13/pid && [ -f $st/loaded ] || echo "the first run's state changed" >> $tmp/log
fi
wait $pid
rc=$?
{ echo "first driver exit $rc, second $rc2"; cat $tmp/log2
  [ $rc = 0 ] && [ "$rc2" = 3 ] && ! grep -q 'state changed' $tmp/log &&
  grep -q 'refused (nothing changed): .*held by another run' $tmp/log2 &&
  clean $tmp/before; } >> $tmp/log 2>&1
result $? "a second run beside a live one: refused (exit 3), the first unharmed" $tmp/log

# 13: --restore while the run that holds the state is alive refuses.
: > $tmp/log
rc2=""
# shellcheck disable=SC2086
start_bg $tmp/log --module "$ko" --bin "$here" --out $tmp/out14 -- $args -r 3 $specs
pid=$!
if wait_trial $tmp/log 1; then
	"$drv" --restore > $tmp/log2 2>&1
	rc2=$?
	[ -f $st/snapshot/complete ] && [ -d /sys/module/wakelab ] ||
		echo "the live run's state or module is gone" >> $tmp/log
fi
wait $pid
rc=$?
{ echo "driver exit $rc, --restore $rc2"; cat $tmp/log2
  [ $rc = 0 ] && [ "$rc2" = 3 ] && ! grep -q 'is gone' $tmp/log &&
  grep -q 'refused (nothing changed): .*is still going' $tmp/log2 &&
  clean $tmp/before; } >> $tmp/log 2>&1
result $? "--restore during a live run: refused (exit 3), the run unharmed" $tmp/log

# plant LIST-PATH VALUE: a killed run's state whose snapshot names
# LIST-PATH with VALUE.
plant() {
	rm -rf $st
	mkdir -p $st/snapshot
	echo "$1" > $st/snapshot/list
	echo "$2" > $st/snapshot/1
	: > $st/snapshot/complete
}

# 14: a state naming a file that is not a setting is refused whole.
: > $tmp/log
ok15=0
for p in /proc/sys/kernel/core_pattern $S/../../../../proc/sys/kernel/core_pattern; do
	plant "$p" "|/bin/false planted"
	"$drv" --restore > $tmp/log2 2>&1
	rc=$?
	{ echo "$p: --restore exit $rc"; cat $tmp/log2; } >> $tmp/log
	[ $rc = 1 ] && grep -q "names $p, which is not a setting" $tmp/log2 &&
		[ -d $st ] || ok15=1
done
rm -rf $st
{ [ $ok15 = 0 ] && clean $tmp/before; } >> $tmp/log 2>&1
result $? "a state naming core_pattern or a ../ path: refused, nothing written" $tmp/log

# 15: a wl_compare state whose "set" line names core_pattern, and a state
# that group or others can write: refused, nothing written.
: > $tmp/log
plant $S/features "$(cat $S/features)"
{
	echo "wl_compare-state 1"
	echo "boot_id $(cat /proc/sys/kernel/random/boot_id)"
	echo "pid 1"
	echo "root $D"
	printf 'set\ttunable\tcore_pattern\t/proc/sys/kernel/core_pattern\t|/bin/false planted\n'
	echo "end"
} > $st/wl_compare.state
"$drv" --restore > $tmp/log2 2>&1
rc=$?
{ echo "set line: --restore exit $rc"; cat $tmp/log2; } >> $tmp/log
ok16=0
[ $rc != 0 ] && [ -f $st/wl_compare.state ] || ok16=1
plant $S/features "$(cat $S/features)"
chmod g+w $st/snapshot/list
"$drv" --restore > $tmp/log2 2>&1
rc=$?
{ echo "group-writable: --restore exit $rc"; cat $tmp/log2; } >> $tmp/log
[ $rc = 3 ] && grep -q 'writable by group or others' $tmp/log2 && [ -d $st ] || ok16=1
rm -rf $st
{ [ $ok16 = 0 ] && clean $tmp/before; } >> $tmp/log 2>&1
result $? "a wl_compare state naming core_pattern, a state others can write: refused, nothing written" $tmp/log

# 16: a module loaded before whose wakelab/ lacks a knob of today's (an
# older build): its wakelab/ seen through a tmpfs of links, one missing.
: > $tmp/log
insmod "$ko" && echo 1 > $W/enable
mkdir -p $tmp/realw
if mount --bind $W $tmp/realw && mount -t tmpfs none $W; then
	for f in $tmp/realw/*; do
		[ "${f##*/}" = imbalance_pct ] || ln -s "$f" $W/
	done
	cat $W/enable $W/policy $W/bias > $tmp/knobs 2>/dev/null
	# shellcheck disable=SC2086
	"$drv" --bin "$here" --out $tmp/out17 -- $args -r 1 $specs >> $tmp/log 2>&1
	rc=$?
	cat $W/enable $W/policy $W/bias 2>/dev/null | cmp -s - $tmp/knobs ||
		echo "knobs changed" >> $tmp/log
	umount $W
	umount $tmp/realw
	{ echo "driver exit $rc"; [ $rc = 0 ] && ! grep -q 'knobs changed' $tmp/log &&
	  grep -q 'loaded already' $tmp/log; } >> $tmp/log 2>&1
	result $? "a module loaded before without imbalance_pct: run, knobs as they were" $tmp/log
else
	skip "a module loaded before without a knob" "cannot mount over $W"
fi
echo 0 > $W/enable
rmmod wakelab

# 17: bad usage changes nothing either.
"$drv" --no-such-option > $tmp/log 2>&1
rc=$?
{ echo "exit $rc"; [ $rc = 2 ] && clean $tmp/before; } >> $tmp/log 2>&1
result $? "bad usage: exit 2, nothing changed" $tmp/log

echo "# Totals: pass:$((n - fails - nskip)) fail:$fails xfail:0 xpass:0 skip:$nskip error:0"
[ $fails = 0 ]
