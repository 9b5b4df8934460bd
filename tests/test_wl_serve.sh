#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# wl_stream --serve against strangers, on this host's loopback: it binds
# 127.0.0.1 unless told otherwise; idle connections do not keep a real
# client out; a second client while a session runs is told "busy: serving
# PEER until TIME" at once; a client asking for more message buffers than
# the bound (instances x (send + receive) > 256 MiB) is refused and told
# the bound; without a token a client from a non-loopback address is
# refused; with one ($WL_STREAM_TOKEN) a client without it or with a wrong
# one is refused and the right one served.  TAP.

set -u
top=$(cd "$(dirname "$0")/.." && pwd)
ws=$top/selftests/wl_stream
tmp=$(mktemp -d /tmp/test_wl_serve.XXXXXX)
srv=0
cleanup() {
	[ "$srv" -gt 0 ] && kill "$srv" 2>/dev/null && wait "$srv" 2>/dev/null
	[ -n "${KEEP:-}" ] || rm -rf "$tmp"
}
trap cleanup EXIT

# shellcheck source=tests/helpers/tap.sh
. "$top/tests/helpers/tap.sh"

echo "TAP version 13"
if ! make -s -C "$top/selftests" wl_stream >/dev/null 2>&1 || [ ! -x "$ws" ]; then
	echo "1..0 # SKIP wl_stream does not build"
	exit 4
fi
echo "1..9"
unset WL_STREAM_TOKEN

# serve ARGS...: a server (pid in $srv, port in $port, log $tmp/srv.err)
# on the first free port from a random start; 0 once it listens.
serve() {
	local try
	stop
	for try in 1 2 3 4 5; do
		port=$((20000 + (RANDOM * 7 + try) % 30000))
		"$ws" --serve"${addr:+=$addr}" --port "$port" "$@" >"$tmp/srv.out" 2>"$tmp/srv.err" &
		srv=$!
		for _ in $(seq 50); do
			grep -q "serving on" "$tmp/srv.err" && return 0
			kill -0 "$srv" 2>/dev/null || break
			sleep 0.05
		done
		wait "$srv" 2>/dev/null
		srv=0
	done
	return 1
}
stop() {
	if [ "$srv" -gt 0 ]; then
		kill "$srv" 2>/dev/null
		wait "$srv" 2>/dev/null
	fi
	srv=0
}
# client [ARGS...]: a short tcp_stream session against the server; $rc,
# output in $tmp/cli.out and $tmp/cli.err, seconds in $secs.
client() {
	local t0=$EPOCHREALTIME
	"$ws" --remote "${raddr:-127.0.0.1}" --port "$port" -l 0.5 -W 0 -b "$@" \
		>"$tmp/cli.out" 2>"$tmp/cli.err"
	rc=$?
	secs=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
}
hexport() { printf '%04X' "$1"; }

# --- default bind ------------------------------------------------------------
addr="" serve
grep -q "serving on 127.0.0.1:$port " "$tmp/srv.err" &&
	grep -Eq "^ *[0-9]+: 0100007F:$(hexport "$port") 00000000:0000 0A " /proc/net/tcp &&
	! grep -Eq "^ *[0-9]+: 00000000:$(hexport "$port") 00000000:0000 0A " /proc/net/tcp
ok $? "--serve without an address listens on 127.0.0.1:$port only"

# --- idle connections ----------------------------------------------------------
for fd in 10 11 12 13 14 15 16 17; do
	eval "exec $fd<>/dev/tcp/127.0.0.1/$port"
done
client
for fd in 10 11 12 13 14 15 16 17; do
	eval "exec $fd>&-"
done
[ $rc -eq 0 ] && grep -q "^TCP_STREAM-1 : Avg:" "$tmp/cli.out" &&
	awk -v s="$secs" 'BEGIN { exit !(s < 6) }'
ok $? "8 idle connections do not keep a real client out (rc=$rc, ${secs}s: $(head -c 200 "$tmp/cli.err"))"

# --- busy --------------------------------------------------------------------
"$ws" --remote 127.0.0.1 --port "$port" -l 3 -W 0 -b >"$tmp/long.out" 2>"$tmp/long.err" &
long=$!
for _ in $(seq 100); do
	grep -q "session with" "$tmp/srv.out" 2>/dev/null && break
	[ -s "$tmp/long.out" ] && break
	sleep 0.05
	# The long session's workers are up once its server forked it.
	[ "$(pgrep -c -P "$srv")" -gt 0 ] && break
done
sleep 0.3
client
wait "$long"; lrc=$?
[ $rc -eq 1 ] && grep -Eq "busy: serving 127\.0\.0\.1:[0-9]+ until about [0-9]{2}:[0-9]{2}:[0-9]{2}" "$tmp/cli.err" &&
	awk -v s="$secs" 'BEGIN { exit !(s < 2) }' && [ $lrc -eq 0 ]
ok $? "a second client during a session: told busy, with the peer and the time, at once (rc=$rc, ${secs}s, first $lrc: $(head -c 200 "$tmp/cli.err"))"

# --- buffers -------------------------------------------------------------------
client -n 4 -m 64M
[ $rc -eq 1 ] && grep -q "4 instances x (67108864 + 131072 bytes) = 256.5 MiB of message buffers; this server allows 256.0 MiB (--max-buffer)" "$tmp/cli.err"
ok $? "4 x 64M messages: refused, with the bound (rc=$rc: $(head -c 200 "$tmp/cli.err"))"
client -n 2 -m 1M
[ $rc -eq 0 ]
ok $? "2 x 1M messages: served (rc=$rc: $(head -c 200 "$tmp/cli.err"))"

# --- no token: loopback only ------------------------------------------------------
ip4=$(ip -4 -o addr show scope global 2>/dev/null | awk '{ sub("/.*", "", $4); print $4; exit }')
if [ -n "$ip4" ]; then
	addr=0.0.0.0 serve
	raddr=$ip4 client
	[ $rc -eq 1 ] && grep -q "serves loopback clients only" "$tmp/cli.err"
	ok $? "no token: a client from $ip4 is refused (rc=$rc: $(head -c 200 "$tmp/cli.err"))"
else
	echo "ok $((n + 1)) # SKIP no non-loopback IPv4 address here"
	n=$((n + 1))
fi

# --- token -------------------------------------------------------------------
WL_STREAM_TOKEN=tok-0123456789 addr="" serve
client
a=$rc; grep -q "sent none" "$tmp/cli.err"; an=$?
WL_STREAM_TOKEN=tok-0123456780 client
b=$rc; grep -q "wrong token" "$tmp/cli.err"; bn=$?
[ $a -eq 1 ] && [ $an -eq 0 ]
ok $? "token: a client without it is refused (rc=$a)"
[ $b -eq 1 ] && [ $bn -eq 0 ]
ok $? "token: a client with a wrong one is refused (rc=$b)"
client --token tok-0123456789
[ $rc -eq 0 ]
ok $? "token: the client with it is served (rc=$rc: $(head -c 200 "$tmp/cli.err"))"
stop
tap_done
