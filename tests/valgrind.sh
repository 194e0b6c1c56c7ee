#!/bin/sh
# The serial stage is clean under valgrind's memcheck: no invalid access, no
# use of uninitialised memory, no definite leak, on a run that writes results.
. "$top_srcdir/tests/lib.sh"
command -v valgrind >/dev/null 2>&1 || { echo "SKIP: no valgrind"; exit 77; }
[ "${APOD_SANITIZE:-no}" = no ] || { echo "SKIP: a sanitizer build does not run under valgrind"; exit 77; }
expect 0 "stage serial" valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
	"$APOD" run --stage=serial --deck="$top_srcdir/data/heat/small.deck" --steps=20 --out="$work/v"
expect 0 "PASS" valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
	"$APOD" verify "$work/v" "$work/v"
expect 2 "unknown key" valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
	"$APOD" run --stage=serial --deck="$top_srcdir/tests/decks/unknown-key.deck"
# assess's failures after the deck is read free it (they once returned early and leaked it).
expect 1 "is not an executable" env APOD_PG=/nonexistent valgrind -q --error-exitcode=99 \
	--leak-check=full --errors-for-leak-kinds=definite \
	"$APOD" assess --deck="$top_srcdir/tests/decks/tiny.deck" --out="$work/prof"
: > "$work/plain"
expect 1 "" valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
	"$APOD" assess --deck="$top_srcdir/tests/decks/tiny.deck" --out="$work/plain/prof"
finish
