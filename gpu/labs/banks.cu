/*
 * banks.cu: lab 9, shared-memory bank conflicts and the padding that
 * removes them, in the order the sources teach it:
 *
 *   1. a stride sweep, 4-byte words: lane l of every warp reads word
 *      l * stride (plus a shift common to the warp), stride 0 (all lanes
 *      on one word: a broadcast) and 1..33.  32 banks of 4 bytes: lanes
 *      whose words differ but share a bank are served one after another,
 *      gcd(stride, 32) of them at stride > 0;
 *   2. the same sweep with 8-byte words, which cover two banks each;
 *   3. a 32 x 32 tile of each warp read (and read, changed and written)
 *      by rows and by columns, then the same tile padded to 32 x 33, the
 *      guide's C = AA^T fix: a column of [32][33] falls in 32 banks.
 *
 * Each thread makes many reads in a loop (--size of them), folding every
 * value into a running acc = acc * 33 + value, so that no read can be
 * dropped and the order of the reads matters; the sums wrap modulo 2^32
 * (2^64), so the CPU reference computes them exactly.  Each version's
 * output, one value per thread of every block, must equal the CPU's bit
 * for bit before it is timed.
 *
 * The model printed beside each measurement: a warp's request takes as
 * many passes through the banks ("wavefronts") as the largest number of
 * distinct 4-byte words any one bank must deliver; one wavefront moves up
 * to 128 bytes, about one clock of the multiprocessor (cpu/labs/lab_models.c).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit.cuh"
#include "cpu/labs/lab_models.h"   /* the wavefront model: apod_model_*_wavefronts */

#define WARPS 8
#define THREADS (WARPS * 32)
#define UNROLL 32        /* reads per pass of the loop, one fixed offset each */
#define MAX_STRIDE 33
#define WORDS 2048       /* > (WARPS - 1) + 31 * MAX_STRIDE + 32 * (UNROLL - 1) */

template <typename T> static __host__ __device__ inline T word_value(unsigned k);
template <> __host__ __device__ inline uint32_t word_value<uint32_t>(unsigned k)
{
	return k * 2654435761u + 0x9e3779b9u;
}
template <> __host__ __device__ inline uint64_t word_value<uint64_t>(unsigned k)
{
	return ((uint64_t)(k * 2246822519u) << 32 | (k * 2654435761u)) ^ 0x9e3779b97f4a7c15ull;
}

/*
 * Lane l of warp w reads word w + l * stride + 32 j for j = 0..31, `passes`
 * times.  The 32 j shift is the same for the whole warp, so it moves every
 * lane's bank by the same amount and leaves the conflicts as they are;
 * being a constant, it folds into the load instruction.  __syncwarp after
 * each pass keeps the compiler from reading the values once and reusing
 * them (another lane might have written in between, as far as it knows).
 */
template <typename T> static __global__ void stride_read(T *out, unsigned stride, unsigned passes)
{
	__shared__ T s[WORDS];
	unsigned warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
	for (unsigned k = threadIdx.x; k < WORDS; k += blockDim.x)
		s[k] = word_value<T>(k);
	__syncthreads();
	const T *p = s + warp + lane * stride;
	T acc = 0;
	for (unsigned pass = 0; pass < passes; pass++) {
#pragma unroll
		for (int j = 0; j < UNROLL; j++)
			acc = acc * 33 + p[j * 32];
		__syncwarp();
	}
	out[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

static __host__ __device__ inline uint32_t tile_value(unsigned warp, unsigned row, unsigned col)
{
	return (warp * 32 + row) * 2654435761u ^ col * 40503u;
}

/*
 * Each warp owns a 32 x (32 + PAD) tile.  Element (r, c) is only ever
 * touched by lane c (BY_COLUMN = 0: lane l takes row j's element l, a warp
 * reads a row) or by lane r (BY_COLUMN = 1: lane l takes its own row's
 * element j, a warp reads a column, lanes 32 + PAD words apart).  UPDATE
 * = 1 replaces each element by element * 33 + pass, a read and a write;
 * the thread's checksum is then taken over its 32 elements at the end.
 */
template <int PAD, int BY_COLUMN, int UPDATE>
static __global__ void tile_kernel(uint32_t *out, unsigned passes)
{
	__shared__ uint32_t tile[WARPS][32][32 + PAD];
	unsigned warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
	uint32_t (*t)[32 + PAD] = tile[warp];
	uint32_t acc = 0;
	/* Fill: lane l writes its row along a diagonal, which meets 32 banks
	 * with or without the pad, so that the fill costs the same in every version. */
	for (unsigned c = 0; c < 32; c++) {
		unsigned col = PAD ? c : (c + lane) & 31;
		t[lane][col] = tile_value(warp, lane, col);
	}
	__syncwarp();
	for (unsigned pass = 0; pass < passes; pass++) {
#pragma unroll
		for (int j = 0; j < 32; j++) {
			/* volatile: one 4-byte load per element.  Without it ptxas merges
			 * a thread's four neighbouring row elements t[lane][j..j+3] of the
			 * unpadded tile into one 16-byte LDS.128, and the column read
			 * costs 8, not 32, wavefronts per 4-byte read. */
			volatile uint32_t *e = BY_COLUMN ? &t[lane][j] : &t[j][lane];
			if (UPDATE)
				*e = *e * 33 + pass;
			else
				acc = acc * 33 + *e;
		}
		__syncwarp();
	}
	if (UPDATE)
		for (int j = 0; j < 32; j++)
			acc = acc * 33 + (BY_COLUMN ? t[lane][j] : t[j][lane]);
	out[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

/* What one thread of warp `warp`, lane `lane` must return (the CPU reference). */
template <typename T> static T stride_expected(unsigned warp, unsigned lane, unsigned stride, unsigned passes)
{
	T acc = 0;
	for (unsigned pass = 0; pass < passes; pass++)
		for (unsigned j = 0; j < UNROLL; j++)
			acc = acc * 33 + word_value<T>(warp + lane * stride + 32 * j);
	return acc;
}

static uint32_t tile_expected(unsigned warp, unsigned lane, int by_column, int update, unsigned passes)
{
	uint32_t e[32], acc = 0;
	/* Lane l's elements: (l, j) by columns, (j, l) by rows, in order of j. */
	for (unsigned j = 0; j < 32; j++)
		e[j] = by_column ? tile_value(warp, lane, j) : tile_value(warp, j, lane);
	for (unsigned pass = 0; pass < passes; pass++)
		for (unsigned j = 0; j < 32; j++) {
			if (update)
				e[j] = e[j] * 33 + pass;
			else
				acc = acc * 33 + e[j];
		}
	if (update)
		for (unsigned j = 0; j < 32; j++)
			acc = acc * 33 + e[j];
	return acc;
}

struct gpu {
	int sms, max_threads_sm, clock_khz;
};

struct row {
	char name[48];
	const char *experiment;
	int stride, word_bytes, model, verified;   /* model: wavefronts per request */
	int blocks;
	double ms, gbs, clk;                       /* clk: clocks per warp request, per SM */
	double per_req;                            /* ms / warp requests: what slowdowns compare */
};

/*
 * How many blocks of a kernel one multiprocessor holds at once, with as
 * much of its memory given to shared memory as it allows.  The lab launches
 * exactly that many per multiprocessor: one wave, every SM equally busy.
 */
template <typename K> static int resident_blocks(K kernel, const struct gpu *g, int *per_sm)
{
	APOD_CUDA_TRY(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
	                              (int)cudaSharedmemCarveoutMaxShared));
	APOD_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(per_sm, kernel, THREADS, 0));
	if (*per_sm < 1 || *per_sm * THREADS > g->max_threads_sm)
		return apod_fail("banks: %d resident blocks of %d threads per multiprocessor", *per_sm, THREADS);
	return 0;
}

/* Launch once, check every thread's value against `want`, then time. */
template <typename T, typename L>
static int run_one(struct row *r, const struct gpu *g, const struct apod_lab_opts *o, int blocks,
                   T *d_out, T *h_out, const T *want, double requests, L launch)
{
	size_t n = (size_t)blocks * THREADS;
	r->blocks = blocks;
	APOD_CUDA_TRY(cudaMemset(d_out, 0, n * sizeof(T)));
	launch();
	APOD_CUDA_TRY(cudaGetLastError());
	APOD_CUDA_TRY(cudaMemcpy(h_out, d_out, n * sizeof(T), cudaMemcpyDeviceToHost));
	r->verified = 1;
	for (size_t i = 0; i < n && r->verified; i++)
		r->verified = h_out[i] == want[i % THREADS];
	if (r->verified && !o->check) {
		if (time_it(o->reps, [&] { launch(); return cudaGetLastError() != cudaSuccess; }, &r->ms))
			return -1;
		r->gbs = requests * 32 * r->word_bytes / (r->ms * 1e-3) / 1e9;
		r->per_req = r->ms / requests;
		/* Every multiprocessor holds blocks / sms of the blocks at once: one wave. */
		r->clk = g->clock_khz > 0 ? r->ms * 1e-3 * g->clock_khz * 1e3 * g->sms / requests : 0;
	}
	return 0;
}

static void print_row(const struct row *r, double base_per_req, int base_model, int timed)
{
	printf("  %-30s %10d", r->name, r->model);
	if (r->verified && timed) {
		printf(" %10.4f %10.1f", r->ms, r->gbs);
		if (r->clk > 0)
			printf(" %8.2f", r->clk);
		else
			printf(" %8s", "-");
		printf(" %9.2fx %8.2fx", base_per_req > 0 ? r->per_req / base_per_req : 0,
		       base_model > 0 ? (double)r->model / base_model : 0);
	} else
		printf(" %10s %10s %8s %10s %9s", "-", "-", "-", "-", "");
	printf("  %s\n", r->verified ? "ok" : "FAILED");
}

static void print_header(void)
{
	printf("  %-30s %10s %10s %10s %8s %10s %9s  %s\n", "version", "wavefronts", "ms", "GB/s", "clk/req",
	       "measured", "model", "check");
}

static void add_json(json_object *rows, const struct row *r, double base_per_req, int base_model, int timed)
{
	json_object *o = lab_row(rows);
	lab_put(o, "experiment", r->experiment);
	lab_put(o, "version", r->name);
	if (r->stride >= 0)
		lab_put(o, "stride", r->stride);
	lab_put(o, "word_bytes", r->word_bytes);
	lab_put(o, "blocks", r->blocks);
	lab_put(o, "model_wavefronts", r->model);
	lab_put(o, "model_slowdown", (double)r->model / base_model);
	lab_put(o, "verified", r->verified != 0);
	if (r->verified && timed) {
		lab_put(o, "ms", r->ms);
		lab_put(o, "GB/s", r->gbs);
		if (r->clk > 0)
			lab_put(o, "clk_per_request", r->clk);
		if (base_per_req > 0)
			lab_put(o, "slowdown", r->per_req / base_per_req);
	}
}

/* 1 and 2: the stride sweep for one word size. */
template <typename T>
static int sweep(const struct gpu *g, const struct apod_lab_opts *o, unsigned passes, void *d_buf, void *h_buf,
                 json_object *rows, json_object *out, int *failed)
{
	const int bytes = (int)sizeof(T);
	int per_sm = 0, blocks;
	T want[THREADS], *d_out = (T *)d_buf, *h_out = (T *)h_buf;
	struct row r[MAX_STRIDE + 1];
	double requests;

	if (resident_blocks(stride_read<T>, g, &per_sm))
		return -1;
	blocks = per_sm * g->sms;
	requests = (double)blocks * WARPS * passes * UNROLL;
	printf("\n%d. stride sweep, %d-byte words: lane l of each warp reads word l * stride (+ a shift common "
	       "to the warp);\n   %u reads per thread, %d blocks of %d threads (%d per multiprocessor, one wave)\n",
	       bytes == 4 ? 1 : 2, bytes, passes * UNROLL, blocks, THREADS, per_sm);
	print_header();
	for (int s = 0; s <= MAX_STRIDE; s++) {
		struct row *x = &r[s];
		memset(x, 0, sizeof *x);
		x->experiment = bytes == 4 ? "stride_4byte" : "stride_8byte";
		x->stride = s;
		x->word_bytes = bytes;
		x->model = apod_model_stride_wavefronts(s, bytes);
		if (s == 0)
			snprintf(x->name, sizeof x->name, "stride 0 (broadcast)");
		else
			snprintf(x->name, sizeof x->name, "stride %d", s);
		for (unsigned t = 0; t < THREADS; t++)
			want[t] = stride_expected<T>(t / 32, t % 32, s, passes);
		if (run_one(x, g, o, blocks, d_out, h_out, want, requests,
		            [&] { stride_read<T><<<blocks, THREADS>>>(d_out, (unsigned)s, passes); }))
			return -1;
		*failed |= !x->verified;
	}
	/* Slowdowns are against stride 1, the conflict-free unit stride. */
	for (int s = 0; s <= MAX_STRIDE; s++) {
		print_row(&r[s], r[1].per_req, r[1].model, !o->check);
		add_json(rows, &r[s], r[1].per_req, r[1].model, !o->check);
	}
	lab_put(out, bytes == 4 ? "blocks_4byte" : "blocks_8byte", blocks);
	return 0;
}

/* 3. The tile, unpadded and padded. */
static int tiles(const struct gpu *g, const struct apod_lab_opts *o, unsigned passes, uint32_t *d_out,
                 uint32_t *h_out, json_object *rows, int *failed)
{
	typedef void (*tile_fn)(uint32_t *, unsigned);
	static const struct {
		const char *name;
		tile_fn k;
		int pad, by_column, update;
	} v[] = {
		{ "[32][32] read by rows", tile_kernel<0, 0, 0>, 0, 0, 0 },
		{ "[32][32] read by columns", tile_kernel<0, 1, 0>, 0, 1, 0 },
		{ "[32][33] read by columns", tile_kernel<1, 1, 0>, 1, 1, 0 },
		{ "[32][32] updated by rows", tile_kernel<0, 0, 1>, 0, 0, 1 },
		{ "[32][32] updated by columns", tile_kernel<0, 1, 1>, 0, 1, 1 },
		{ "[32][33] updated by columns", tile_kernel<1, 1, 1>, 1, 1, 1 },
	};
	struct row r[6];
	uint32_t want[THREADS];

	printf("\n3. a 32 x 32 tile per warp against the same tile padded to 32 x 33 (4-byte words);\n"
	       "   %u reads per thread (updates: %u reads and %u writes); slowdowns against [32][32] by rows\n",
	       passes * 32, passes * 32, passes * 32);
	print_header();
	for (int i = 0; i < 6; i++) {
		struct row *x = &r[i];
		int per_sm = 0, blocks;
		double requests;
		tile_fn k = v[i].k;
		memset(x, 0, sizeof *x);
		snprintf(x->name, sizeof x->name, "%s", v[i].name);
		x->experiment = "tile";
		x->stride = -1;
		x->word_bytes = 4;
		x->model = apod_model_tile_wavefronts(v[i].pad, v[i].by_column);
		if (resident_blocks(k, g, &per_sm))
			return -1;
		blocks = per_sm * g->sms;
		requests = (double)blocks * WARPS * passes * 32 * (v[i].update ? 2 : 1);
		for (unsigned t = 0; t < THREADS; t++)
			want[t] = tile_expected(t / 32, t % 32, v[i].by_column, v[i].update, passes);
		if (run_one(x, g, o, blocks, d_out, h_out, want, requests,
		            [&] { k<<<blocks, THREADS>>>(d_out, passes); }))
			return -1;
		*failed |= !x->verified;
		print_row(x, r[0].per_req, r[0].model, !o->check);
		add_json(rows, x, r[0].per_req, r[0].model, !o->check);
	}
	return 0;
}

/* The multiprocessors, their thread limit and their peak clock (0 where the device gives none). */
static int query_gpu(struct gpu *g)
{
	int dev = 0;
	APOD_CUDA_TRY(cudaGetDevice(&dev));
	APOD_CUDA_TRY(cudaDeviceGetAttribute(&g->sms, cudaDevAttrMultiProcessorCount, dev));
	APOD_CUDA_TRY(cudaDeviceGetAttribute(&g->max_threads_sm, cudaDevAttrMaxThreadsPerMultiProcessor, dev));
	if (cudaDeviceGetAttribute(&g->clock_khz, cudaDevAttrClockRate, dev) != cudaSuccess) {
		(void)cudaGetLastError();
		g->clock_khz = 0;
	}
	return 0;
}

/* The set-up's figures in the JSON, and the lab's heading; returns the rows' array. */
static json_object *report_setup(json_object *out, const struct gpu *g, size_t reads)
{
	json_object *rows = lab_array(out, "rows");
	lab_put(out, "unit", "GB/s");
	lab_put(out, "reads_per_thread", reads);
	lab_put(out, "threads_per_block", THREADS);
	lab_put(out, "sms", g->sms);
	lab_put(out, "peak_clock_khz", g->clock_khz);
	if (g->clock_khz > 0)
		lab_put(out, "theoretical_shared_gb_per_s", (double)g->sms * 32 * 4 * g->clock_khz * 1e3 / 1e9);
	printf("banks: 32 banks of 4 bytes; GB/s = bytes the threads read (and write) / time / 1e9;\n"
	       "clk/req = clocks per warp request on each multiprocessor at the peak clock (%.0f MHz), to set\n"
	       "beside the model's wavefronts; measured and model slowdowns are against the conflict-free version\n",
	       g->clock_khz / 1e3);
	if (g->clock_khz > 0)
		printf("theoretical shared-memory bandwidth: %d SMs x 128 bytes x %.0f MHz = %.1f GB/s\n", g->sms,
		       g->clock_khz / 1e3, (double)g->sms * 128 * g->clock_khz * 1e3 / 1e9);
	return rows;
}

extern "C" int apod_lab_banks(const struct apod_lab_opts *o, json_object *out)
{
	size_t reads = lab_size(o, 8192, 64);
	unsigned passes;
	struct gpu g = { 0, 0, 0 };
	int failed = 0;
	size_t n_max;
	dev_array<uint64_t> d_buf;
	host_array<uint64_t> h_buf;
	json_object *rows;

	if (reads < 32 || reads % 32 || reads > 65536)
		return apod_usage_fail("banks: --size %zu must be a multiple of 32 from 32 to 65536 reads", reads);
	passes = (unsigned)(reads / 32);
	if (query_gpu(&g))
		return -1;
	/* One value per thread of one full wave, 8 bytes at most. */
	n_max = (size_t)g.sms * g.max_threads_sm;
	if (h_buf.alloc(n_max) || d_buf.alloc(n_max))
		return -1;

	rows = report_setup(out, &g, reads);
	if (sweep<uint32_t>(&g, o, passes, d_buf.p, h_buf.p, rows, out, &failed) ||
	    sweep<uint64_t>(&g, o, passes, d_buf.p, h_buf.p, rows, out, &failed) ||
	    tiles(&g, o, passes, (uint32_t *)d_buf.p, (uint32_t *)h_buf.p, rows, &failed))
		return -1;
	return failed ? apod_fail("banks: a version's checksums differ from the CPU reference") : 0;
}
