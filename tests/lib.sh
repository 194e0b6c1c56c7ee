# Helpers for the shell tests.  $APOD and $top_srcdir come from the Makefile.
set -u
: "${APOD:?run through make check}"
: "${top_srcdir:?run through make check}"
fails=0
work=$(mktemp -d "${TMPDIR:-/tmp}/apod-test-XXXXXX")
trap 'rm -rf "$work"' EXIT

# expect STATUS FRAGMENT CMD...: CMD exits with STATUS and prints FRAGMENT
# (stdout or stderr).
expect() {
	want=$1 fragment=$2
	shift 2
	"$@" >"$work/out" 2>&1
	got=$?
	if [ "$got" != "$want" ]; then
		echo "FAIL: '$*' exited $got, expected $want"; sed 's/^/  | /' "$work/out"
		fails=$((fails + 1))
	elif ! grep -qF -- "$fragment" "$work/out"; then
		echo "FAIL: '$*' did not say: $fragment"; sed 's/^/  | /' "$work/out"
		fails=$((fails + 1))
	else
		echo "ok: $* -> $got ($fragment)"
	fi
}

# check WHAT CMD...: CMD succeeds (outdir-lib.sh and trace.sh define their
# own check, over an expression and a report).
check() {
	what=$1; shift
	if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; fails=$((fails + 1)); fi
}

# rows FILE: the data rows of a .dat file; cols FILE: the distinct counts of
# columns over those rows.
rows() { grep -vc '^#' "$1"; }
cols() { grep -v '^#' "$1" | awk '{print NF}' | sort -u | tr '\n' ' '; }

finish() {
	if [ "$fails" -ne 0 ]; then
		echo "$fails check(s) failed"
		exit 1
	fi
	exit 0
}
