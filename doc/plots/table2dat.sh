#!/bin/sh
# table2dat.sh TABLE.json: the APOD table's JSON (`apod --json=TABLE.json`)
# as a whitespace data file for doc/plots/ladder.gp, on stdout: one row a
# stage that ran, in ladder order.  POSIX sh and awk only: the JSON is
# json-c's pretty print (apod_json_write), one key a line, two spaces a
# level, which is all this reads.
#
# The first line is a comment naming the workload and the host's cores;
# then the columns:
#   1 index  2 stage  3 total_seconds  4 speedup_vs_serial  5 amdahl_at_n
#   6 amdahl_limit (NaN where unbounded: the table writes -1 there)
#   7 the speed-of-light speedup ("speed_of_light"."speedup"; NaN where the
#     row has none: a table from before it, or a why_not)
# amdahl_at_n is NaN where the table wrote -1 (no bound).
set -u
if [ $# -ne 1 ] || [ ! -r "$1" ]; then
	echo "usage: table2dat.sh TABLE.json (the JSON of 'apod --json=TABLE.json')" >&2
	exit 2
fi
awk '
# A copy of the line with every string emptied, to count its brackets.
function bare(s) { gsub(/"([^"\\]|\\.)*"/, "\"\"", s); return s }
function value(s) { sub(/^ *"[^"]*": */, "", s); sub(/, *$/, "", s); gsub(/"/, "", s); return s }
/^  "workload": *"/ { workload = value($0) }
/^  "host_cores": */ { cores = value($0) }
/^  "stages": *\[/ { in_stages = 1; depth = 0; next }
in_stages {
	# A key of a row (depth 1), or of its speed_of_light (depth 2), read
	# before the line opens anything.
	if (depth == 1) {
		inner = ""
		if (match($0, /^ *"[A-Za-z0-9_]+": */)) {
			key = $0; sub(/^ *"/, "", key); sub(/".*/, "", key)
			row[key] = value($0)
			inner = key
		}
	} else if (depth == 2 && inner == "speed_of_light" && match($0, /^ *"[A-Za-z0-9_]+": */)) {
		key = $0; sub(/^ *"/, "", key); sub(/".*/, "", key)
		row["sol_" key] = value($0)
	}
	b = bare($0)
	opens = gsub(/[[{]/, "", b)
	closes = gsub(/[]}]/, "", b)
	before = depth
	depth += opens - closes
	if (before >= 1 && depth == 0) {
		if (row["ran"] == "true") {
			lim = row["amdahl_limit"] + 0 < 0 ? "NaN" : row["amdahl_limit"]
			atn = row["amdahl_at_n"] + 0 < 0 ? "NaN" : row["amdahl_at_n"]
			sol = ("sol_speedup" in row) && row["sol_speedup"] + 0 > 0 ? row["sol_speedup"] : "NaN"
			rows[++n] = sprintf("%d %s %s %s %s %s %s", n, row["stage"], row["total_seconds"],
			                    row["speedup_vs_serial"], atn, lim, sol)
		}
		split("", row)
	}
	if (depth < 0)
		in_stages = 0
}
END {
	if (n == 0) {
		print "table2dat.sh: no stage that ran in " FILENAME " (is it the JSON of apod --json=FILE?)" > "/dev/stderr"
		exit 1
	}
	printf "# workload %s, %s cores\n", workload == "" ? "?" : workload, cores == "" ? "?" : cores
	print "# 1 index  2 stage  3 total_seconds  4 speedup_vs_serial  5 amdahl_at_n  6 amdahl_limit  7 sol_speedup"
	for (i = 1; i <= n; i++)
		print rows[i]
}' "$1"
