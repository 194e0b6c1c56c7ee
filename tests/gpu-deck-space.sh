#!/bin/sh
# Every stage of every workload, the GPU stages included, over the deck
# space (tests/deck-space.sh's sweep with a larger budget: grids up to 4M
# cells, the largest edge of every key that fits), for `make
# check-gpu-decks` on a GPU machine: about 5 minutes on the H200 by default
# (SPACE_SECONDS), from a fixed seed (SPACE_SEED), then the regression decks.
# Skips (77) where no GPU stage can run.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/deckspace/lib.sh"
if ! "$APOD" stages --workload=heat | grep -q '^gpu[0-9] *available'; then
	echo "SKIP: no GPU stage can run here:"; "$APOD" stages | grep 'why:' | head -1
	exit 77
fi
SPACE_KEEP=${SPACE_KEEP:-$PWD/deck-space-failures}
space_sweep gpu "${SPACE_SEED:-20261128}" "${SPACE_DECKS:-400}" "${SPACE_BUDGET:-30000000}" \
	"${SPACE_CELLS:-4000000}" "${SPACE_SECONDS:-300}"
finish
