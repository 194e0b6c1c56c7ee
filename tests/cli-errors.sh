#!/bin/sh
# Every bad input gets one clear message and the right exit status:
# 2 for usage errors, 1 for failures of the run; never a crash.
. "$top_srcdir/tests/lib.sh"
d=$top_srcdir/tests/decks

expect 2 "unknown command 'frobnicate'" "$APOD" frobnicate
expect 2 "unknown option '--bogus'" "$APOD" --bogus
expect 2 "unknown option '--bogus'" "$APOD" run --stage=serial --bogus
expect 2 "needs a value" "$APOD" run --stage
expect 2 "which stage?" "$APOD" run
expect 2 "unknown stage 'gpu9'" "$APOD" run --stage=gpu9
expect 2 "unexpected argument 'extra'" "$APOD" run --stage=serial extra
# Each bad deck of tests/decks (and one that is not there), and what
# its refusal says.
while read -r deck fragment; do
	expect 2 "$fragment" "$APOD" run --stage=serial --deck="$d/$deck.deck" </dev/null
done <<'EOF'
missing cannot open
unknown-key unknown key 'wibble'
bad-number '12abc' is not a whole number
no-equals expected 'key = value'
binary control character
empty empty file
zero-size size: 0 is out of range
negative-size size: -5 is out of range
overflow-size is out of range
too-big bytes
huge-steps per-step statistics
unstable stable
EOF
# A deck named without its workload's folder: the refusal names the folder,
# and nothing is read from it.
expect 2 "heat's decks are in a folder of their own: $top_srcdir/data/heat/small.deck" \
	"$APOD" run --stage=serial --deck="$top_srcdir/data/small.deck"
expect 2 "--size: size: 0 is out of range" "$APOD" run --stage=serial --size=0x0
expect 2 "not of the form NXxNY" "$APOD" run --stage=serial --size=100
expect 2 "--steps: steps: -3 is out of range" "$APOD" run --stage=serial --steps=-3
expect 2 "--steps: steps: 0 is out of range" "$APOD" run --stage=serial --steps=0
expect 2 "is out of range" "$APOD" run --stage=serial --steps=99999999999999999999
expect 2 "expected two results directories" "$APOD" verify onlyone
expect 2 "not valid JSON" "$APOD" verify "$work" "$work"
expect 2 "unknown option" "$APOD" assess --frob
# assess's failures after the deck is read (under ASan, LeakSanitizer holds
# them to freeing it; tests/valgrind.sh does the same elsewhere).
expect 1 "is not an executable" env APOD_PG=/nonexistent "$APOD" assess --deck="$d/tiny.deck" --out="$work/prof"

# Output that cannot be written: a file where a directory should be, a
# directory where a file should be.  Nothing half-written is left behind.
: > "$work/plainfile"
expect 2 "exists and is not a directory" "$APOD" run --stage=serial --deck="$d/tiny.deck" --out="$work/plainfile"
mkdir "$work/adir"
expect 2 "is a directory" "$APOD" run --stage=serial --deck="$d/tiny.deck" --json="$work/adir"
if [ "$(id -u)" != 0 ]; then
	mkdir "$work/ro" && chmod a-w "$work/ro"
	expect 1 "not writable" "$APOD" run --stage=serial --deck="$d/tiny.deck" --out="$work/ro"
fi
# Where even root cannot write: /proc refuses new files and directories.
expect 1 "cannot create" "$APOD" run --stage=serial --deck="$d/tiny.deck" --out=/proc/apod-test-out
expect 1 "cannot write here" "$APOD" run --stage=serial --deck="$d/tiny.deck" --json=/proc/apod-test.json
# A GPU stage that cannot run here says why and fails, rather than crashing.
if "$APOD" stages | grep -q '^gpu2 *unavailable'; then
	expect 1 "stage gpu2 cannot run here" "$APOD" run --stage=gpu2 --deck="$d/tiny.deck"
fi
leftovers=$(find "$work" -name '*.tmp*' | wc -l)
if [ "$leftovers" -ne 0 ]; then
	echo "FAIL: temporary files left behind:"; find "$work" -name '*.tmp*'
	fails=$((fails + 1))
fi

# Help and version succeed, before or after a command.
expect 0 "Usage: apod run" "$APOD" run -h
expect 0 "Usage: apod verify" "$APOD" verify --help
expect 0 "Usage: apod" "$APOD" --help
expect 0 "apod " "$APOD" --version
# --trace needs CUPTI and a GPU with its driver: where it cannot start,
# one message and exit 1; where it can, a CPU stage's device is idle.
if "$APOD" stages | grep -q '^gpu1 *available'; then
	expect 0 "busy s" "$APOD" run --stage=serial --deck="$d/tiny.deck" --trace
else
	expect 1 "--trace:" "$APOD" run --stage=serial --deck="$d/tiny.deck" --trace
fi
expect 2 "unknown stage 'gpu9'" "$APOD" run --stage=gpu9 --trace

# A long option is given whole: getopt_long would take a prefix, and
# --work=particles once ran heat.  Workload keys are options too.
expect 2 "'--work' is short for '--workload'" "$APOD" run --stage=serial --work=particles --deck="$d/tiny.deck"
expect 2 "'--work' is short for '--workload'" "$APOD" --work particles --deck="$d/tiny.deck"
expect 2 "'--step' is short for '--steps'" "$APOD" run --stage=serial --step=2 --deck="$d/tiny.deck"
expect 2 "'--ou' is short for '--out'" "$APOD" run --stage=serial --deck="$d/tiny.deck" --ou "$work/abbrev"
expect 2 "'--kern' is short for '--kernels'" "$APOD" bench --kern
expect 2 "'--no-we' is short for '--no-weak'" "$APOD" scale --no-we
expect 2 "'--hel' is short for '--help'" "$APOD" verify --hel
expect 2 "'--siz' is short for '--size'" "$APOD" lab --siz=3
[ ! -e "$work/abbrev" ] || { echo "FAIL: an abbreviated --out wrote $work/abbrev"; fails=$((fails + 1)); }

# Output lost on stdout is a failure: exit 1 and a message on stderr.
if [ -w /dev/full ]; then
	for cmd in "workloads" "run --stage=serial --deck=$d/tiny.deck" "--help" "stages"; do
		# shellcheck disable=SC2086
		"$APOD" $cmd >/dev/full 2>"$work/err"
		got=$?
		if [ "$got" != 1 ] || ! grep -q "write error" "$work/err"; then
			echo "FAIL: 'apod $cmd >/dev/full' exited $got, expected 1 with a write error"
			sed 's/^/  | /' "$work/err"; fails=$((fails + 1))
		else
			echo "ok: apod $cmd >/dev/full -> 1 (write error)"
		fi
	done
	"$APOD" run --stage=serial --deck="$d/tiny.deck" --out="$work/full" >/dev/null 2>&1
	"$APOD" verify "$work/full" "$work/full" >/dev/full 2>"$work/err"
	got=$?
	if [ "$got" != 1 ] || ! grep -q "write error" "$work/err"; then
		echo "FAIL: 'apod verify >/dev/full' exited $got, expected 1"; fails=$((fails + 1))
	else
		echo "ok: apod verify >/dev/full -> 1 (write error)"
	fi
fi

# bench --kernels with nothing to measure says why and fails, as --trace does:
# particles has no kernels (a usage error); heat has none where there is no GPU.
expect 2 "workload particles has no kernels" "$APOD" bench --kernels --workload=particles --n=64 --steps=2 --reps=1
if "$APOD" stages | grep -q '^gpu1 *available'; then
	expect 0 "kernel" "$APOD" bench --kernels --deck="$d/tiny.deck" --reps=1
else
	expect 1 "no" "$APOD" bench --kernels --deck="$d/tiny.deck" --reps=1
	if ! grep -q "GPU\|CUDA" "$work/out"; then
		echo "FAIL: bench --kernels without a GPU did not say why"; fails=$((fails + 1))
	fi
fi
finish
