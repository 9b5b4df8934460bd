#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Tests of `make compare TARGET=ssh:` (scripts/compare-ssh.sh and the guard
# on the box, scripts/guest/compare-guard) against a real ssh server: a
# box guest (scripts/vm --ssh-port, stock-7.3 unless WAKELAB_TEST_KERNEL
# says otherwise) running Debian's dropbear, reached through QEMU's
# user-net forward on 127.0.0.1, root logging in with an ed25519 key made
# here.  A short comparison runs end to end and its report comes back
# while the box's settings are as before; SIGKILL to the host's ssh client
# mid-trial, while the policy's features are set, leaves the box restored
# by its guard; a stopped client (a silent connection) is taken for lost
# after the heartbeat's silence; scripts/compare --target ssh: runs the
# same way; a bad target and an unreachable box fail with the reason and
# change nothing.  The guest is stopped at the end, and killed on any
# failure (no qemu left behind).

set -u
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/helpers/tap.sh
. "$top/tests/helpers/tap.sh"
kernel=${WAKELAB_TEST_KERNEL:-stock-7.3}
plan=44
tmp=$(mktemp -d)
vmpid=""

echo "TAP version 13"
echo "1..$plan"

skip_rest() {
	while [ "$n" -lt "$plan" ]; do
		n=$((n + 1))
		echo "ok $n ssh target # SKIP $1"
	done
	tap_done
	exit
}

# The guest dies with the test: scripts/vm stops it on TERM; its qemu by
# its pid file if scripts/vm is gone already.
cleanup() {
	if [ -n "$vmpid" ] && kill -0 "$vmpid" 2>/dev/null; then
		kill -TERM "$vmpid" 2>/dev/null
		wait "$vmpid" 2>/dev/null
	fi
	if [ -s "$tmp/qemu.pid" ] && kill -0 "$(cat "$tmp/qemu.pid")" 2>/dev/null; then
		kill -KILL "$(cat "$tmp/qemu.pid")" 2>/dev/null
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

"$top/scripts/vm" --ssh-port 70000 -- true >/dev/null 2>&1
check "vm: --ssh-port 70000 is a usage error" 2 $?

for c in ssh ssh-keygen ss; do
	command -v $c >/dev/null || skip_rest "$c is not installed (make deps installs openssh-client, iproute2)"
done

ssh-keygen -q -t ed25519 -N '' -C wakelab-test -f "$tmp/key" ||
	skip_rest "ssh-keygen could not make a key"
# A port nobody listens on, for the box.
port=""
for _ in $(seq 50); do
	p=$((20000 + RANDOM % 40000))
	[ -n "$(ss -Htln "sport = :$p")" ] || { port=$p; break; }
done
[ -n "$port" ] || skip_rest "no free TCP port on 127.0.0.1"

export WAKELAB_SSH_KEY=$tmp/key
export WAKELAB_SSH_OPTS="-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR"
box=root@127.0.0.1:$port
sshbox() {
	# shellcheck disable=SC2086 # options are words
	ssh -T -o BatchMode=yes -o ConnectTimeout=10 -i "$tmp/key" $WAKELAB_SSH_OPTS \
		-p "$port" root@127.0.0.1 "$@"
}
# What a run may change and must put back: features, the writable
# sched/ tunables (owner-writable in debugfs; not the debug report) and
# sched sysctls, the module, the state directory, the driver's directory
# in /tmp.
# shellcheck disable=SC2016 # expanded on the box
state_cmd='cat /sys/kernel/debug/sched/features
for f in /sys/kernel/debug/sched/* /proc/sys/kernel/sched_*; do
	[ -f "$f" ] || continue
	case ${f##*/} in features|debug) continue ;; esac
	case $(stat -c %A "$f" 2>/dev/null) in
	??w*) echo "$f $(head -n 1 "$f" 2>/dev/null)" ;;
	esac
done
[ -d /sys/module/wakelab ] && echo "wakelab loaded"
[ -e /run/wakelab-compare ] && echo "state left"
ls -d /tmp/wakelab-ssh.* 2>/dev/null'
wlargs=(-w tcp_stream -n '1,2' -r 2 -l 1 default 'NO_WA_IDLE,NO_WA_WEIGHT')

# --- the guard on its own, with a stand-in driver ---------------------------
# The driver prints, sleeps, and on TERM "restores" (or, with
# STUB_DEAF=1, ignores TERM); --restore says what it got.
# STUB_CHILD=FILE: a child in a process group of its own (as wl_stream
# is), its pid in FILE; STUB_LEAVE=DIR: DIR made, and left on TERM (a
# driver that could not restore).
cat > "$tmp/drv" <<'EOF'
#!/bin/sh
for a; do [ "$a" = --restore ] && { echo "stub restore: $*"; exit 0; }; done
[ -z "${STUB_LEAVE:-}" ] || mkdir -p "$STUB_LEAVE"
if [ -n "${STUB_CHILD:-}" ]; then
	perl -e 'setpgrp(0, 0); exec @ARGV' sleep 300 &
	echo $! > "$STUB_CHILD"
fi
if [ "${STUB_DEAF:-0}" = 1 ]; then trap '' TERM
else trap 'echo "stub: TERM, restoring"; exit 143' TERM; fi
echo "stub: running $*"
i=0
while [ $i -lt "${STUB_SECS:-30}" ]; do sleep 1; i=$((i + 1)); done
echo "stub: done"
exit 7
EOF
chmod +x "$tmp/drv"
guard=$top/scripts/guest/compare-guard
for sh in /bin/sh 'busybox sh'; do
	if ! command -v "${sh%% *}" >/dev/null; then
		for _ in 1 2 3; do n=$((n + 1)); echo "ok $n guard ($sh) # SKIP no ${sh%% *}"; done
		continue
	fi
	# stdin closes after 2 s: EOF while the driver runs.
	sleep 2 | $sh "$guard" --log "$tmp/g.log" -- "$tmp/drv" --state /x -- a >/dev/null 2>&1
	rc=$?
	[ "$rc" = 143 ] && grep -q '^compare-guard: connection lost (its stdin (the ssh channel) reached EOF)' "$tmp/g.log" &&
		grep -q '^stub: TERM, restoring' "$tmp/g.log" && grep -q '^compare-guard: done, exit 143$' "$tmp/g.log"
	ok $? "guard ($sh): EOF on stdin sends the driver TERM, its status (143) comes back, the log says so"
	sleep 2 | STUB_DEAF=1 $sh "$guard" --grace 2 --log "$tmp/g.log" -- "$tmp/drv" --state /s --bin /b -- a >/dev/null 2>&1
	rc=$?
	[ "$rc" = 137 ] && grep -q '^stub restore: --restore --state /s --bin /b$' "$tmp/g.log" &&
		grep -q '^compare-guard: restored by ' "$tmp/g.log"
	ok $? "guard ($sh): a driver deaf to TERM is KILLed after --grace, then DRIVER --restore --state --bin (exit 137)"
	# HUP to the guard, as a dropped session's, is ignored.
	sleep 6 | STUB_SECS=3 $sh "$guard" --log "$tmp/g.log" -- "$tmp/drv" -- a >/dev/null 2>&1 &
	gpid=$!
	sleep 1
	kill -HUP "$gpid"
	wait "$gpid"
	check "guard ($sh): HUP is ignored, the driver's status comes back" 7 $?
	# KILL reaches the driver's whole session: a child in a process
	# group of its own too.
	rm -f "$tmp/child"
	sleep 2 | STUB_DEAF=1 STUB_CHILD=$tmp/child $sh "$guard" --grace 2 --log "$tmp/g.log" \
		-- "$tmp/drv" --state /s -- a >/dev/null 2>&1
	rc=$?
	c=$(cat "$tmp/child" 2>/dev/null)
	[ "$rc" = 137 ] && [ -n "$c" ] && ! grep -q '^[0-9]* (sleep) [^ZX]' "/proc/$c/stat" 2>/dev/null
	ok $? "guard ($sh): the KILL takes a child in its own process group with the driver"
	[ -z "$c" ] || kill "$c" 2>/dev/null
	# A driver that ended after TERM but left its state: --restore.
	rm -rf "$tmp/left"
	sleep 2 | STUB_LEAVE=$tmp/left $sh "$guard" --log "$tmp/g.log" \
		-- "$tmp/drv" --state "$tmp/left" -- a >/dev/null 2>&1
	rc=$?
	[ "$rc" = 143 ] && grep -q "^stub restore: --restore --state $tmp/left\$" "$tmp/g.log"
	ok $? "guard ($sh): a driver that exits after TERM with its state left: DRIVER --restore"
	# A driver that refused (exit 3) leaves another run's state alone.
	mkdir -p "$tmp/left"
	printf '#!/bin/sh\nfor a; do [ "$a" = --restore ] && { echo "stub restore: $*"; exit 0; }; done\nexit 3\n' > "$tmp/drv3"
	chmod +x "$tmp/drv3"
	sleep 4 | $sh "$guard" --log "$tmp/g.log" -- "$tmp/drv3" --state "$tmp/left" -- a >/dev/null 2>&1
	rc=$?
	[ "$rc" = 3 ] && ! grep -q '^stub restore' "$tmp/g.log"
	ok $? "guard ($sh): a driver that refused (exit 3): no --restore of another run's state"
done

# --- the box --------------------------------------------------------------
# It waits for the test's word, then powers off (scripts/vm checks its
# kernel log).
"$top/scripts/vm" --kernel "$kernel" --quiet --timeout 2400 --ssh-port "$port" \
	--pidfile "$tmp/qemu.pid" --file "$tmp/key.pub:/root/.ssh/authorized_keys" -- \
	'while [ ! -e /run/wakelab-test-stop ]; do sleep 1; done; cat /run/dropbear.log' \
	>"$tmp/vm.log" 2>&1 &
vmpid=$!
t0=$SECONDS
up=1
until sshbox true 2>/dev/null; do
	if ! kill -0 "$vmpid" 2>/dev/null || [ $((SECONDS - t0)) -gt 900 ]; then
		up=0
		break
	fi
	sleep 3
done
[ "$up" = 1 ] || sed 's/^/# /' "$tmp/vm.log" | tail -n 30
check "box: root logs in over ssh (dropbear in the guest, the test's key) after $((SECONDS - t0))s" 1 $up
[ "$up" = 1 ] || skip_rest "the box guest did not come up"
rel=$(sshbox 'uname -r')
before=$(sshbox "$state_cmd")
echo "# box: $kernel ($rel) on 127.0.0.1:$port"

# --- (a) a run --------------------------------------------------------------
r=$tmp/run-a
mkdir -p "$r"
t1=$SECONDS
bash "$top/scripts/compare-ssh.sh" "$box" "$r" auto -- "${wlargs[@]}" >"$tmp/a.out" 2>&1
rc=$?
[ "$rc" = 0 ] || sed 's/^/# /' "$tmp/a.out" | tail -n 40
check "ssh run: a comparison on the box exits 0 ($((SECONDS - t1))s)" 0 $rc
grep -q '^# wl_compare: tcp_stream, 2 policies x 2 cells x 2 trials' "$r/report.txt" 2>/dev/null
check "ssh run: report.txt fetched into the results directory" 0 $?
grep -q "^# kernel $rel " "$r/report.txt" 2>/dev/null
check "ssh run: the report is the box's kernel's ($rel)" 0 $?
[ -s "$r/results.json" ] && [ -s "$r/plot.dat" ] && [ -s "$r/plot.gp" ] && [ -s "$r/box.log" ]
check "ssh run: results.json, plot.dat, plot.gp and the box's log fetched" 0 $?
grep -q "building wakelab.ko for $rel" "$tmp/a.out" &&
	grep -q '^compare-local: settings restored and verified (.*wakelab.ko unloaded)' "$r/box.log"
check "ssh run: a wakelab.ko built here was loaded there and unloaded after" 0 $?
grep -q '^wl_compare: trial 8/8 ' "$tmp/a.out"
check "ssh run: the box's output streams to the host" 0 $?
after=$(sshbox "$state_cmd")
check "ssh run: the box's settings, module, state and /tmp are as before" "$before" "$after"

# --- (b) the client killed mid-trial ----------------------------------------
r=$tmp/run-b
mkdir -p "$r"
WAKELAB_SSH_PIDFILE=$tmp/ssh.pid bash "$top/scripts/compare-ssh.sh" "$box" "$r" auto -- \
	-w tcp_stream -n 1,2 -r 8 -l 2 default 'NO_WA_IDLE,NO_WA_WEIGHT' >"$tmp/b.out" 2>&1 &
cpid=$!
# Until a trial of the second policy runs: the box's features are changed.
t1=$SECONDS
changed=1
until sshbox 'grep -qw NO_WA_IDLE /sys/kernel/debug/sched/features' 2>/dev/null; do
	if ! kill -0 "$cpid" 2>/dev/null || [ $((SECONDS - t1)) -gt 300 ]; then
		changed=0
		break
	fi
	sleep 0.5
done
check "ssh cut: a trial with NO_WA_IDLE set runs on the box" 1 $changed
spid=$(cat "$tmp/ssh.pid" 2>/dev/null)
if [ -n "$spid" ] && kill -0 "$spid" 2>/dev/null; then
	kill -KILL "$spid"
fi
wait "$cpid"
rc=$?
[ "$rc" = 255 ] || sed 's/^/# /' "$tmp/b.out" | tail -n 40
check "ssh cut: SIGKILL to the ssh client mid-trial: exit 255 (connection lost)" 255 $rc
grep -q 'the connection ended mid-run' "$tmp/b.out"
check "ssh cut: the host says the connection ended and the guard restores" 0 $?
grep -q '^compare-guard: connection lost (its stdin (the ssh channel) reached EOF)' "$r/box.log" 2>/dev/null
check "ssh cut: the guard on the box saw the channel close" 0 $?
grep -q '^compare-local: settings restored and verified' "$r/box.log" 2>/dev/null &&
	grep -q '^compare-guard: driver exited 143 after the TERM' "$r/box.log"
check "ssh cut: the guard's TERM made the driver restore, verify and exit" 0 $?
after=$(sshbox "$state_cmd")
check "ssh cut: the box's settings, module, state and /tmp are as before" "$before" "$after"
sshbox '! grep -qw NO_WA_IDLE /sys/kernel/debug/sched/features && [ ! -d /sys/module/wakelab ] && [ ! -e /run/wakelab-compare ]'
check "ssh cut: NO_WA_IDLE cleared, wakelab unloaded, /run/wakelab-compare gone" 0 $?

# --- (b2) a silent connection: the client stopped ---------------------------
r=$tmp/run-c
mkdir -p "$r"
WAKELAB_SSH_HEARTBEAT=12 WAKELAB_SSH_KEEP=1 WAKELAB_SSH_PIDFILE=$tmp/ssh.pid \
	bash "$top/scripts/compare-ssh.sh" "$box" "$r" auto -- \
	-w tcp_stream -n 1,2 -r 8 -l 2 default 'NO_WA_IDLE,NO_WA_WEIGHT' >"$tmp/c.out" 2>&1 &
cpid=$!
t1=$SECONDS
until grep -q '^wl_compare: trial 1/' "$tmp/c.out" 2>/dev/null; do
	kill -0 "$cpid" 2>/dev/null && [ $((SECONDS - t1)) -lt 300 ] || break
	sleep 0.5
done
spid=$(cat "$tmp/ssh.pid" 2>/dev/null)
[ -n "$spid" ] && kill -STOP "$spid"
# The connection stays up, silent: the guard restores after 12 s.
t1=$SECONDS
restored=0
while [ $((SECONDS - t1)) -lt 180 ]; do
	sshbox 'grep -q "^compare-guard: done" /tmp/wakelab-ssh.*/compare.log' 2>/dev/null &&
		{ restored=1; break; }
	sleep 2
done
check "ssh silent: with the client stopped the guard finishes by itself" 1 $restored
log=$(sshbox 'cat /tmp/wakelab-ssh.*/compare.log' 2>/dev/null)
grep -q '^compare-guard: connection lost (no heartbeat on its stdin for 12s)' <<<"$log"
check "ssh silent: the guard took 12 s without a heartbeat for a lost connection" 0 $?
grep -q '^compare-local: settings restored and verified' <<<"$log"
check "ssh silent: the driver restored and verified the settings" 0 $?
[ -n "$spid" ] && kill -KILL "$spid" 2>/dev/null
wait "$cpid"
check "ssh silent: the host's run then exits 255" 255 $?
sshbox 'rm -rf /tmp/wakelab-ssh.*'
after=$(sshbox "$state_cmd")
check "ssh silent: the box's settings, module, state and /tmp are as before" "$before" "$after"

# --- scripts/compare --target ssh: ------------------------------------------
if "$top/scripts/compare" --help 2>/dev/null | grep -q -- '--target'; then
	"$top/scripts/compare" --target "ssh:$box" --results "$tmp/results" \
		--instances 1,2 --trials 2 --duration 1 \
		--policies 'default;NO_WA_IDLE,NO_WA_WEIGHT' >"$tmp/d.out" 2>&1
	rc=$?
	[ "$rc" = 0 ] || sed 's/^/# /' "$tmp/d.out" | tail -n 30
	check "compare --target ssh:: exits 0" 0 $rc
	[ -s "$tmp/results/latest/report.txt" ] && [ -s "$tmp/results/latest/console.log" ] &&
		grep -q "^# kernel $rel " "$tmp/results/latest/report.txt"
	check "compare --target ssh:: results/<stamp>/ has the box's report and the console" 0 $?
else
	for d in "exits 0" "results/<stamp>/ has the box's report"; do
		n=$((n + 1)); echo "ok $n compare --target ssh:: $d # SKIP scripts/compare has no --target"
	done
fi
after=$(sshbox "$state_cmd")
check "compare --target ssh:: the box is as before" "$before" "$after"

# --- (c) refusals ---------------------------------------------------------------
r=$tmp/run-e
mkdir -p "$r"
for spec in 'root@-oProxyCommand=x' 'root@box:70000' 'bad user@box' 'root@box:22:33'; do
	bash "$top/scripts/compare-ssh.sh" "$spec" "$r" auto -- "${wlargs[@]}" >"$tmp/e.out" 2>&1
	rc=$?
	[ "$rc" = 2 ] && grep -q "TARGET=ssh:.*: bad .*expected \[user@\]host\[:port\]\|bad port" "$tmp/e.out" ||
		sed 's/^/# /' "$tmp/e.out" | head -n 5
	[ "$rc" = 2 ] && grep -q "TARGET=ssh:" "$tmp/e.out"; ok $? "bad target 'ssh:$spec': exit 2 with the reason"
done
# A port nobody listens on.
dead=$((port == 65535 ? port - 1 : port + 1))
[ -z "$(ss -Htln "sport = :$dead")" ] || dead=1
bash "$top/scripts/compare-ssh.sh" "root@127.0.0.1:$dead" "$r" auto -- "${wlargs[@]}" >"$tmp/e.out" 2>&1
rc=$?
[ "$rc" = 2 ] || sed 's/^/# /' "$tmp/e.out" | head -n 5
[ "$rc" = 2 ] && grep -q "cannot run a command on ssh:root@127.0.0.1:$dead (ssh exit 255)" "$tmp/e.out"
ok $? "unreachable box: exit 2 (got $rc) and the reason ('cannot run a command ...')"
check "bad targets and the unreachable box leave no files in the results directory" "" "$(ls -A "$r")"
after=$(sshbox "$state_cmd")
check "bad targets: the box is as before" "$before" "$after"

# --- the box stops ----------------------------------------------------------------
sshbox 'touch /run/wakelab-test-stop'
wait "$vmpid"
rc=$?
vmpid=""
[ "$rc" = 0 ] || sed 's/^/# /' "$tmp/vm.log" | tail -n 30
check "box: the guest powers off when asked, no splat in its kernel log" 0 $rc

tap_done
