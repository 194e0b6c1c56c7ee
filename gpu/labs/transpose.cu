/*
 * transpose.cu: lab 5, the Kepler talk's matrix-transpose ladder, beside a
 * copy that moves the same bytes in the same shape.
 *
 * `in` is rows x cols floats, row-major; `out` is its transpose, cols x
 * rows.  Versions, in the talk's order:
 *   0 copy: 32x32 tiles, 32x8 threads, 4 elements each, no transpose: what
 *     the tiled transposes could reach if transposing cost nothing;
 *   1 one thread per column: each thread walks down one input column
 *     (reads coalesced across a warp, writes strided by `rows`), and there
 *     are only `cols` threads in all, in blocks of 1024 as in the talk;
 *   2 one thread per element: every element its own thread, still with
 *     coalesced reads and writes strided by `rows`;
 *   3 a 32x32 tile in shared memory, 32x32 threads: coalesced both ways,
 *     but a warp reads a column of the tile, 32 words in one bank;
 *   4 the same tile moved by 32x8 threads, 4 elements each (fewer threads
 *     blocked at the barrier, more loads in flight per thread);
 *   5 the tile padded to 32x33: a column's words fall in 32 banks;
 *   6 tuned: a padded 64x64 tile per block, 32x8 threads, 16 elements each
 *     (four times the bytes in flight per block of version 5).
 * The final transpose is the faster of 5 and 6, reported as a fraction of
 * version 0 and of the 16-byte copy ceiling (copy4.cuh).
 *
 * Every kernel checks its bounds, so any rows x cols works.  Verified bit
 * for bit before timing: each element's bits are 2^23 + its row-major
 * index (distinct, finite, normal floats), the output is first filled
 * with 0xFF bytes (a NaN pattern no input has), and the result must equal
 * the CPU transpose (for version 0: the input) byte for byte, on a
 * 1000 x 777 matrix (neither side a multiple of 32 or 64) and then on the
 * timed size.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/copy4.cuh"
#include "kit.cuh"

#define COL_THREADS 1024   /* version 1: the talk's block of [1024,1,1] */
#define CHECK_ROWS 1000
#define CHECK_COLS 777
#define MAX_SIDE 32768     /* 4 GiB a matrix */
#define NVERSIONS 7

/*
 * The tiled kernels all use blocks of 32 x BR threads on a T x T tile (T a
 * multiple of 32, BR dividing T): a thread moves (T/BR) * (T/32) elements.
 * Loops run over constants, so they unroll and every load of a thread can
 * be in flight before its first store.  Only blocks on the right or bottom
 * edge (EDGE) test each element against the matrix: the others issue
 * their loads with no branch between them.
 *
 * each_element is that loop, the one every pass of these kernels makes: the
 * thread's elements of a rows x cols row-major matrix, from its first
 * (r0, c0) on, BR rows and 32 columns apart, T/BR x T/32 of them; f(i, j, k)
 * gets each one's offsets (i rows, j columns, both constants once unrolled)
 * and its index k in the matrix.
 */
template <int T, int BR, bool EDGE, class F>
static __device__ __forceinline__ void each_element(int r0, int c0, int rows, int cols, F f)
{
#pragma unroll
	for (int i = 0; i < T; i += BR)
#pragma unroll
		for (int j = 0; j < T; j += 32) {
			int r = r0 + i, c = c0 + j;
			if (!EDGE || (r < rows && c < cols))
				f(i, j, (size_t)r * cols + c);
		}
}

template <int T, int BR, bool EDGE>
static __device__ __forceinline__ void copy_block(const float *__restrict__ in, float *__restrict__ out,
                                                  int rows, int cols)
{
	float v[T / BR][T / 32];
	int r0 = blockIdx.y * T + threadIdx.y, c0 = blockIdx.x * T + threadIdx.x;
	each_element<T, BR, EDGE>(r0, c0, rows, cols,
	                          [&](int i, int j, size_t k) { v[i / BR][j / 32] = in[k]; });
	each_element<T, BR, EDGE>(r0, c0, rows, cols,
	                          [&](int i, int j, size_t k) { out[k] = v[i / BR][j / 32]; });
}

template <int T, int BR>
static __global__ void copy_tiled(const float *__restrict__ in, float *__restrict__ out, int rows,
                                  int cols)
{
	if ((blockIdx.y + 1) * T <= rows && (blockIdx.x + 1) * T <= cols)
		copy_block<T, BR, false>(in, out, rows, cols);
	else
		copy_block<T, BR, true>(in, out, rows, cols);
}

static __global__ void column_per_thread(const float *__restrict__ in, float *__restrict__ out,
                                         int rows, int cols)
{
	int c = blockIdx.x * blockDim.x + threadIdx.x;
	if (c >= cols)
		return;
	/* Neighbouring threads read neighbouring words of a row, but write
	 * words `rows` floats apart: one sector per 4-byte store. */
	const float *src = in + c;
	float *dst = out + (size_t)c * rows;
	for (int r = 0; r < rows; r++)
		dst[r] = src[(size_t)r * cols];
}

static __global__ void element_per_thread(const float *__restrict__ in, float *__restrict__ out,
                                          int rows, int cols)
{
	int c = blockIdx.x * 32 + threadIdx.x, r = blockIdx.y * 32 + threadIdx.y;
	if (r < rows && c < cols)
		out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

template <int T, int BR, int PAD, bool EDGE>
static __device__ __forceinline__ void transpose_block(const float *__restrict__ in,
                                                       float *__restrict__ out, int rows, int cols,
                                                       float (*tile)[T + PAD])
{
	int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
	int ty = threadIdx.y, tx = threadIdx.x;

	/* A warp reads 32 consecutive words of one input row into a tile row. */
	each_element<T, BR, EDGE>(r0 + ty, c0 + tx, rows, cols,
	                          [&](int i, int j, size_t k) { tile[i + ty][j + tx] = in[k]; });
	/* Each warp now reads words that other warps wrote.  EDGE is the same
	 * for the whole block, so every thread reaches this barrier. */
	__syncthreads();
	/* Output row c0+i+ty is input column c0+i+ty: a warp writes 32
	 * consecutive words of it, taken down column i+ty of the tile.  The
	 * words of that column are T+PAD apart: all in one bank when PAD = 0,
	 * in 32 different banks when T+PAD is odd.  The output is cols x rows. */
	each_element<T, BR, EDGE>(c0 + ty, r0 + tx, cols, rows,
	                          [&](int i, int j, size_t k) { out[k] = tile[j + tx][i + ty]; });
}

template <int T, int BR, int PAD>
static __global__ void tile_transpose(const float *__restrict__ in, float *__restrict__ out, int rows,
                                      int cols)
{
	__shared__ float tile[T][T + PAD];
	if ((blockIdx.y + 1) * T <= rows && (blockIdx.x + 1) * T <= cols)
		transpose_block<T, BR, PAD, false>(in, out, rows, cols, tile);
	else
		transpose_block<T, BR, PAD, true>(in, out, rows, cols, tile);
}

struct version {
	const char *name;
	int transposes;   /* 0: version 0, whose output is its input */
};

static const struct version versions[NVERSIONS] = {
	{ "0 copy, 32x8 threads, 4 elements each", 0 },
	{ "1 one thread per column", 1 },
	{ "2 one thread per element", 1 },
	{ "3 shared tile, 32x32 threads", 1 },
	{ "4 32x8 threads, 4 elements each", 1 },
	{ "5 padded tile [32][33]", 1 },
	{ "6 tuned: padded 64x64 tile, 16 each", 1 },
};

static unsigned ceil_div(int a, int b)
{
	return (unsigned)((a + b - 1) / b);
}

static int run_version(int v, const float *in, float *out, int rows, int cols)
{
	dim3 g32(ceil_div(cols, 32), ceil_div(rows, 32)), g64(ceil_div(cols, 64), ceil_div(rows, 64));
	dim3 b8(32, 8), b32(32, 32);
	switch (v) {
	case 0: APOD_LAUNCH_TRY((copy_tiled<32, 8><<<g32, b8>>>(in, out, rows, cols))); break;
	case 1: APOD_LAUNCH_TRY((column_per_thread<<<ceil_div(cols, COL_THREADS), COL_THREADS>>>(in, out, rows, cols))); break;
	case 2: APOD_LAUNCH_TRY((element_per_thread<<<g32, b32>>>(in, out, rows, cols))); break;
	case 3: APOD_LAUNCH_TRY((tile_transpose<32, 32, 0><<<g32, b32>>>(in, out, rows, cols))); break;
	case 4: APOD_LAUNCH_TRY((tile_transpose<32, 8, 0><<<g32, b8>>>(in, out, rows, cols))); break;
	case 5: APOD_LAUNCH_TRY((tile_transpose<32, 8, 1><<<g32, b8>>>(in, out, rows, cols))); break;
	default: APOD_LAUNCH_TRY((tile_transpose<64, 8, 1><<<g64, b8>>>(in, out, rows, cols))); break;
	}
	return 0;
}

/* Element k's bits: 2^23 + k, a normal positive float, different for every k < 2^31. */
static void fill_bits(uint32_t *a, size_t n)
{
	for (size_t k = 0; k < n; k++)
		a[k] = (uint32_t)(0x00800000u + k);
}

/* The CPU transpose, in 32 x 32 blocks so that neither side strides through the cache. */
static void cpu_transpose(const uint32_t *in, uint32_t *out, int rows, int cols)
{
	for (int rb = 0; rb < rows; rb += 32)
		for (int cb = 0; cb < cols; cb += 32)
			for (int r = rb; r < rb + 32 && r < rows; r++)
				for (int c = cb; c < cb + 32 && c < cols; c++)
					out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

struct bufs {
	host_array<uint32_t> in, ref, back;   /* input, CPU transpose, what came back */
	dev_array<float> d_in, d_out;
};

/* What the lab found, version by version, and the figures derived from it. */
struct results {
	int ok[NVERSIONS];              /* verified on every shape checked */
	char note[NVERSIONS][128];      /* why not: the shape and the first wrong element */
	double ms[NVERSIONS], gbs[NVERSIONS];   /* 0 where not timed */
	double ceiling;                 /* copy4, GB/s (0: not measured) */
	int final_v;                    /* the faster of 5 and 6 (-1: none timed) */
};

/* Room for the larger of the check shape and the timed shape, host and device. */
static int alloc_bufs(struct bufs *b, size_t most)
{
	return b->in.alloc(most) || b->ref.alloc(most) || b->back.alloc(most) ||
	       b->d_in.alloc(most) || b->d_out.alloc(most) ? -1 : 0;
}

/*
 * Run every version once on a rows x cols matrix and compare its output
 * byte for byte with the CPU's.  A version that fails keeps ok[v] = 0 and
 * gets a note naming the shape and the first wrong element.
 */
static int verify_all(struct bufs *b, int rows, int cols, struct results *r)
{
	size_t n = (size_t)rows * cols, bytes = n * sizeof(float);
	fill_bits(b->in.p, n);
	cpu_transpose(b->in.p, b->ref.p, rows, cols);
	APOD_CUDA_TRY(cudaMemcpy(b->d_in.p, b->in.p, bytes, cudaMemcpyHostToDevice));
	for (int v = 0; v < NVERSIONS; v++) {
		const uint32_t *want = versions[v].transposes ? b->ref.p : b->in.p;
		APOD_CUDA_TRY(cudaMemset(b->d_out.p, 0xFF, bytes));
		if (run_version(v, b->d_in.p, b->d_out.p, rows, cols))
			return -1;
		APOD_CUDA_TRY(cudaMemcpy(b->back.p, b->d_out.p, bytes, cudaMemcpyDeviceToHost));
		if (memcmp(b->back.p, want, bytes) == 0 || !r->ok[v])
			continue;
		r->ok[v] = 0;
		for (size_t k = 0; k < n; k++)
			if (b->back.p[k] != want[k]) {
				/* The output is cols x rows for a transpose, rows x cols for the copy. */
				size_t width = versions[v].transposes ? (size_t)rows : (size_t)cols;
				snprintf(r->note[v], sizeof r->note[v],
				         "%d x %d: output (%zu, %zu) is 0x%08x, not 0x%08x", rows, cols,
				         k / width, k % width, b->back.p[k], want[k]);
				break;
			}
	}
	return 0;
}

/* The copy4 ceiling, then every verified version, on the data the last check left on the device. */
static int time_all(const struct apod_lab_opts *o, struct bufs *b, int rows, int cols,
                    struct results *r)
{
	size_t cells = (size_t)rows * cols;
	size_t bytes = 2 * cells * sizeof(float);   /* every element read once and written once */

	if (copy4_ceiling_gbs(cells * sizeof(float), o->reps, &r->ceiling))
		return -1;
	for (int v = 0; v < NVERSIONS; v++) {
		if (!r->ok[v])
			continue;
		if (time_it(o->reps, [&] { return run_version(v, b->d_in.p, b->d_out.p, rows, cols) != 0; },
		            &r->ms[v]))
			return -1;
		r->gbs[v] = r->ms[v] > 0 ? bytes / (r->ms[v] * 1e-3) / 1e9 : 0;
	}
	/* The final transpose: the faster of the two conflict-free tiled versions. */
	for (int v = 5; v <= 6; v++)
		if (r->ok[v] && r->gbs[v] > 0 && (r->final_v < 0 || r->gbs[v] > r->gbs[r->final_v]))
			r->final_v = v;
	return 0;
}

/* The table: copy4 first when timed, then every version with its fraction of version 0. */
static void print_table(const struct apod_lab_opts *o, json_object *out, const struct results *r,
                        size_t cells)
{
	struct lab_table t;
	const double *gbs = r->gbs;

	lab_table_begin(&t, out, "GB/s", r->ceiling, "copy4: 16-byte grid-stride copy of the same bytes",
	                !o->check);
	if (!o->check) {
		/* copy4 counts its bytes from a size rounded down to 16 bytes, as here. */
		double c4bytes = 2.0 * (double)(cells * sizeof(float) / 16 * 16);
		lab_table_row(&t, "copy4 (16-byte loads, grid-stride)", 1,
		              r->ceiling > 0 ? c4bytes / (r->ceiling * 1e9) * 1e3 : 0, r->ceiling,
		              "the ceiling");
	}
	for (int v = 0; v < NVERSIONS; v++) {
		char buf[64];
		const char *nt = r->note[v][0] ? r->note[v] : NULL;
		json_object *row;
		if (!nt && v > 0 && gbs[v] > 0 && gbs[0] > 0) {
			snprintf(buf, sizeof buf, "%5.1f%% of version 0", 100 * gbs[v] / gbs[0]);
			nt = buf;
		}
		row = lab_table_row(&t, versions[v].name, r->ok[v], r->ms[v], gbs[v], nt);
		if (gbs[v] > 0 && gbs[0] > 0)
			lab_put(row, "fraction_of_copy", gbs[v] / gbs[0]);
	}
}

/* The shape, the copy, the final transpose against its target, and the talk's figures. */
static void report_summary(const struct apod_lab_opts *o, json_object *out, const struct results *r,
                           int rows, int cols, size_t bytes)
{
	const double *gbs = r->gbs;

	lab_put(out, "rows_in", rows);
	lab_put(out, "cols_in", cols);
	lab_put(out, "bytes", bytes);
	lab_put(out, "check_rows", CHECK_ROWS);
	lab_put(out, "check_cols", CHECK_COLS);
	if (!o->check) {
		lab_put(out, "copy4_ceiling_gbs", r->ceiling);
		lab_put(out, "copy_gbs", gbs[0]);
	}
	if (r->final_v >= 0 && gbs[0] > 0) {
		int fv = r->final_v;
		double f_copy = gbs[fv] / gbs[0], f_c4 = r->ceiling > 0 ? gbs[fv] / r->ceiling : 0;
		printf("  final transpose (version %d): %.1f GB/s = %.1f%% of the copy with the same tiling "
		       "(version 0), %.1f%% of the copy4 ceiling; target >= 90%% of the copy: %s\n", fv,
		       gbs[fv], 100 * f_copy, 100 * f_c4, f_copy >= 0.9 ? "met" : "NOT met");
		lab_put(out, "final_version", fv);
		lab_put(out, "final_gbs", gbs[fv]);
		lab_put(out, "final_fraction_of_copy", f_copy);
		lab_put(out, "final_fraction_of_copy4_ceiling", f_c4);
		lab_put(out, "target_fraction_of_copy", 0.9);
		lab_put(out, "target_met", f_copy >= 0.9);
	}
	{
		/* The talk's ladder (seed 004, N = 1024, GPU not named): profiler DRAM GB/s. */
		static const double talk_dram[] = { 12, 99, 93, 124, 170 };
		json_object *a = lab_array(out, "talk_dram_gbs_versions_1_to_5");
		for (int k = 0; k < 5; k++)
			json_object_array_add(a, json_object_new_double(talk_dram[k]));
	}
}

extern "C" int apod_lab_transpose(const struct apod_lab_opts *o, json_object *out)
{
	/* A side of 1 is 4 bytes, less than the 16 that copy4 needs to measure a ceiling. */
	if (o->size > MAX_SIDE || (!o->check && o->size == 1))
		return apod_usage_fail("transpose: --size %zu (the side of the square matrix) is not "
		                       "2 to %d", o->size, MAX_SIDE);

	/* --check alone checks the odd shape only (side 0 here); a side given is checked too. */
	int side = (int)lab_size(o, 8192, 0);
	int rows = side ? side : CHECK_ROWS, cols = side ? side : CHECK_COLS;
	size_t cells = (size_t)rows * cols, check_cells = (size_t)CHECK_ROWS * CHECK_COLS;
	size_t most = cells > check_cells ? cells : check_cells;
	size_t bytes = 2 * cells * sizeof(float);   /* every element read once and written once */
	struct bufs b;
	struct results r = {};

	for (int v = 0; v < NVERSIONS; v++)
		r.ok[v] = 1;
	r.final_v = -1;
	if (alloc_bufs(&b, most))
		return -1;

	/* Verified first: the odd shape for every bounds check, then the timed (or given) size. */
	if (verify_all(&b, CHECK_ROWS, CHECK_COLS, &r))
		return -1;
	if (side && verify_all(&b, rows, cols, &r))
		return -1;
	/* Then timed. */
	if (!o->check && time_all(o, &b, rows, cols, &r))
		return -1;

	printf("transpose of a %d x %d float matrix into %d x %d; bytes counted: 2 x %d x %d x 4 = %zu "
	       "(each element read once, written once)\n", rows, cols, cols, rows, rows, cols, bytes);
	printf("checked bit for bit against the CPU transpose on %d x %d%s\n", CHECK_ROWS, CHECK_COLS,
	       !o->check ? " and on the timed size" : side ? " and on the size given" : "");
	print_table(o, out, &r, cells);
	report_summary(o, out, &r, rows, cols, bytes);

	for (int v = 0; v < NVERSIONS; v++)
		if (!r.ok[v])
			return apod_fail("transpose: version %s differs from the CPU transpose (%s)",
			                 versions[v].name, r.note[v]);
	return 0;
}
