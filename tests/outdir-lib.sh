# Helpers for the results directory tests (tests/outdir*.sh), after lib.sh.

# whole DIR: its record is sealed and names exactly what DIR holds.
whole() {
	[ -f "$1/.apod-manifest" ] && [ "$(tail -n 1 "$1/.apod-manifest")" = end ] || return 1
	sed '1d;$d' "$1/.apod-manifest" | sort -u > "$work/named"
	(cd "$1" && ls) > "$work/held"
	cmp -s "$work/named" "$work/held"
}
# leftovers PARENT: how many staging directories of 'res' are in PARENT.
leftovers() { ls -A "$1" | grep -c '^\.res\.apod-'; }
# check WHAT CONDITION: count a failure unless CONDITION (a shell string) holds.
check() {
	if eval "$2"; then echo "ok: $1"; else echo "FAIL: $1"; fails=$((fails + 1)); fi
}
