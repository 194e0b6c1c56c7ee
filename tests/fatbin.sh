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
# Nothing beyond what was asked for, in the code this tree compiles: the
# binary as a whole may also carry NVIDIA's own fat binaries for every
# architecture (cuRAND, when it is linked statically), so apod's objects are
# read from their archive.
lib=$(dirname "$APOD")/libapodgpu.a
"$dump" --list-elf "$lib" > "$work/libelf" 2>&1 || { echo "FAIL: cuobjdump --list-elf $lib"; cat "$work/libelf"; exit 1; }
grep -q "sm_$newest\." "$work/libelf" || { echo "FAIL: $lib lists no sm_$newest code"; fails=$((fails + 1)); }
others=$(sed -n 's/.*\.\(sm_[0-9]*\)\..*/\1/p' "$work/libelf" | sort -u | grep -v -x -F "$(for a in $APOD_CUDA_ARCHS; do echo sm_$a; done)" || true)
[ -z "$others" ] || { echo "FAIL: unexpected code for $others"; fails=$((fails + 1)); }
finish
