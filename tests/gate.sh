#!/bin/sh
# The gate of every workload in cpu/workloads.def, driven by the list: for
# each one with a small deck (its fragment's NAME_small_deck), the serial
# stage against its committed reference (NAME_ref, checked against its
# SHA256SUMS first), then every other stage that can run here against that
# serial run and the reference.  A stage of several processes (mpi, mgpu)
# is left to its own test.  $APOD_WORKLOAD_FACTS comes from the Makefile:
# NAME:DECK:REF for each workload of the list, DECK and REF empty where it
# has none.  heat's gate-serial.sh, gate-omp.sh and gate-gpu.sh hold more
# of heat's own promises (snapshots, stats_every, bit-for-bit omp).
. "$top_srcdir/tests/lib.sh"
: "${APOD_WORKLOAD_FACTS:?run through make check}"
listed=$("$APOD" workloads | awk '/^[a-z]/ {print $1}')
for fact in $APOD_WORKLOAD_FACTS; do
	w=${fact%%:*} rest=${fact#*:}
	deck=${rest%%:*} ref=${rest#*:}
	echo "$listed" | grep -qx "$w" || { echo "FAIL: $w is in the list but 'apod workloads' does not list it"; fails=$((fails + 1)); continue; }
	if [ -z "$deck" ]; then
		echo "$w: no small deck; its own test runs its gate"
		continue
	fi
	set -- --workload="$w" --deck="$top_srcdir/$deck"
	expect 0 "stage serial" "$APOD" run --stage=serial "$@" --out="$work/$w-serial"
	if [ -n "$ref" ]; then
		( cd "$top_srcdir/$ref" && sha256sum --quiet -c SHA256SUMS ) ||
			{ echo "FAIL: $ref does not match its SHA256SUMS"; fails=$((fails + 1)); }
		expect 0 "PASS" "$APOD" verify "$top_srcdir/$ref" "$work/$w-serial"
	fi
	for s in $("$APOD" stages --workload="$w" | awk '$2 == "available" {print $1}'); do
		case $s in serial | mpi | mgpu) continue ;; esac
		OMP_NUM_THREADS=3 expect 0 "stage $s" "$APOD" run --stage="$s" "$@" --out="$work/$w-$s"
		expect 0 "PASS" "$APOD" verify "$work/$w-serial" "$work/$w-$s"
		[ -z "$ref" ] || expect 0 "PASS" "$APOD" verify "$top_srcdir/$ref" "$work/$w-$s"
		rm -rf "$work/$w-$s"
	done
	rm -rf "$work/$w-serial"
done
finish
