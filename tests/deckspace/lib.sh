# The deck-space test's runner, sourced after tests/lib.sh by
# tests/deck-space.sh (host stages, in make check) and
# tests/gpu-deck-space.sh (every stage, make check-gpu-decks).
#
# space_deck W DECK STAGE...: run DECK through serial, then through each
# STAGE, and hold each stage's results to serial's with `apod verify` (the
# gate).  A deck serial refuses with a usage error (exit 2: too big for
# memory, one temperature and no range) is counted as refused and skipped.
# A stage may refuse a deck serial ran only with exit 2 and a message (a
# documented limit, as gpu5's widths); anything else (a signal, exit 1, a
# hang past SPACE_TIMEOUT seconds, a FAIL of the gate) fails the test, and
# the deck is copied to $SPACE_KEEP as a regression deck.
# Counters: space_decks, space_runs, space_refused, space_failed.
space_decks=0 space_runs=0 space_refused=0 space_failed=0 space_skipped=0
SPACE_TIMEOUT=${SPACE_TIMEOUT:-300}
SPACE_KEEP=${SPACE_KEEP:-deck-space-failures}
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM

# How a stage is started: mpi at 2 ranks and mgpu at as many ranks as
# SPACE_MGPU_RANKS (default 1) under mpirun, passing APOD_MGPU_SHARE_GPU on
# where it is set, the rest as they are.
space_launch() {
	case $1 in
	mpi) echo "timeout $SPACE_TIMEOUT ${APOD_MPIRUN:-mpirun} -np 2 --oversubscribe --bind-to none --mca btl self,vader" ;;
	mgpu) echo "timeout $SPACE_TIMEOUT ${APOD_MPIRUN:-mpirun} -np ${SPACE_MGPU_RANKS:-1} --oversubscribe --bind-to none" \
		"${APOD_MGPU_SHARE_GPU:+-x APOD_MGPU_SHARE_GPU}" ;;
	*) echo "timeout $SPACE_TIMEOUT" ;;
	esac
}

# The refusal's own line (mpirun adds its banner after it).
space_why() {
	grep -m1 '^apod' "$1" || grep -v '^-*$' "$1" | tail -1
}

space_keep() {
	mkdir -p "$SPACE_KEEP"
	cp "$2" "$SPACE_KEEP/$1-$(basename "$2" .deck)-$3.deck"
	space_failed=$((space_failed + 1))
	fails=$((fails + 1))
}

space_deck() {
	w=$1 deck=$2
	shift 2
	d=$work/space
	rm -rf "$d"
	mkdir -p "$d"
	space_decks=$((space_decks + 1))
	timeout "$SPACE_TIMEOUT" "$APOD" run --workload="$w" --stage=serial --deck="$deck" --out="$d/serial" \
		>"$d/log" 2>&1
	rc=$?
	space_runs=$((space_runs + 1))
	case $rc in
	0) ;;
	2)
		space_skipped=$((space_skipped + 1))
		echo "refused by serial: $w $(basename "$deck"): $(space_why "$d/log")"
		return 0 ;;
	*)
		echo "FAIL: $w serial exited $rc on $deck:"; sed 's/^/  | /' "$deck" "$d/log" | tail -40
		space_keep "$w" "$deck" serial
		return 0 ;;
	esac
	for s in "$@"; do
		# shellcheck disable=SC2046
		$(space_launch "$s") "$APOD" run --workload="$w" --stage="$s" --deck="$deck" --out="$d/$s" \
			>"$d/log" 2>&1
		rc=$?
		space_runs=$((space_runs + 1))
		if [ $rc -eq 2 ] && grep -q . "$d/log"; then
			space_refused=$((space_refused + 1))
			echo "refused by $s: $w $(basename "$deck"): $(space_why "$d/log")"
		elif [ $rc -ne 0 ]; then
			echo "FAIL: $w $s exited $rc$([ $rc -eq 124 ] && echo ' (timed out)')$([ $rc -gt 128 ] && echo " (signal $((rc - 128)))") on $deck:"
			sed 's/^/  | /' "$deck"; tail -20 "$d/log" | sed 's/^/  > /'
			space_keep "$w" "$deck" "$s"
		elif ! "$APOD" verify "$d/serial" "$d/$s" >"$d/verify" 2>&1; then
			echo "FAIL: $w $s does not pass the gate against serial on $deck:"
			sed 's/^/  | /' "$deck"; grep -v '^ *ok\|PASS' "$d/verify" | tail -20 | sed 's/^/  > /'
			space_keep "$w" "$deck" "$s"
		fi
		rm -rf "$d/$s"
	done
	rm -rf "$d"
}

# space_stages W KIND: the stages of W that `apod stages` says can run here,
# serial left out; KIND host: the CPU stages (omp, mpi), gpu: every stage.
space_stages() {
	"$APOD" stages --workload="$1" | awk -v kind="$2" -v mpi="${APOD_HAVE_MPI:-no}" '
		$2 == "available" && $1 != "serial" {
			if ($1 ~ /^(mpi|mgpu)$/ && mpi != "yes") next
			if (kind == "host" && $1 !~ /^(omp|mpi)$/) next
			printf "%s ", $1 }'
}

# space_sweep KIND SEED COUNT BUDGET CELLS SECONDS: COUNT decks of every
# workload from SEED, drawn by gen.awk from the workload's key table with
# BUDGET and CELLS, through the KIND stages, then the committed regression
# decks; stops drawing (the regression decks still run) once SECONDS have
# passed.  SPACE_WORKLOADS, where set, names the workloads to sweep (default:
# every one apod lists).  The generator knows each key's range but not the workload's
# checks across keys (zones that fit the grid, a low end below a high one),
# so it draws four times as many decks, and a workload's sweep ends when
# COUNT of them ran: the ones serial refuses cost a start each.
space_sweep() {
	kind=$1 seed=$2 count=$3 budget=$4 cells=$5 seconds=$6
	pool=$((count * 4))
	start=$(date +%s)
	mkdir -p "$work/decks"
	workloads=${SPACE_WORKLOADS:-$("$APOD" workloads | awk '/^[a-z]/ && NF > 1 {print $1}')}
	for w in $workloads; do
		eval "stages_$w=\$(space_stages $w $kind)"
		"$APOD" workloads --workload="$w" --json="$work/keys-$w.json" &&
			awk -v w="$w" -v seed="$seed" -v count="$pool" -v dir="$work/decks" -v budget="$budget" \
				-v cells="$cells" -f "$top_srcdir/tests/deckspace/gen.awk" "$work/keys-$w.json" ||
			{ echo "FAIL: gen.awk could not draw $w's decks"; fails=$((fails + 1)); }
		eval "echo \"== $w: up to $count decks from seed $seed through serial and: \$stages_$w\""
		eval "ran_$w=0"
	done
	# Round robin over the workloads, so that a time budget spent early
	# still leaves every workload some decks.
	i=1 more=1
	while [ $more = 1 ] && [ $i -le "$pool" ] && [ $(($(date +%s) - start)) -lt "$seconds" ]; do
		more=0
		for w in $workloads; do
			deck=$(printf '%s/%s-%03d.deck' "$work/decks" "$w" $i)
			eval "ran=\$ran_$w"
			[ -f "$deck" ] && [ "$ran" -lt "$count" ] || continue
			more=1 skipped=$space_skipped
			eval "space_deck $w \"$deck\" \$stages_$w"
			[ "$space_skipped" -gt "$skipped" ] || eval "ran_$w=$((ran + 1))"
		done
		i=$((i + 1))
	done
	for w in $workloads; do
		eval "ran=\$ran_$w"
		[ "$ran" -ge "$count" ] || echo "$w: $ran decks of $count ran ($((i - 1)) drawn)"
	done
	for deck in "$top_srcdir"/tests/deckspace/regress/*.deck; do
		[ -f "$deck" ] || continue
		w=$(basename "$deck" | sed 's/-.*//')
		case " $workloads " in *" $w "*) ;; *) continue ;; esac
		echo "== regression deck $(basename "$deck")"
		space_deck "$w" "$deck" $(space_stages "$w" "$kind")
	done
	echo "deck space: $space_decks decks, $space_runs runs, $space_skipped refused by serial," \
		"$space_refused refused by a stage, $space_failed failed in $(($(date +%s) - start)) s"
	[ "$space_failed" -eq 0 ] || echo "the failing decks are in $SPACE_KEEP/: commit them to tests/deckspace/regress/ with the fix"
}
