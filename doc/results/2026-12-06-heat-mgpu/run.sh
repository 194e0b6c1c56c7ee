#!/bin/bash
# Issue 33, item 2: heat's mgpu on gpu4's fused kernels, its halos under
# the middle band, its statistics reduced on the GPUs and collected as
# deferred probes.  Runs on one GPU (mgpu at 1 rank) or two (1 and 2
# ranks), from the repository's root with a `make dist` tarball in .device/:
#   bash .device/on-gpu bash doc/results/2026-12-06-heat-mgpu/run.sh
# 1. The gate: mgpu against serial on the small deck, on widths that take
#    the one-column kernel (odd) and the 16-byte one, and on grids so thin
#    that a rank holds one or two interior rows; at 1 and 2 ranks, both on
#    the one GPU where there is one (APOD_MGPU_SHARE_GPU=1, NCCL's sockets).
# 2. Time a step (genTimeStep + calcStats + calcSummaryData, host clocks,
#    the deck's statistics every step and zones every 10): gpu4 and mgpu on
#    2048^2 and 8192^2 (strong), and 8192 rows a GPU (weak).
# 3. make check and make check-sanitize.
# 4. On two GPUs: the table with mgpu's weak point at 2 ranks beside
#    Gustafson's bound (--ranks=2), and scale's strong and weak curves.
# 5. A short check-gpu-decks, and gpu4's kernels against their record (the
#    kernels' bodies were shared with mgpu's bands).
# PARTS=1234 by default (PARTS=12345 adds the fifth); TSTEPS (100) the
# fourth's steps; SANITIZE=no leaves
# check-sanitize out of the third.
. doc/results/prelude.sh
export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
NGPU=$(nvidia-smi -L | grep -c '^GPU')
MAXNP=$((NGPU < 2 ? NGPU : 2))
SHARE=$((NGPU < 2 ? 1 : 0))
MPI="mpirun --bind-to none -x NCCL_NVLS_ENABLE -x LD_LIBRARY_PATH"
PARTS=${PARTS:-1234}
./apod stages > "$RES/stages.txt" 2>&1
grep -A1 '^mgpu' "$RES/stages.txt"

# gate NAME DIR REF: apod verify REF DIR, its verdict printed.
gate() {
	timeout 60 ./apod verify "$3" "$2" > "$RES/$1.txt" 2>&1
	echo "  verify $1: rc=$? $(grep -E -m1 'PASS|FAIL|BROKEN' "$RES/$1.txt")"
}
# per_step NAME STEPS: a step's seconds, the step's phase and the probes'.
per_step() {
	awk -v s="$2" -v n="$1" '$1 ~ /^(genTimeStep|calcStats|calcSummaryData)$/ && !seen[$1]++ { t += $2 }
		END { printf "  %s: %.1f us a step\n", n, 1e6 * t / s }' "$RES/$1.txt" | tee -a "$RES/steps.txt"
}

if [[ $PARTS == *1* ]]; then
	G=/tmp/gate
	rm -rf "$G"
	for g in "small:" "odd:--size=301x97 --steps=30 --snapshot_every=10" \
	         "vec:--size=1024x515 --steps=25" "thin:--size=64x5 --steps=12 --zones=2x1" \
	         "thin4:--size=64x6 --steps=12 --zones=1x1"; do
		n=${g%%:*}; o=${g#*:}
		record serial-$n 60 ./apod run --stage=serial --deck=data/small.deck $o --out=$G/serial-$n
		for np in 1 2; do
			# The transport NCCL chose, once: NCCL_DEBUG's INIT lines.
			dbg=WARN
			[ "$n$np" = small2 ] && dbg=INFO
			record mgpu$np-$n 90 env APOD_MGPU_SHARE_GPU=$SHARE NCCL_DEBUG=$dbg NCCL_DEBUG_SUBSYS=INIT $MPI \
				-x APOD_MGPU_SHARE_GPU -x NCCL_DEBUG -x NCCL_DEBUG_SUBSYS -np $np \
				./apod run --stage=mgpu --deck=data/small.deck $o --out=$G/mgpu$np-$n
			gate gate-mgpu$np-$n $G/mgpu$np-$n $G/serial-$n
		done
		[ "$n" = small ] && echo "  NCCL at 2 ranks: $(grep -oE 'via [A-Za-z/]+' "$RES/mgpu2-small.txt" | sort | uniq -c | tr '\n' ' ')"
	done
	gate gate-mgpu1-ref $G/mgpu1-small data/ref/small
	gate gate-mgpu2-ref $G/mgpu2-small data/ref/small
fi

if [[ $PARTS == *2* ]]; then
	for g in 2048x2048:300 8192x8192:200; do
		s=${g%%:*}; n=${g##*:}
		O="--deck=data/medium.deck --size=$s --steps=$n --snapshot_every=0"
		record gpu4-$s 60 ./apod run --stage=gpu4 $O
		per_step gpu4-$s $n
		for np in $(seq 1 $MAXNP); do
			record mgpu$np-$s 90 $MPI -np $np ./apod run --stage=mgpu $O
			per_step mgpu$np-$s $n
		done
	done
	if [ "$NGPU" -ge 2 ]; then
		record mgpu2-weak 90 $MPI -np 2 ./apod run --stage=mgpu --deck=data/medium.deck --size=8192x16384 \
			--steps=200 --snapshot_every=0
		per_step mgpu2-weak 200
	fi
	cat "$RES/steps.txt"
fi

[[ $PARTS == *3* ]] && make_check 200
if [[ $PARTS == *3* ]] && [ "${SANITIZE:-yes}" = yes ]; then
	T=$(date +%s)
	timeout 150 make check-sanitize > "$RES/sanitize.txt" 2>&1
	echo "check-sanitize rc=$? in $(( $(date +%s) - T )) s"
	grep -E "ERROR SUMMARY: [1-9]|check-sanitize" "$RES/sanitize.txt" | tail -5
	pack
fi
if [[ $PARTS == *5* ]]; then
	record gpu-decks 100 env SPACE_SECONDS=60 make check-gpu-decks
	record heat-kernels-large 60 ./apod bench --deck=data/large.deck --kernels --json="$RES/heat-kernels-large.json"
fi

if [[ $PARTS == *4* ]] && [ "$NGPU" -ge 2 ]; then
	export APOD_MPIRUN_ARGS="--bind-to none -x NCCL_NVLS_ENABLE -x LD_LIBRARY_PATH"
	record table-ranks2 200 ./apod table --deck=data/medium.deck --size=8192x8192 --steps=${TSTEPS:-100} \
		--ranks=2 --json="$RES/table-ranks2.json"
	record scale-mgpu 200 ./apod scale --deck=data/medium.deck --size=8192x8192 --steps=${TSTEPS:-100} \
		--stage=mgpu --ranks=1,2 --reps=3 --json="$RES/scale-mgpu.json"
fi
pack
