#!/bin/sh
# Heat's mpi stage under mpirun at 2, 4 and 8 ranks (more ranks than this
# machine's cores: --oversubscribe).  The field and every statistic must
# match serial bit for bit (doc/multigpu.md says why they can), so the
# results are compared with serial's byte for byte as well as through the
# gate (with serial, and with the committed reference).  Failures: too many
# ranks for the rows, and a results directory that rank 0 cannot make, end
# every rank with one message and never hang; nor do ranks given different
# decks (ranks given different command lines: tests/ranks.sh).
. "$top_srcdir/tests/lib.sh"
deck=$top_srcdir/data/heat/small.deck
ref=$top_srcdir/data/heat/ref/small

[ "${APOD_HAVE_MPI:-no}" = yes ] || { echo "SKIP: MPI was not found at configure time"; exit 77; }
"$APOD" stages | grep -q '^mpi *available' || { echo "FAIL: MPI was found but the mpi stage is unavailable"; exit 1; }
mpirun=${APOD_MPIRUN:-mpirun}
command -v "$mpirun" >/dev/null 2>&1 || { echo "SKIP: no mpirun ($mpirun)"; exit 77; }

# Open MPI does not free everything it allocates by MPI_Finalize (its
# components are unloaded first, so LeakSanitizer cannot even name them):
# in the sanitizers' build, runs that start MPI are not checked for leaks;
# addresses and undefined behaviour still are.
if [ "${APOD_SANITIZE:-no}" = yes ]; then
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	export ASAN_OPTIONS
fi
# CI runs as root, which Open MPI refuses unless told; in a container the
# shared-memory and self transports are the ones that work.
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
run_np() {
	np=$1
	shift
	timeout 300 "$mpirun" -np "$np" --oversubscribe --mca btl self,vader "$@"
}

expect 0 "stage serial" "$APOD" run --stage=serial --deck="$deck" --out="$work/serial"

# Outside mpirun the stage is one rank (MPI's singleton start).
expect 0 "stage mpi" "$APOD" run --stage=mpi --deck="$deck" --out="$work/mpi1"
for np in 2 4 8; do
	# 2 threads a rank at 2 ranks, 1 at 4 and 8: all split the rows unevenly.
	threads=$((np < 4 ? 4 / np : 1))
	OMP_NUM_THREADS=$threads expect 0 "stage mpi" run_np $np "$APOD" run --stage=mpi --deck="$deck" --out="$work/mpi$np"
	# Rank 0 alone printed: one table.
	n=$(grep -c "^workload heat, stage mpi" "$work/out")
	[ "$n" = 1 ] || { echo "FAIL: $np ranks printed $n tables, not 1"; fails=$((fails + 1)); }
done
for np in 1 2 4 8; do
	expect 0 "0 of 64351 values differ" "$APOD" verify "$work/serial" "$work/mpi$np"
	expect 0 "PASS" "$APOD" verify "$ref" "$work/mpi$np"
	# Bit for bit with this build's serial run (whatever its precision): the
	# field, every statistic and the snapshots, byte for byte.
	for f in field.npy stats.csv hist.csv zones.csv snap_000000040.npy snap_000000080.npy \
		snap_000000120.npy; do
		if cmp -s "$work/serial/$f" "$work/mpi$np/$f"; then
			echo "ok: $np ranks: $f is serial's, byte for byte"
		else
			echo "FAIL: $np ranks: $f differs from serial's"; fails=$((fails + 1))
		fi
	done
done

# More ranks than interior rows: a usage error on every rank, said once.
expect 2 "4 ranks but the 9x4 grid has 2 interior rows" \
	run_np 4 "$APOD" run --stage=mpi --deck="$top_srcdir/tests/decks/tiny.deck" --size=9x4 --zones=1x1
n=$(grep -c "interior rows" "$work/out")
[ "$n" = 1 ] || { echo "FAIL: the too-many-ranks message came $n times, not once"; fails=$((fails + 1)); }
# Rank 0 cannot make the results directory: every rank stops, none waits.
: >"$work/a-file"
expect 1 "cannot create" run_np 2 "$APOD" run --stage=mpi --deck="$deck" --out="$work/a-file/x"
# One rank per interior row is allowed (2 ranks, 2 interior rows).
expect 0 "stage mpi" run_np 2 "$APOD" run --stage=mpi --deck="$top_srcdir/tests/decks/tiny.deck" --size=9x4 --zones=1x1

# Ranks given different decks hung, overflowed the gather or wrote results
# of no one deck: now every rank stops at once with a usage error that names
# the rank and the key, said once.  Different options are different command
# lines, refused before a stage is chosen (tests/ranks.sh); here the command
# lines are the same and the deck file each rank reads is not (a deck of
# one name that differs between hosts): each rank reads its own on fd 3.
tiny=$top_srcdir/tests/decks/tiny.deck
# deck_with KEY=VALUE FILE: the tiny deck with KEY set to VALUE, into FILE.
deck_with() {
	awk -v k="${1%%=*}" -v v="${1#*=}" '$1 == k { $0 = k " = " v; done = 1 } { print }
		END { if (!done) print k " = " v }' "$tiny" >"$2"
}
for kv in steps=5 alpha=0.1 size=12x9 summary_every=2; do
	deck_with "$kv" "$work/other.deck"
	expect 2 "ranks were given different decks: rank 1's differs from rank 0's (rank 1: ${kv%%=*} = ${kv#*=};" \
		timeout 120 "$mpirun" --oversubscribe --mca btl self,vader \
		-np 1 sh -c "exec \"\$0\" run --stage=mpi --deck=/dev/fd/3 3<\"\$1\"" "$APOD" "$tiny" \
		: -np 1 sh -c "exec \"\$0\" run --stage=mpi --deck=/dev/fd/3 3<\"\$1\"" "$APOD" "$work/other.deck"
	n=$(grep -c "different decks" "$work/out")
	[ "$n" = 1 ] || { echo "FAIL: the different-decks message came $n times, not once"; fails=$((fails + 1)); }
done
# Rank 2 of 3 alone differs (a larger grid): it is the one named.
deck_with size=12x9 "$work/other.deck"
expect 2 "rank 2's differs from rank 0's (rank 2: size = 12x9; rank 0: size = 9x9)" \
	timeout 120 "$mpirun" --oversubscribe --mca btl self,vader \
	-np 2 sh -c "exec \"\$0\" run --stage=mpi --deck=/dev/fd/3 3<\"\$1\"" "$APOD" "$tiny" \
	: -np 1 sh -c "exec \"\$0\" run --stage=mpi --deck=/dev/fd/3 3<\"\$1\"" "$APOD" "$work/other.deck"

# MPI starts only for the mpi stage: with a transport that cannot load,
# MPI_Init fails (the mpi stage cannot run) but serial never calls it.
OMPI_MCA_btl=no_such_transport expect 0 "stage serial" "$APOD" run --stage=serial --deck="$deck"
OMPI_MCA_btl=no_such_transport timeout 60 "$APOD" run --stage=mpi --deck="$deck" >"$work/out" 2>&1
rc=$?
if [ "$rc" = 0 ] || [ "$rc" = 124 ]; then
	echo "FAIL: mpi with a broken MPI exited $rc"; sed 's/^/  | /' "$work/out"; fails=$((fails + 1))
else
	echo "ok: mpi with a broken MPI exited $rc"
fi
finish
