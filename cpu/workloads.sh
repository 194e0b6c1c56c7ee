#!/bin/sh
# workloads.sh [SRCDIR]: write SRCDIR/cpu/workloads.mk, the automake
# includes of every workload's fragment (cpu/NAME/local.mk), from the list
# in SRCDIR/cpu/workloads.def.  Run by bootstrap, and by make when the list
# changes.  Fails, naming it, where a listed workload has no fragment.
set -eu
top=${1:-.}
def=$top/cpu/workloads.def
names=$(sed -n 's/^APOD_WORKLOAD(\([A-Za-z_][A-Za-z0-9_]*\)).*/\1/p' "$def")
[ -n "$names" ] || { echo "workloads.sh: no APOD_WORKLOAD(name) line in $def" >&2; exit 1; }
tmp=$top/cpu/workloads.mk.tmp
{
	echo "# Made by cpu/workloads.sh from cpu/workloads.def: do not edit."
	echo "apod_workloads =" $names
	for w in $names; do
		[ -f "$top/cpu/$w/local.mk" ] ||
			{ echo "workloads.sh: $w is listed in cpu/workloads.def but cpu/$w/local.mk is missing" >&2; exit 1; }
		echo "include \$(srcdir)/cpu/$w/local.mk"
	done
} > "$tmp"
if cmp -s "$tmp" "$top/cpu/workloads.mk"; then rm -f "$tmp"; else mv -f "$tmp" "$top/cpu/workloads.mk"; fi
