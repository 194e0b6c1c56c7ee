#!/bin/sh
# The serial stage against the committed reference of the small deck.
. "$top_srcdir/tests/lib.sh"
ref=$top_srcdir/data/heat/ref/small

# The references themselves are what was committed.
( cd "$ref" && sha256sum --quiet -c SHA256SUMS ) || { echo "FAIL: data/heat/ref/small does not match its SHA256SUMS"; exit 1; }

expect 0 "stage serial, deck small" "$APOD" run --stage=serial --deck="$top_srcdir/data/heat/small.deck" --out="$work/serial"
expect 0 "PASS" "$APOD" verify "$ref" "$work/serial"
# The snapshots asked for by the deck (every 40 of 120 steps) are there.
for s in 40 80 120; do
	f=$(printf '%s/serial/snap_%09d.npy' "$work" "$s")
	[ -s "$f" ] || { echo "FAIL: missing snapshot $f"; fails=$((fails + 1)); }
done
# A different deck is refused by name rather than compared.
"$APOD" run --stage=serial --deck="$top_srcdir/tests/decks/tiny.deck" --out="$work/tiny" >/dev/null || fails=$((fails + 1))
expect 2 "ran different decks" "$APOD" verify "$ref" "$work/tiny"
# So is a run of the same grid with a hotter edge.
sed 's/^t_hot.*/t_hot = 120/' "$top_srcdir/data/heat/small.deck" > "$work/hot.deck"
"$APOD" run --stage=serial --deck="$work/hot.deck" --out="$work/hot" >/dev/null || fails=$((fails + 1))
expect 2 "ran different decks" "$APOD" verify "$ref" "$work/hot"
# A corrupted result is caught: flip the final field's last cell.
cp -r "$work/serial" "$work/bad"
printf '\377\377\177\177' | dd of="$work/bad/field.npy" bs=1 seek=$(( $(stat -c %s "$work/bad/field.npy") - 4 )) conv=notrunc 2>/dev/null
expect 1 "FAIL" "$APOD" verify "$ref" "$work/bad"
finish
