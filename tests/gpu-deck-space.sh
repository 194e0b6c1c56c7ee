#!/bin/sh
# Every stage of every workload, the GPU stages included, over the deck
# space (tests/deck-space.sh's sweep with a larger budget: grids up to 4M
# cells, the largest edge of every key that fits), for `make
# check-gpu-decks` on a GPU machine: about 5 minutes on the H200 by default
# (SPACE_SECONDS), from a fixed seed (SPACE_SEED), then the regression decks;
# mgpu at SPACE_MGPU_RANKS ranks (2).
# Skips (77) where no GPU stage can run.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/deckspace/lib.sh"
if ! "$APOD" stages --workload=heat | grep -q '^gpu[0-9] *available'; then
	echo "SKIP: no GPU stage can run here:"; "$APOD" stages | grep 'why:' | head -1
	exit 77
fi
SPACE_KEEP=${SPACE_KEEP:-$PWD/deck-space-failures}
# mgpu at 2 ranks: its halos and reductions across ranks on every deck,
# both ranks on the one GPU where there is one (APOD_MGPU_SHARE_GPU=1 takes
# effect only where the ranks outnumber the GPUs).
SPACE_MGPU_RANKS=${SPACE_MGPU_RANKS:-2}
APOD_MGPU_SHARE_GPU=${APOD_MGPU_SHARE_GPU:-1}
export SPACE_MGPU_RANKS APOD_MGPU_SHARE_GPU
space_sweep gpu "${SPACE_SEED:-20261128}" "${SPACE_DECKS:-400}" "${SPACE_BUDGET:-30000000}" \
	"${SPACE_CELLS:-4000000}" "${SPACE_SECONDS:-300}"
finish
