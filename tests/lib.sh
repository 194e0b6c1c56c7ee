# Helpers for the shell tests.  $APOD and $top_srcdir come from the Makefile.
set -u
: "${APOD:?run through make check}"
: "${top_srcdir:?run through make check}"
fails=0
work=$(mktemp -d "${TMPDIR:-/tmp}/apod-test-XXXXXX")
trap 'rm -rf "$work"' EXIT

# no_mpi_leak_check: for a test whose table runs heat's mpi stage.  Open MPI
# does not free everything it allocates by MPI_Finalize (its components are
# unloaded first, so LeakSanitizer cannot even name them): in the
# sanitizers' build such a test is not checked for leaks; addresses and
# undefined behaviour still are.
no_mpi_leak_check() {
	if [ "${APOD_SANITIZE:-no}" = yes ]; then
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
		export ASAN_OPTIONS
	fi
}

# expect STATUS FRAGMENT CMD...: CMD exits with STATUS (or any of several,
# as 1|2) and prints FRAGMENT (stdout or stderr).
expect() {
	want=$1 fragment=$2
	shift 2
	"$@" >"$work/out" 2>&1
	got=$?
	case "|$want|" in
	*"|$got|"*) ;;
	*)
		echo "FAIL: '$*' exited $got, expected $want"; sed 's/^/  | /' "$work/out"
		fails=$((fails + 1))
		return ;;
	esac
	if ! grep -qF -- "$fragment" "$work/out"; then
		echo "FAIL: '$*' did not say: $fragment"; sed 's/^/  | /' "$work/out"
		fails=$((fails + 1))
	else
		echo "ok: $* -> $got ($fragment)"
	fi
}

# check WHAT CMD...: CMD succeeds (outdir-lib.sh and trace.sh define their
# own check, over an expression and a report).
check() {
	what=$1; shift
	if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; fails=$((fails + 1)); fi
}

# rows FILE: the data rows of a .dat file; cols FILE: the distinct counts of
# columns over those rows.
rows() { grep -vc '^#' "$1"; }
cols() { grep -v '^#' "$1" | awk '{print NF}' | sort -u | tr '\n' ' '; }

# mgpu_hosts: for the tests of the mgpu stages (tests/mgpu.sh,
# nbody-mgpu.sh): skip (77) without mpirun or a GPU; use two GPUs where
# there are two or more, else the one (gpus: how many); NVLink multicast
# off (the GPU hosts refuse it).  Then run_np N CMD runs CMD at N ranks, one
# a GPU, and run_on N CMD runs N ranks on these GPUs, sharing them where
# the ranks outnumber them (APOD_MGPU_SHARE_GPU=1 takes effect only there).
mgpu_hosts() {
	mpirun=${APOD_MPIRUN:-mpirun}
	command -v "$mpirun" >/dev/null 2>&1 || { echo "SKIP: no mpirun ($mpirun)"; exit 77; }
	gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
	[ "$gpus" -ge 1 ] || { echo "SKIP: nvidia-smi lists no GPU"; exit 77; }
	NCCL_NVLS_ENABLE=0
	OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	export NCCL_NVLS_ENABLE OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
	if [ "$gpus" -ge 2 ]; then gpus=2; CUDA_VISIBLE_DEVICES=0,1; else CUDA_VISIBLE_DEVICES=0; fi
	export CUDA_VISIBLE_DEVICES
}
mgpu_launch() {
	mgpu_share_=$1 mgpu_np_=$2
	shift 2
	APOD_MGPU_SHARE_GPU=$mgpu_share_ timeout 300 "$mpirun" -np "$mgpu_np_" --oversubscribe \
		--mca btl self,vader -x APOD_MGPU_SHARE_GPU "$@"
}
run_np() { mgpu_launch 0 "$@"; }
run_on() { mgpu_launch 1 "$@"; }

# refused FRAGMENT CMD...: CMD (a launch of ranks) fails, not by the timeout
# (124), and says FRAGMENT.  Every rank exits 2; mpirun passes on the status
# of the first rank to end, or 1 where it ended the others itself.
refused() { expect '1|2' "$@"; }

finish() {
	if [ "$fails" -ne 0 ]; then
		echo "$fails check(s) failed"
		exit 1
	fi
	exit 0
}
