# SPDX-License-Identifier: GPL-2.0
#
# The option parser every wakelab script uses, host side (through
# scripts/lib.sh) and guest side (scripts/vm installs this file as
# /wakelab/options.sh next to /wakelab/guest/): POSIX sh, sourced, never
# executed.  Long options only, "--name" or "--name VALUE".  The script
# defines usage(), which prints its options with their defaults, and
# option(), which takes one option's name (without the dashes) and value:
#
#	option() {
#		case $1 in
#		rounds) wl_posint --rounds "$2"; rounds=$2 ;;
#		quiet) quiet=1 ;;
#		esac
#	}
#	wl_options "quiet" "rounds" "$@"
#	shift "$wl_nopt"
#
# -h/--help prints usage() to stdout and exits 0; an unknown option, a
# missing or bad value, or an operand where the script takes none
# (wl_operands unset) prints the reason and usage() to stderr and exits 2.

wl_usage_error() {
	echo "${0##*/}: error: $*" >&2
	usage >&2
	exit 2
}

# wl_options FLAGS VALUED ARGS...: FLAGS and VALUED are the names of the
# options without and with a value, separated by spaces.  Parses ARGS up to
# "--" (consumed) or the first operand; leaves the count of the arguments
# it consumed in wl_nopt.
wl_options() {
	wl_flags=" $1 "
	wl_valued=" $2 "
	shift 2
	wl_nopt=0
	while [ $# -gt 0 ]; do
		case $1 in
		-h|--help) usage; exit 0 ;;
		--) wl_nopt=$((wl_nopt + 1)); return 0 ;;
		--?*) ;;
		-*) wl_usage_error "unknown option '$1'" ;;
		*)
			[ -n "${wl_operands:-}" ] ||
				wl_usage_error "unexpected argument '$1'"
			return 0 ;;
		esac
		case $wl_flags in
		*" ${1#--} "*)
			option "${1#--}"
			shift
			wl_nopt=$((wl_nopt + 1))
			continue ;;
		esac
		case $wl_valued in
		*" ${1#--} "*)
			[ $# -ge 2 ] || wl_usage_error "$1 needs a value"
			option "${1#--}" "$2"
			shift 2
			wl_nopt=$((wl_nopt + 2))
			continue ;;
		esac
		wl_usage_error "unknown option '$1'"
	done
}

# wl_posint OPTION VALUE: VALUE is a whole number >= 1.
wl_posint() {
	case $2 in
	''|0*|*[!0-9]*) wl_usage_error "$1 needs a positive integer, got '$2'" ;;
	esac
}

# wl_count OPTION VALUE: VALUE is a whole number >= 0.
wl_count() {
	case $2 in
	''|*[!0-9]*) wl_usage_error "$1 needs a non-negative integer, got '$2'" ;;
	esac
}

# wl_seconds OPTION VALUE: VALUE is a number of seconds (fractions allowed).
wl_seconds() {
	case $2 in
	''|.*|*.|*[!0-9.]*|*.*.*) wl_usage_error "$1 needs seconds, got '$2'" ;;
	esac
}
