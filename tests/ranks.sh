#!/bin/sh
# Ranks started by a launcher agree on their whole command line before any
# of them chooses a stage.  Given different stages (one rank `--stage=mpi`,
# another `--stage=serial`: the serial one used to write its results while
# the mpi one waited in MPI's start until killed) or any other differing
# argument, every rank refuses at once with a message that names the rank
# and the first differing argument, and no results are written.  A stage of
# one process under several ranks is refused too.  Every launch has a
# timeout: a hang fails the test instead of hanging the suite.
. "$top_srcdir/tests/lib.sh"
deck=$top_srcdir/data/heat/small.deck
tiny=$top_srcdir/tests/decks/tiny.deck

# nothing_in DIR: the refused run wrote no results.
nothing_in() {
	if [ -e "$1" ]; then
		echo "FAIL: a refused run wrote $1:"; ls -la "$1" | sed 's/^/  | /'; fails=$((fails + 1))
	else
		echo "ok: no results in $(basename "$1")"
	fi
}

if [ "${APOD_HAVE_MPI:-no}" != yes ]; then
	# Without MPI no rank can compare: started as several, each refuses.
	expect 2 "a launcher started 2 processes of this program, whose apod library was built without MPI" \
		env OMPI_COMM_WORLD_SIZE=2 "$APOD" run --stage=serial --deck="$tiny" --out="$work/o"
	nothing_in "$work/o"
	expect 0 "stage serial" env PMI_SIZE=1 "$APOD" run --stage=serial --deck="$tiny"
	[ "$fails" -eq 0 ] || finish
	echo "SKIP: MPI was not found at configure time"
	exit 77
fi
mpirun=${APOD_MPIRUN:-mpirun}
command -v "$mpirun" >/dev/null 2>&1 || { echo "SKIP: no mpirun ($mpirun)"; exit 77; }
no_mpi_leak_check
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
launch() { timeout 120 "$mpirun" --oversubscribe --mca btl self,vader "$@"; }

# said_by N TEXT: every one of N ranks printed TEXT, each naming itself.
said_by() {
	for r in $(seq 0 $(($1 - 1))); do
		grep -F "rank $r of $1: " "$work/out" | grep -qF -- "$2" \
			|| { echo "FAIL: rank $r of $1 did not say: $2"; sed 's/^/  | /' "$work/out"; fails=$((fails + 1)); }
	done
}
# The issue's case: rank 0 (late, by 3 s) the mpi stage, rank 1 the same
# command line with --stage=serial added.  Both refuse; neither waits.
cd "$work" || exit 1
refused "rank 1's argument 5 is '--stage=serial', rank 0 has no argument 5" \
	launch -np 1 sh -c "sleep 3; exec \"\$0\" run --stage=mpi --deck=\"\$1\" --out=o" "$APOD" "$deck" \
	: -np 1 "$APOD" run --stage=mpi --deck="$deck" --out=o --stage=serial
said_by 2 "the ranks were given different command lines"
nothing_in "$work/o"

# The stage alone differs (serial on rank 1, mpi on rank 0).
refused "rank 1's argument 2 is '--stage=serial', rank 0's is '--stage=mpi'" \
	launch -np 1 "$APOD" run --stage=mpi --deck="$tiny" --out=o : -np 1 "$APOD" run --stage=serial \
	--deck="$tiny" --out=o
said_by 2 "different command lines"
nothing_in "$work/o"

# One value on the last of 3 ranks: it is the one named, on all 3.
refused "rank 2's argument 4 is '--steps=5', rank 0's is '--steps=4'" \
	launch -np 2 "$APOD" run --stage=mpi --deck="$tiny" --steps=4 --out=o \
	: -np 1 "$APOD" run --stage=mpi --deck="$tiny" --steps=5 --out=o
said_by 3 "rank 2's argument 4"
nothing_in "$work/o"

# A rank with an argument fewer; the command differs (table against run).
refused "rank 1 has no argument 4, rank 0's is '--out=o'" \
	launch -np 1 "$APOD" run --stage=mpi --deck="$tiny" --out=o : -np 1 "$APOD" run --stage=mpi --deck="$tiny"
refused "rank 1's argument 1 is 'table', rank 0's is 'run'" \
	launch -np 1 "$APOD" run --stage=mpi --deck="$tiny" : -np 1 "$APOD" table --stage=mpi --deck="$tiny"
nothing_in "$work/o"
# Bytes a terminal would hide are shown escaped.
refused "rank 1's argument 3 is '--steps=4\\x0a'" \
	launch -np 1 "$APOD" run --stage=mpi --steps=4 : -np 1 "$APOD" run --stage=mpi "--steps=4
"

# The same command line, but each rank's deck file holds other text (a deck
# of the same name on other hosts): the decks are still compared.
printf 'steps = 4\n' >"$work/d4"
printf 'steps = 6\n' >"$work/d6"
refused "ranks were given different decks: rank 1's differs from rank 0's (rank 1: steps = 6; rank 0: steps = 4)" \
	launch -np 1 sh -c "exec \"\$0\" run --stage=mpi --size=9x9 --deck=/dev/fd/3 3<\"\$1\"" "$APOD" "$work/d4" \
	: -np 1 sh -c "exec \"\$0\" run --stage=mpi --size=9x9 --deck=/dev/fd/3 3<\"\$1\"" "$APOD" "$work/d6"

# The same stage of one process on every rank: each would run it whole and
# write the same results; refused on every rank.
refused "stage serial runs as one process, but this is rank" \
	launch -np 2 "$APOD" run --stage=serial --deck="$tiny" --out=o
n=$(grep -c "stage serial runs as one process" "$work/out")
[ "$n" = 2 ] || { echo "FAIL: the one-process refusal came $n times, not on each of 2 ranks"; fails=$((fails + 1)); }
nothing_in "$work/o"

# Agreeing ranks run: the same command line on 3 ranks, verified.
expect 0 "stage serial" "$APOD" run --stage=serial --deck="$tiny" --out=s
expect 0 "stage mpi" launch -np 3 "$APOD" run --stage=mpi --deck="$tiny" --out=m3
expect 0 "PASS" "$APOD" verify s m3
# One rank under the launcher is a plain run, whatever its stage.
expect 0 "stage serial" launch -np 1 "$APOD" run --stage=serial --deck="$tiny" --out=s1
finish
