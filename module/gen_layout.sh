#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Writes layout.h, the private scheduler layout wakelab.ko reads, to
# stdout, from the target kernel itself (module/Kbuild runs it):
#
#  - from its BTF (--btf, an ELF file with a .BTF section or raw BTF such
#    as /sys/kernel/btf/vmlinux), read with bpftool: offsets and sizes of
#    the struct rq, cfs_rq and sched_avg fields, the .data..percpu
#    offsets of runqueues and kernel_cpustat, and the parameter order of
#    select_task_rq_fair();
#  - or, for a kernel built from source, from the asm-offsets style
#    output of layout_src.c (--offsets), compiled against its own
#    kernel/sched/sched.h, its System.map (--system-map) and fair.c
#    (--fair).
#
# WF_TTWU and WF_SYNC are #defines, absent from BTF: --sched-h names the
# target's kernel/sched/sched.h to read them from.  What cannot be found
# is left undefined; WL_LAYOUT_NONE then says why there is no layout at
# all.  Every value comes from the target; nothing is assumed.
set -euo pipefail
# Debian installs bpftool in /usr/sbin, outside a user's PATH.
PATH=$PATH:/usr/sbin:/sbin

usage() {
	cat <<EOF
usage: ${0##*/} [options]
  --btf FILE         BTF of the target kernel (ELF with .BTF, or raw BTF)
  --offsets FILE     layout_src.s, compiled against the target's sched.h
  --system-map FILE  the target's System.map (with --offsets)
  --fair FILE        the target's kernel/sched/fair.c (with --offsets)
  --sched-h FILE     the target's kernel/sched/sched.h, for WF_* values
  --none REASON      no layout source: write a header saying REASON
EOF
}

btf="" offsets="" sysmap="" fair="" sched_h="" none=""
while [ $# -gt 0 ]; do
	case $1 in
	--help) usage; exit 0 ;;
	--btf|--offsets|--system-map|--fair|--sched-h|--none)
		[ $# -ge 2 ] || { echo "${0##*/}: $1 needs a value" >&2; exit 2; }
		case $1 in
		--btf) btf=$2 ;;
		--offsets) offsets=$2 ;;
		--system-map) sysmap=$2 ;;
		--fair) fair=$2 ;;
		--sched-h) sched_h=$2 ;;
		--none) none=$2 ;;
		esac
		shift 2 ;;
	*) echo "${0##*/}: unknown option '$1'" >&2; usage >&2; exit 2 ;;
	esac
done

# define NAME VALUE
define() {
	printf '#define %s %s\n' "$1" "$2"
}

# The layout from BTF, as "NAME VALUE" lines.
from_btf() {
	bpftool btf dump file "$1" format raw | awk '
	function strip(s) { gsub(/^\x27|\x27,?$/, "", s); return s }
	function kv(line, key,    m) {
		if (match(line, " " key "=[^ ]*")) {
			m = substr(line, RSTART + length(key) + 2, RLENGTH - length(key) - 2)
			sub(/,$/, "", m)
			return m
		}
		return ""
	}
	/^\[/ {
		id = substr($1, 2, length($1) - 2)
		kind[id] = $2
		nm = strip($3)
		name[id] = nm
		tid[id] = kv($0, "type_id")
		size[id] = kv($0, "size")
		npar = 0
		if ($2 == "STRUCT" && !(nm in struct_id))
			struct_id[nm] = id
		if ($2 == "FUNC")
			func_proto[nm] = tid[id]
		if ($2 == "VAR")
			var_type[nm] = tid[id]
		next
	}
	/^\t\x27/ {
		mn = strip($1)
		if (kind[id] == "STRUCT" || kind[id] == "UNION") {
			mtype[id, mn] = kv($0, "type_id")
			moff[id, mn] = kv($0, "bits_offset")
		} else if (kind[id] == "FUNC_PROTO") {
			param[id, npar++] = mn
		}
		next
	}
	/^\ttype_id=/ && kind[id] == "DATASEC" && name[id] == ".data..percpu" {
		v = $0
		sub(/.*\(VAR \x27/, "", v)
		sub(/\x27\).*/, "", v)
		pcpu[v] = kv($0, "offset")
	}
	function resolve(t) {
		while (kind[t] == "TYPEDEF" || kind[t] == "CONST" ||
		       kind[t] == "VOLATILE")
			t = tid[t]
		return t
	}
	# field SYM STRUCT_ID MEMBER: offset and size, when it exists
	function field(sym, s, m,    t) {
		if (!((s, m) in moff) || moff[s, m] % 8)
			return ""
		t = resolve(mtype[s, m])
		print sym, moff[s, m] / 8
		print sym "_SIZE", size[t]
		return t
	}
	END {
		if (!("runqueues" in var_type))
			exit
		rq = resolve(var_type["runqueues"])
		field("WL_RQ_NR_RUNNING", rq, "nr_running")
		cfs = field("WL_RQ_CFS", rq, "cfs")
		if (cfs != "") {
			field("WL_CFS_RQ_H_NR_RUNNING", cfs, "h_nr_running")
			field("WL_CFS_RQ_H_NR_QUEUED", cfs, "h_nr_queued")
			field("WL_CFS_RQ_H_NR_RUNNABLE", cfs, "h_nr_runnable")
			field("WL_CFS_RQ_H_NR_DELAYED", cfs, "h_nr_delayed")
			avg = field("WL_CFS_RQ_AVG", cfs, "avg")
		}
		if (avg != "") {
			field("WL_SCHED_AVG_LOAD_AVG", avg, "load_avg")
			field("WL_SCHED_AVG_UTIL_AVG", avg, "util_avg")
		}
		se = struct_id["sched_entity"]
		if (se != "" && ((se, "sched_delayed") in moff))
			print "WL_SE_SCHED_DELAYED", 1
		if (("runqueues" in pcpu) && ("kernel_cpustat" in pcpu))
			print "WL_PCPU_RUNQUEUES_FROM_KERNEL_CPUSTAT",
			      "(" pcpu["runqueues"] - pcpu["kernel_cpustat"] ")"
		fp = resolve(func_proto["select_task_rq_fair"])
		for (i = 0; fp != "" && (fp, i) in param; i++)
			print "WL_STRF_ARG_" toupper(param[fp, i]), i
	}'
}

# The layout from layout_src.s, System.map and fair.c.
from_source() {
	sed -n 's/.*"->\([A-Z0-9_]*\) [$#]*\(-\{0,1\}[0-9][0-9]*\) .*/\1 \2/p' \
		"$offsets"
	if [ -n "$sysmap" ] && [ -r "$sysmap" ]; then
		local rq ks
		rq=$(awk '$3 == "runqueues" { print $1; exit }' "$sysmap")
		ks=$(awk '$3 == "kernel_cpustat" { print $1; exit }' "$sysmap")
		[ -z "$rq" ] || [ -z "$ks" ] ||
			echo "WL_PCPU_RUNQUEUES_FROM_KERNEL_CPUSTAT ($((16#$rq - 16#$ks)))"
	fi
	if [ -n "$fair" ] && [ -r "$fair" ]; then
		sed -n 's/^select_task_rq_fair(\([^)]*\)).*/\1/p' "$fair" |
			head -n 1 | tr ',' '\n' |
			sed 's/.*[ *]\([a-z_]*\)[[:space:]]*$/\1/' |
			awk '{ print "WL_STRF_ARG_" toupper($1), NR - 1 }'
	fi
}

# WF_TTWU and WF_SYNC from sched.h, plain literals only.
wake_flags() {
	[ -n "$sched_h" ] && [ -r "$sched_h" ] || return 0
	sed -n 's/^#define[[:space:]]\{1,\}\(WF_TTWU\|WF_SYNC\)[[:space:]]\{1,\}\(0x[0-9a-fA-F]\{1,\}\|[0-9]\{1,\}\)\([[:space:]].*\)\{0,1\}$/WL_\1 \2/p' \
		"$sched_h"
}

if [ -n "$btf" ]; then
	[ -r "$btf" ] || { echo "${0##*/}: cannot read $btf" >&2; exit 1; }
	command -v bpftool >/dev/null ||
		{ echo "${0##*/}: bpftool not found (apt-get install bpftool)" >&2; exit 1; }
	lines=$(from_btf "$btf") ||
		{ echo "${0##*/}: $btf: cannot read its BTF" >&2; exit 1; }
	[ -n "$lines" ] ||
		{ echo "${0##*/}: $btf: no runqueues in its BTF" >&2; exit 1; }
	source_line=$(define WL_LAYOUT_SOURCE '"btf"')
elif [ -n "$offsets" ]; then
	lines=$(from_source)
	source_line=$(define WL_LAYOUT_SOURCE '"sched.h"')
else
	lines=""
	source_line=$(define WL_LAYOUT_NONE "\"${none:-no_layout}\"")
fi
lines+=$'\n'$(wake_flags)

echo "/* SPDX-License-Identifier: GPL-2.0 */"
echo "/* Generated by module/gen_layout.sh; do not edit. */"
echo "#ifndef WAKELAB_LAYOUT_H"
echo "#define WAKELAB_LAYOUT_H"
echo
echo "$source_line"
printf '%s\n' "$lines" | awk 'NF == 2 { printf "#define %s %s\n", $1, $2 }'
echo
echo "#endif /* WAKELAB_LAYOUT_H */"
