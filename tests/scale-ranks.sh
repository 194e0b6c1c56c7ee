#!/bin/sh
# Scaling across ranks: `apod scale --stage=mpi --ranks=LIST` and `apod
# table --ranks=N` with heat's mpi stage at 1 and 2 ranks, and mgpu's where
# a GPU is.  Benchmarks are
# not tests: no time or speedup is held to a threshold; the points must be
# there, and each bound must be apod_amdahl / apod_gustafson of the P the
# JSON reports (recomputed here).  Then the usage errors, each named.
. "$top_srcdir/tests/lib.sh"
deck=$top_srcdir/data/heat/small.deck

[ "${APOD_HAVE_MPI:-no}" = yes ] || { echo "SKIP: MPI was not found at configure time"; exit 77; }
"$APOD" stages | grep -q '^mpi *available' || { echo "FAIL: MPI was found but the mpi stage is unavailable"; exit 1; }
mpirun=${APOD_MPIRUN:-mpirun}
command -v "$mpirun" >/dev/null 2>&1 || { echo "SKIP: no mpirun ($mpirun)"; exit 77; }
APOD_MPIRUN=$mpirun
# More ranks than cores, in a container: as tests/mpi.sh launches.
APOD_MPIRUN_ARGS=${APOD_MPIRUN_ARGS:---oversubscribe --mca btl self,vader}
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export APOD_MPIRUN APOD_MPIRUN_ARGS OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
# Open MPI leaks by MPI_Finalize (tests/mpi.sh says why): no leak check.
if [ "${APOD_SANITIZE:-no}" = yes ]; then
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	export ASAN_OPTIONS
fi


# ---- scale over ranks --------------------------------------------------------
expect 0 "strong scaling" timeout 300 "$APOD" scale --deck="$deck" --steps=20 --stage=mpi --ranks=2 \
	--reps=1 --json="$work/r.json"
check "a weak scaling table" grep -q "^weak scaling" "$work/out"
check "the table's unit is ranks" grep -q "^  ranks " "$work/out"
for f in r.json r.strong.dat r.weak.dat r.gp; do
	check "scale wrote $f" test -s "$work/$f"
done
check "r.strong.dat: 2 rows" [ "$(rows "$work/r.strong.dat")" = 2 ]
check "r.strong.dat: 8 columns (vs 1 rank)" [ "$(cols "$work/r.strong.dat")" = "8 " ]
check "r.weak.dat: 2 rows" [ "$(rows "$work/r.weak.dat")" = 2 ]
check "r.gp: unit and stage" sh -c "grep -q '^unit = \"ranks\"' '$work/r.gp' && grep -q '^scaled_stage = \"mpi\"' '$work/r.gp'"
check "no temporary files left" [ "$(find "$work" -name '*.tmp*' | wc -l)" -eq 0 ]

if command -v python3 >/dev/null; then
	check "r.json: the points, and each bound the law's for the P reported" python3 -c '
import json, math, sys
s = json.load(open(sys.argv[1]))
close = lambda a, b: math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
amdahl = lambda p, n: 1 / ((1 - p) + p / n)
gustafson = lambda p, n: n + (1 - p) * (1 - n)
assert s["stage"] == "mpi" and s["unit"] == "ranks" and s["ranks"] == [1, 2], s
assert "threads" not in s
st = s["strong"]
P, t1, r1 = st["p"], st["serial_seconds"], st["one_rank_seconds"]
assert 0 <= P <= 1, P
assert [q["n"] for q in st["points"]] == [1, 2]
for q in st["points"]:
    assert close(q["amdahl"], amdahl(P, q["n"])), q
    assert close(q["speedup"], t1 / q["seconds"]), q
    assert close(q["speedup_vs_one_rank"], r1 / q["seconds"]), q
    assert close(q["efficiency"], q["speedup_vs_one_rank"] / q["n"]), q
assert st["other_stages"] == []
wk = s["weak"]
p = wk["p"]
assert [q["n"] for q in wk["points"]] == [1, 2]
T1 = wk["points"][0]["seconds"]
assert close(T1, r1)
for q in wk["points"]:
    assert close(q["gustafson"], gustafson(p, q["n"])), q
    assert close(q["efficiency"], T1 / q["seconds"]), q
    assert close(q["scaled_speedup"], q["n"] * T1 / q["seconds"]), q
assert wk["points"][1]["grown"].startswith("size = "), wk["points"][1]
' "$work/r.json"
else
	echo "skip: python3 not found, the JSON is not checked"
fi

# ---- mgpu's points, where a GPU is ------------------------------------------
# Its 2 ranks share the GPU where there is one (APOD_MGPU_SHARE_GPU=1: NCCL's
# sockets between them): the points and their bounds, not their times.
gpu_mgpu=no
if "$APOD" stages | grep -q '^mgpu *available' && [ "$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')" -ge 1 ]; then
	gpu_mgpu=yes
	NCCL_NVLS_ENABLE=0 APOD_MGPU_SHARE_GPU=1
	APOD_MPIRUN_ARGS="$APOD_MPIRUN_ARGS -x NCCL_NVLS_ENABLE -x APOD_MGPU_SHARE_GPU"
	export NCCL_NVLS_ENABLE APOD_MGPU_SHARE_GPU APOD_MPIRUN_ARGS
	expect 0 "strong scaling" timeout 300 "$APOD" scale --deck="$deck" --steps=20 --stage=mgpu --ranks=1,2 \
		--reps=1 --json="$work/g.json"
	check "mgpu: a weak scaling table" grep -q "^weak scaling" "$work/out"
	if command -v python3 >/dev/null; then
		check "g.json: mgpu's points at 1 and 2 ranks, each bound the law's" python3 -c '
import json, math, sys
s = json.load(open(sys.argv[1]))
close = lambda a, b: math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
assert s["stage"] == "mgpu" and s["ranks"] == [1, 2], s
st, wk = s["strong"], s["weak"]
assert [q["n"] for q in st["points"]] == [1, 2] and [q["n"] for q in wk["points"]] == [1, 2]
for q in st["points"]:
    assert close(q["amdahl"], 1 / ((1 - st["p"]) + st["p"] / q["n"])), q
for q in wk["points"]:
    assert close(q["gustafson"], q["n"] + (1 - wk["p"]) * (1 - q["n"])), q
' "$work/g.json"
	fi
fi

# ---- the table's weak line ---------------------------------------------------
expect 0 "mpi weak, 2 ranks, problem x2" timeout 300 "$APOD" --deck="$deck" --steps=20 --ranks=2 \
	--json="$work/t.json"
check "the table says what Gustafson is" grep -q "Gustafson: N + (1 - p)(1 - N)" "$work/out"
if command -v python3 >/dev/null; then
	check "t.json: mpi's weak point and Gustafson for its p" python3 -c '
import json, math, sys
t = json.load(open(sys.argv[1]))
close = lambda a, b: math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
rows = {r["stage"]: r for r in t["stages"]}
m = rows["mpi"]
assert m["ranks"] == 2, m
p = m["gustafson_p"]
assert close(m["gustafson"], 2 + (1 - p) * (1 - 2)), m
assert close(m["weak_efficiency"], m["weak_one_rank_seconds"] / m["weak_seconds"]), m
assert close(m["weak_scaled_speedup"], 2 * m["weak_efficiency"]), m
assert m["gustafson_holds"] == (m["weak_scaled_speedup"] <= m["gustafson"] * 1.10), m
assert "ranks" not in rows["omp"] and "gustafson" not in rows["serial"]
if sys.argv[2] == "yes":
    g = rows["mgpu"]
    assert g["ranks"] == 2 and close(g["gustafson"], 2 + (1 - g["gustafson_p"]) * (1 - 2)), g
    assert close(g["weak_efficiency"], g["weak_one_rank_seconds"] / g["weak_seconds"]), g
' "$work/t.json" "$gpu_mgpu"
fi

# ---- usage errors: exit 2 before anything runs ------------------------------
expect 2 "--ranks: name the stage that runs across ranks with --stage=NAME" \
	"$APOD" scale --deck="$deck" --ranks=1,2
expect 2 "stage serial does not run across ranks" "$APOD" scale --deck="$deck" --stage=serial --ranks=2
expect 2 "stage omp does not run across ranks" "$APOD" scale --deck="$deck" --stage=omp --ranks=2
expect 2 "--stage=mpi runs across ranks: give the rank counts" "$APOD" scale --deck="$deck" --stage=mpi
expect 2 "--threads with --stage=mpi" "$APOD" scale --deck="$deck" --stage=mpi --threads=2
expect 2 "unknown stage 'nosuch'" "$APOD" scale --deck="$deck" --stage=nosuch --ranks=2
expect 2 "--ranks: '0' is not a rank count" "$APOD" scale --deck="$deck" --stage=mpi --ranks=0
expect 2 "--ranks: an empty list" "$APOD" scale --deck="$deck" --stage=mpi --ranks=
expect 2 "cannot grow 1024 times" "$APOD" scale --deck="$deck" --size=317x5000 --stage=mpi --ranks=1024
APOD_MPIRUN=/nonexistent/mpirun expect 2 "no launcher: '/nonexistent/mpirun' cannot be run" \
	"$APOD" scale --deck="$deck" --stage=mpi --ranks=2
check "no launcher: nothing ran" sh -c "! grep -q '^serial:' '$work/out'"
# A stage of ranks this build lacks (mgpu without CUDA and NCCL): its reason.
if "$APOD" stages | grep -q '^mgpu *unavailable'; then
	expect 1 "stage mgpu cannot run here" "$APOD" scale --deck="$deck" --stage=mgpu --ranks=2
fi
expect 2 "--ranks: '0' is not 1 to 1024" "$APOD" --deck="$deck" --ranks=0
APOD_MPIRUN=/nonexistent/mpirun expect 2 "no launcher: '/nonexistent/mpirun' cannot be run" \
	"$APOD" --deck="$deck" --ranks=2
check "no launcher: no table" sh -c "! grep -q '^serial ' '$work/out'"
expect 2 "no stage of workload particles that runs across ranks" \
	"$APOD" --workload=particles --n=2000 --steps=5 --ranks=2
finish
