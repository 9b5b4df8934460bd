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
# load) changes nothing and exits 3.  Needs root, the driver
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
ntests=10

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
# features' words sorted, the writable sched/ and sched sysctl files.
settings() {
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

# 10: bad usage changes nothing either.
"$drv" --no-such-option > $tmp/log 2>&1
rc=$?
{ echo "exit $rc"; [ $rc = 2 ] && clean $tmp/before; } >> $tmp/log 2>&1
result $? "bad usage: exit 2, nothing changed" $tmp/log

echo "# Totals: pass:$((n - fails - nskip)) fail:$fails xfail:0 xpass:0 skip:$nskip error:0"
[ $fails = 0 ]
