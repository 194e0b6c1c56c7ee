#!/bin/sh
# The serial stage against miniWeather itself, bit for bit: the program's
# c/miniWeather_serial.cpp (give its path) built with one process's MPI
# and a netCDF writer that writes each field raw (stubs below, made here:
# the file itself is not changed), run on a deck, and its last output's
# four fields compared byte for byte with the serial stage's arrays.
#
#     sh check-original.sh PATH/TO/miniWeather_serial.cpp [NX NZ SIM_TIME SPEC]
#
# SPEC is a data_spec choice (thermal, collision, gravity_waves,
# density_current, injection).  Run in the example's folder after `make`.
# The program is built with g++ -O3 (its build scripts add -Ofast and
# -march=native, which let the compiler reorder and fuse the arithmetic,
# so that no two builds agree to the bit; the port is built with
# -ffp-contract=off, and plain -O3 contracts nothing on x86-64).
set -eu
src=${1:?usage: check-original.sh PATH/TO/miniWeather_serial.cpp [NX NZ SIM_TIME SPEC]}
nx=${2:-100} nz=${3:-50} sim_time=${4:-400} spec=${5:-thermal}
[ -r "$src" ] || { echo "check-original.sh: cannot read $src" >&2; exit 2; }
[ -x ./miniweather ] || { echo "check-original.sh: no ./miniweather here: run make first" >&2; exit 2; }
case $spec in
collision|thermal|gravity_waves|density_current|injection) ;;
*) echo "check-original.sh: SPEC must be collision, thermal, gravity_waves, density_current or injection" >&2; exit 2 ;;
esac
SPEC=DATA_SPEC_$(echo "$spec" | tr a-z A-Z)
here=$(pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/mw-original-XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/stub" "$work/ref"

# One process: what the serial program asks of MPI.
cat > "$work/stub/mpi.h" <<'EOF'
#include <string.h>
typedef long long MPI_Offset;
typedef int MPI_Comm, MPI_Datatype, MPI_Op, MPI_Info;
#define MPI_COMM_WORLD 0
#define MPI_DOUBLE 0
#define MPI_SUM 0
#define MPI_INFO_NULL 0
static inline int MPI_Init(int *, char ***) { return 0; }
static inline int MPI_Finalize(void) { return 0; }
static inline int MPI_Barrier(MPI_Comm) { return 0; }
static inline int MPI_Allreduce(const void *in, void *out, int n, MPI_Datatype, MPI_Op, MPI_Comm)
{ memcpy(out, in, (size_t)n * sizeof(double)); return 0; }
EOF
# The netCDF calls output() makes: each field of output number N is written
# raw to NAME-N.bin, in the program's order (z rows of x).
cat > "$work/stub/pnetcdf.h" <<'EOF'
#include <stdio.h>
#include <string.h>
#define NC_NOERR 0
#define NC_CLOBBER 0
#define NC_WRITE 0
#define NC_UNLIMITED 0
#define NC_DOUBLE 0
static char stub_names[8][16];
static inline const char *ncmpi_strerror(int) { return "stub"; }
static inline int ncmpi_create(MPI_Comm, const char *, int, MPI_Info, int *id) { *id = 0; return 0; }
static inline int ncmpi_open(MPI_Comm, const char *, int, MPI_Info, int *id) { *id = 0; return 0; }
static inline int ncmpi_def_dim(int, const char *, MPI_Offset, int *d) { *d = 0; return 0; }
static inline int stub_var(const char *name, int *v)
{
	int i;
	for (i = 0; i < 8 && stub_names[i][0] && strcmp(stub_names[i], name); i++) ;
	snprintf(stub_names[i], sizeof stub_names[i], "%s", name);
	*v = i;
	return 0;
}
static inline int ncmpi_def_var(int, const char *name, int, int, const int *, int *v) { return stub_var(name, v); }
static inline int ncmpi_inq_varid(int, const char *name, int *v) { return stub_var(name, v); }
static inline int ncmpi_enddef(int) { return 0; }
static inline int ncmpi_begin_indep_data(int) { return 0; }
static inline int ncmpi_end_indep_data(int) { return 0; }
static inline int ncmpi_close(int) { return 0; }
static inline int ncmpi_put_vara_double(int, int, const MPI_Offset *, const MPI_Offset *, const double *) { return 0; }
static inline int ncmpi_put_vara_double_all(int, int v, const MPI_Offset *st, const MPI_Offset *ct, const double *a)
{
	char name[64];
	FILE *f;
	snprintf(name, sizeof name, "%s-%lld.bin", stub_names[v], st[0]);
	if (!(f = fopen(name, "wb")) || fwrite(a, sizeof *a, (size_t)(ct[1] * ct[2]), f) != (size_t)(ct[1] * ct[2]) || fclose(f))
		return 1;
	return 0;
}
EOF

g++ -O3 -std=c++11 -DNO_INFORM -I"$work/stub" -D_NX="$nx" -D_NZ="$nz" -D_SIM_TIME="$sim_time" \
  -D_OUT_FREQ="$sim_time" -D_DATA_SPEC="$SPEC" -o "$work/original" "$src"
( cd "$work/ref" && "$work/original" ) > "$work/original.txt"
last=$(ls "$work/ref" | sed -n 's/^dens-\([0-9]*\)\.bin$/\1/p' | sort -n | tail -n1)

./miniweather run --stage=serial --nx="$nx" --nz="$nz" --sim_time="$sim_time" --data_spec="$spec" \
  --out="$work/port" > "$work/port.txt"
bytes=$((nx * nz * 8))
status=0
for f in dens uwnd wwnd theta; do
	if tail -c "$bytes" "$work/port/$f.npy" | cmp -s - "$work/ref/$f-$last.bin"; then
		echo "check-original.sh: $f: identical to the program's ($nx x $nz, $sim_time s, $spec)"
	else
		echo "check-original.sh: $f: DIFFERS from the program's ($nx x $nz, $sim_time s, $spec)"
		status=1
	fi
done
grep -E '^(d_mass|d_te)' "$work/original.txt" | sed 's/^/check-original.sh: the program: /'
exit $status
