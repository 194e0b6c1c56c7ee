#!/bin/sh
# The binary carries machine code for every configured architecture and PTX
# for the newest, so that a GPU newer than any of them still runs it (JIT).
. "$top_srcdir/tests/lib.sh"
[ -n "${APOD_CUDA_ARCHS:-}" ] || { echo "SKIP: built without CUDA"; exit 77; }
dump=${APOD_CUDA_HOME:+$APOD_CUDA_HOME/bin/}cuobjdump
command -v "$dump" >/dev/null 2>&1 || { echo "SKIP: no cuobjdump"; exit 77; }
"$dump" --list-elf "$APOD" > "$work/elf" 2>&1 || { echo "FAIL: cuobjdump --list-elf"; cat "$work/elf"; exit 1; }
"$dump" --list-ptx "$APOD" > "$work/ptx" 2>&1 || { echo "FAIL: cuobjdump --list-ptx"; cat "$work/ptx"; exit 1; }
newest=
for a in $APOD_CUDA_ARCHS; do
	if grep -q "sm_$a\." "$work/elf"; then echo "ok: sm_$a code"; else echo "FAIL: no sm_$a code"; fails=$((fails + 1)); fi
	newest=$a
done
if grep -q "sm_$newest\." "$work/ptx"; then echo "ok: PTX for compute_$newest"; else
	echo "FAIL: no PTX for compute_$newest"; cat "$work/ptx"; fails=$((fails + 1)); fi
# Nothing beyond what was asked for.
others=$(sed -n 's/.*\.\(sm_[0-9]*\)\..*/\1/p' "$work/elf" | sort -u | grep -v -x -F "$(for a in $APOD_CUDA_ARCHS; do echo sm_$a; done)" || true)
[ -z "$others" ] || { echo "FAIL: unexpected code for $others"; fails=$((fails + 1)); }
finish
