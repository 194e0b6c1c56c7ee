/*
 * ilp.cu: lab 11b, two ways to hide latency: more warps on each SM (thread-
 * level parallelism), or more independent instructions in each thread
 * (instruction-level parallelism).
 *
 *   1. arithmetic: every thread runs the same number of fused multiply-adds,
 *      split into ILP = 1, 2, 4 or 8 independent chains, at 4 to 64 warps per
 *      SM.  One chain stalls on each result; with more chains, or more warps,
 *      the scheduler finds something to issue while a result is on its way;
 *   2. memory: a copy in which each thread issues ILP = 1, 2, 4 or 8 loads
 *      before it stores any of them, at the same warps per SM, against the
 *      measured copy ceiling.  The memory system needs enough bytes in
 *      flight (Little's law); either knob supplies them.
 * The number of warps per SM is set the way the guide suggests for this
 * experiment: launch exactly SMs x b blocks of 128 threads and ask for
 * enough dynamic shared memory (found with the runtime's occupancy
 * calculator) that no SM can hold more than b of them.  The kernels never
 * touch that shared memory.
 *
 * Checked before timed, bit for bit, at every point of both sweeps: the
 * copy must reproduce its input; each FMA chain is x <- fma(x, 2, 1), then
 * x <- fma(x, 0.5, -0.25), on quarter-integers far below 2^20, where every
 * result is exact, so a chain of L FMAs started at x0 must end at exactly
 * x0 + L/8.  The host confirms that closed form by running the same chain
 * with fmaf (correctly rounded) on a sample of starting values.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/copy4.cuh"
#include "gpu/fma_peak.cuh"   /* fma_chains<ILP>, shared with bench --kernels */
#include "kit.cuh"
#include "shared/labs/splitmix.h"
#include "cpu/labs/lab_models.h"   /* Little's law: apod_model_little_* */

#define BLOCK 128        /* four warps: one for each scheduler of a Volta-to-Hopper SM */
#define NILP 4
#define MAXB 8           /* at most 2^7 = 128 blocks per SM in the sweep */

static const int ilps[NILP] = { 1, 2, 4, 8 };
static_assert(BLOCK == FMA_PEAK_BLOCK, "the FMA chains are compiled for blocks of FMA_PEAK_BLOCK");

/*
 * A grid-stride copy: each pass, a thread loads ILP floats (a block's ILP x
 * 128 consecutive floats, coalesced), then stores them.  The pointers are
 * not __restrict__ and the pass loop is not unrolled, so the compiler can
 * move no load above an earlier store: ILP is exactly the number of loads a
 * warp has in flight.
 */
template <int ILP>
static __global__ void __launch_bounds__(BLOCK) copy_ilp(const float *in, float *out, unsigned n)
{
	const unsigned stride = gridDim.x * BLOCK * ILP;    /* n <= 2^29: no index wraps */
#pragma unroll 1
	for (unsigned base = blockIdx.x * BLOCK * ILP + threadIdx.x; base < n; base += stride) {
		const float *src = in + base;
		float *dst = out + base;
		float v[ILP];
#pragma unroll
		for (int j = 0; j < ILP; j++)
			v[j] = base + j * BLOCK < n ? src[j * BLOCK] : 0.0f;
#pragma unroll
		for (int j = 0; j < ILP; j++)
			if (base + j * BLOCK < n)
				dst[j * BLOCK] = v[j];
	}
}

typedef void (*fma_fn)(const float *, float *, int);
typedef void (*copy_fn)(const float *, float *, unsigned);
static const fma_fn fma_kernels[NILP] = { fma_chains<1>, fma_chains<2>, fma_chains<4>, fma_chains<8> };
static const copy_fn copy_kernels[NILP] = { copy_ilp<1>, copy_ilp<2>, copy_ilp<4>, copy_ilp<8> };

/*
 * The least dynamic shared memory per block that lets no more than `want`
 * blocks of BLOCK threads onto an SM (0 when the kernel alone allows no
 * more), and the number of blocks the occupancy calculator then gives.
 * The caller uses the point only when that number is exactly `want`.
 */
static int smem_for(const void *fn, int want, size_t optin, size_t *smem, int *got)
{
	int occ;
	size_t lo = 0, hi = optin;
	APOD_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, fn, BLOCK, 0));
	if (occ <= want) {
		*smem = 0;
		*got = occ;
		return 0;
	}
	APOD_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, fn, BLOCK, hi));
	if (occ > want) {
		*smem = hi;
		*got = occ;
		return 0;
	}
	/* occ(lo) > want >= occ(hi), and occupancy only falls as shared memory grows. */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		APOD_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, fn, BLOCK, mid));
		if (occ <= want)
			hi = mid;
		else
			lo = mid;
	}
	*smem = hi;
	APOD_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(got, fn, BLOCK, hi));
	return 0;
}

/* Word z of the data: splitmix64 seeded with z, the upper middle 32 bits. */
static uint32_t mix(uint64_t z)
{
	return (uint32_t)(apod_splitmix64(&z) >> 16);
}

/* A chain's start: a quarter-integer in [-2^16, 2^16); a chain adds at most 2^18 / 8. */
static float start_value(size_t e)
{
	return (float)((int)(mix(e) & 0x7FFFF) - 0x40000) * 0.25f;
}

/* The chain itself, on the host: L FMAs from x. */
static float host_chain(float x, long fmas)
{
	for (long k = 0; k < fmas; k += 2) {
		x = fmaf(x, 2.0f, 1.0f);
		x = fmaf(x, 0.5f, -0.25f);
	}
	return x;
}

struct cell {
	int have;       /* the occupancy calculator gives exactly this many blocks per SM */
	int ok;
	size_t smem;
	double ms, value;
};

static void cell_print(const struct cell *c, double of, int timed)
{
	if (!c->have)
		printf(" %15s", "n/a");
	else if (!c->ok)
		printf(" %15s", "FAILED");
	else if (!timed)
		printf(" %15s", "ok");
	else
		printf(" %8.1f (%3.0f%%)", c->value, of > 0 ? 100 * c->value / of : 0);
}

/* One cell printed in the table and added to `rows` as its JSON row, which
 * is returned: `of` is what its fraction is taken of (the best cell, or the
 * copy ceiling). */
static json_object *cell_row(json_object *rows, const struct cell *c, int ilp, int warps, int max_threads_sm,
                             double of, const char *unit, const char *fraction_key, int timed)
{
	json_object *r = lab_row(rows);
	char name[64];
	cell_print(c, of, timed);
	snprintf(name, sizeof name, "ILP %d, %d warps/SM", ilp, warps);
	lab_put(r, "version", name);
	lab_put(r, "ilp", ilp);
	lab_put(r, "warps_per_sm", warps);
	lab_put(r, "occupancy", (double)warps * 32 / max_threads_sm);
	lab_put(r, "available", c->have != 0);
	lab_put(r, "verified", c->have && c->ok);
	if (c->have)
		lab_put(r, "dynamic_smem_bytes", c->smem);
	if (c->have && c->ok && timed) {
		lab_put(r, "ms", c->ms);
		lab_put(r, unit, c->value);
		lab_put(r, fraction_key, c->value / of);
	}
	return r;
}

/* The device, and the blocks per SM the sweeps visit. */
struct gpu {
	int sms, max_threads_sm, max_blocks_sm, clock_khz, optin_i;
	size_t optin;
	int nb, bps[MAXB];    /* blocks per SM: 1, 2, 4, ... (nb of them) */
};

/* What the two sweeps found. */
struct results {
	struct cell ar[MAXB][NILP], mem[MAXB][NILP];
	double ceiling, best;
	int best_b, best_v, failed;
};

static int setup(struct gpu *g)
{
	int dev;
	APOD_CUDA_TRY(cudaGetDevice(&dev));
	APOD_CUDA_TRY(cudaDeviceGetAttribute(&g->sms, cudaDevAttrMultiProcessorCount, dev));
	APOD_CUDA_TRY(cudaDeviceGetAttribute(&g->max_threads_sm, cudaDevAttrMaxThreadsPerMultiProcessor, dev));
	APOD_CUDA_TRY(cudaDeviceGetAttribute(&g->max_blocks_sm, cudaDevAttrMaxBlocksPerMultiprocessor, dev));
	APOD_CUDA_TRY(cudaDeviceGetAttribute(&g->clock_khz, cudaDevAttrClockRate, dev));
	APOD_CUDA_TRY(cudaDeviceGetAttribute(&g->optin_i, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
	g->optin = (size_t)g->optin_i;
	/* Blocks per SM: 1, 2, 4, ... up to what an SM can hold (4 to 64 warps on an H200). */
	for (int b = 1; g->nb < MAXB && b * BLOCK <= g->max_threads_sm && b <= g->max_blocks_sm; b *= 2)
		g->bps[g->nb++] = b;
	if (g->nb == 0)
		return apod_fail("ilp: an SM of this device cannot hold one block of %d threads", BLOCK);
	/* Prefer the largest shared-memory carveout, so that the occupancy
	 * calculator (which honours the preference) and the driver (which takes
	 * it as a hint) work from the same shared memory per SM. */
	for (int v = 0; v < NILP; v++) {
		const void *fns[2] = { (const void *)fma_kernels[v], (const void *)copy_kernels[v] };
		for (int f = 0; f < 2; f++) {
			APOD_CUDA_TRY(cudaFuncSetAttribute(fns[f], cudaFuncAttributeMaxDynamicSharedMemorySize, g->optin_i));
			APOD_CUDA_TRY(cudaFuncSetAttribute(fns[f], cudaFuncAttributePreferredSharedMemoryCarveout,
			                              (int)cudaSharedmemCarveoutMaxShared));
		}
	}
	return 0;
}

/* 1. Arithmetic: every cell checked, then timed; the best cell remembered. */
static int arithmetic(const struct apod_lab_opts *o, const struct gpu *g, int fmas, struct results *x)
{
	int passes = fmas / PASS_FMAS;
	size_t max_threads = (size_t)g->sms * g->bps[g->nb - 1] * BLOCK;
	host_array<float> h_x0, h_got;
	dev_array<float> d_x0, d_x;

	if (h_x0.alloc(max_threads * 8) || h_got.alloc(max_threads * 8))
		return -1;
	for (size_t e = 0; e < max_threads * 8; e++)
		h_x0.p[e] = start_value(e);
	/* The closed form x0 + L/8 against the host's own fmaf chain, longest chain first. */
	for (int v = 0; v < NILP; v++) {
		long L = (long)fmas / ilps[v];
		float extremes[2] = { -65536.0f, 65535.75f };
		for (int k = 0; k < 34; k++) {
			float x0 = k < 32 ? h_x0.p[k] : extremes[k - 32];
			if (host_chain(x0, L) != x0 + (float)(L / 8.0))
				return apod_fail("ilp: the host's fmaf chain from %g is not x0 + %ld/8", x0, L);
		}
	}
	if (d_x0.alloc(max_threads * 8) || d_x.alloc(max_threads * 8))
		return -1;
	APOD_CUDA_TRY(cudaMemcpy(d_x0.p, h_x0.p, max_threads * 8 * sizeof(float), cudaMemcpyHostToDevice));
	for (int b = 0; b < g->nb; b++)
		for (int v = 0; v < NILP; v++) {
			struct cell *c = &x->ar[b][v];
			int got, blocks = g->sms * g->bps[b], threads = blocks * BLOCK;
			size_t elems = (size_t)threads * ilps[v];
			if (smem_for((const void *)fma_kernels[v], g->bps[b], g->optin, &c->smem, &got))
				return -1;
			if (!(c->have = got == g->bps[b]))
				continue;
			APOD_CUDA_TRY(cudaMemset(d_x.p, 0, elems * sizeof(float)));
			APOD_LAUNCH_TRY((fma_kernels[v]<<<blocks, BLOCK, c->smem>>>(d_x0.p, d_x.p, passes)));
			APOD_CUDA_TRY(cudaMemcpy(h_got.p, d_x.p, elems * sizeof(float), cudaMemcpyDeviceToHost));
			c->ok = 1;
			/* Element j * threads + t is chain j of thread t: x0 + (fmas / ILP) / 8. */
			for (size_t e = 0; e < elems && c->ok; e++)
				c->ok = h_got.p[e] == h_x0.p[e] + (float)(fmas / ilps[v] / 8.0);
			x->failed |= !c->ok;
			if (!c->ok || o->check)
				continue;
			if (time_it(o->reps, [&] {
				    fma_kernels[v]<<<blocks, BLOCK, c->smem>>>(d_x0.p, d_x.p, passes);
				    return cudaGetLastError() != cudaSuccess; }, &c->ms))
				return -1;
			c->value = 2.0 * threads * (double)fmas / (c->ms * 1e-3) / 1e9;
			if (c->value > x->best)
				x->best = c->value, x->best_b = b, x->best_v = v;
		}
	return 0;
}

/* Part 1's table, its JSON (the main "rows"), the best cell and the FMA latency it implies. */
static void report_arithmetic(const struct apod_lab_opts *o, json_object *out, const struct gpu *g, int fmas,
                              const struct results *x)
{
	json_object *rows;

	printf("ilp, part 1: each thread runs %d FMAs (__fmaf_rn) as ILP independent chains; blocks of %d "
	       "threads, %d SMs x blocks/SM of them, dynamic shared memory holds each SM to that many; "
	       "GFLOP/s = 2 x FMAs / time (%% of the best cell); checked bit for bit\n", fmas, BLOCK, g->sms);
	printf("  %8s %9s", "warps/SM", "occupancy");
	for (int v = 0; v < NILP; v++)
		printf(" %9s ILP %d", "", ilps[v]);
	printf("\n");
	rows = lab_array(out, "rows");
	for (int b = 0; b < g->nb; b++) {
		int warps = g->bps[b] * BLOCK / 32;
		printf("  %8d %8.1f%%", warps, 100.0 * warps * 32 / g->max_threads_sm);
		for (int v = 0; v < NILP; v++) {
			json_object *r = cell_row(rows, &x->ar[b][v], ilps[v], warps, g->max_threads_sm, x->best,
			                          "GFLOP/s", "fraction_of_best", !o->check);
			lab_put(r, "independent_fmas_per_scheduler", warps / 4.0 * ilps[v]);
		}
		printf("\n");
	}
	lab_put(out, "unit", "GFLOP/s");
	lab_put(out, "fmas_per_thread", fmas);
	lab_put(out, "sms", g->sms);
	lab_put(out, "clock_khz", g->clock_khz);
	if (!o->check && x->best > 0) {
		const struct cell *low = &x->ar[0][0];
		printf("  best: %.1f GFLOP/s (ILP %d, %d warps/SM) = %.1f FMAs per clock per SM at the peak "
		       "clock of %.0f MHz\n", x->best, ilps[x->best_v], g->bps[x->best_b] * BLOCK / 32,
		       x->best / 2 / g->sms / (g->clock_khz * 1e-6), g->clock_khz * 1e-3);
		lab_put(out, "best_gflops", x->best);
		/* One warp per scheduler, one chain: each FMA waits for the one before. */
		if (low->have && low->ok && g->bps[0] == 1) {
			double cycles = low->ms * 1e-3 * g->clock_khz * 1e3 / fmas;
			printf("  %d warps/SM, ILP 1: one warp per scheduler, one chain: %.2f cycles per dependent "
			       "FMA at the peak clock (the FMA latency)\n", BLOCK / 32, cycles);
			lab_put(out, "implied_fma_latency_cycles", cycles);
		}
	}
}

/* 2. Memory: the copy ceiling, then every cell checked and timed. */
static int memory(const struct apod_lab_opts *o, const struct gpu *g, size_t n, struct results *x)
{
	size_t nbytes = n * sizeof(float);
	host_array<float> h_in, h_back;
	dev_array<float> d_in, d_out;

	if (!o->check && copy4_ceiling_gbs(nbytes, o->reps, &x->ceiling))
		return -1;
	if (h_in.alloc(n) || h_back.alloc(n))
		return -1;
	for (size_t e = 0; e < n; e++) {
		uint32_t w = mix(e + 77);
		memcpy(&h_in.p[e], &w, sizeof w);   /* any bit pattern: a copy must keep it */
	}
	if (d_in.alloc(n) || d_out.alloc(n))
		return -1;
	APOD_CUDA_TRY(cudaMemcpy(d_in.p, h_in.p, nbytes, cudaMemcpyHostToDevice));
	for (int b = 0; b < g->nb; b++)
		for (int v = 0; v < NILP; v++) {
			struct cell *c = &x->mem[b][v];
			int got, blocks = g->sms * g->bps[b];
			if (smem_for((const void *)copy_kernels[v], g->bps[b], g->optin, &c->smem, &got))
				return -1;
			if (!(c->have = got == g->bps[b]))
				continue;
			APOD_CUDA_TRY(cudaMemset(d_out.p, 0, nbytes));
			APOD_LAUNCH_TRY((copy_kernels[v]<<<blocks, BLOCK, c->smem>>>(d_in.p, d_out.p, (unsigned)n)));
			APOD_CUDA_TRY(cudaMemcpy(h_back.p, d_out.p, nbytes, cudaMemcpyDeviceToHost));
			c->ok = memcmp(h_back.p, h_in.p, nbytes) == 0;
			x->failed |= !c->ok;
			if (!c->ok || o->check)
				continue;
			if (time_it(o->reps, [&] {
				    copy_kernels[v]<<<blocks, BLOCK, c->smem>>>(d_in.p, d_out.p, (unsigned)n);
				    return cudaGetLastError() != cudaSuccess; }, &c->ms))
				return -1;
			c->value = 2.0 * nbytes / (c->ms * 1e-3) / 1e9;
		}
	return 0;
}

/* Part 2's table, its JSON ("memory") and Little's law on the most starved cell. */
static void report_memory(const struct apod_lab_opts *o, json_object *out, const struct gpu *g, size_t n,
                          const struct results *x)
{
	size_t nbytes = n * sizeof(float);
	double ceiling = x->ceiling;
	json_object *m, *rows;

	printf("\nilp, part 2: a copy of %zu floats (%zu bytes read + %zu written) in which each thread "
	       "loads ILP floats before it stores them; GB/s", n, nbytes, nbytes);
	if (!o->check)
		printf(" (%% of the ceiling: a 16-byte copy of the same bytes, %.1f GB/s)", ceiling);
	printf("; checked bit for bit\n");
	printf("  %8s %9s", "warps/SM", "occupancy");
	for (int v = 0; v < NILP; v++)
		printf(" %9s ILP %d", "", ilps[v]);
	printf("\n");
	m = json_object_new_object();
	lab_put(out, "memory", m);
	rows = lab_array(m, "rows");
	for (int b = 0; b < g->nb; b++) {
		int warps = g->bps[b] * BLOCK / 32;
		printf("  %8d %8.1f%%", warps, 100.0 * warps * 32 / g->max_threads_sm);
		for (int v = 0; v < NILP; v++) {
			json_object *r = cell_row(rows, &x->mem[b][v], ilps[v], warps, g->max_threads_sm, ceiling, "GB/s",
			                          "fraction_of_ceiling", !o->check);
			lab_put(r, "load_bytes_in_flight_per_sm", warps * ilps[v] * 32 * (int)sizeof(float));
		}
		printf("\n");
	}
	lab_put(m, "unit", "GB/s");
	lab_put(m, "bytes", 2 * nbytes);
	if (ceiling > 0) {
		lab_put(m, "ceiling", ceiling);
		lab_put(m, "ceiling_is", "copy4 (16-byte copy) on the same bytes");
	}
	/* Little's law on the most starved point: bytes in flight / read rate = latency. */
	if (!o->check && x->mem[0][0].have && x->mem[0][0].ok) {
		double flight = (double)g->sms * g->bps[0] * BLOCK * sizeof(float);
		double read_rate = nbytes / (x->mem[0][0].ms * 1e-3);
		double ns = apod_model_little_latency_ns(flight, read_rate);
		/* Reads are half the ceiling's bytes. */
		double need = apod_model_little_bytes_in_flight(ceiling / 2, ns) / g->sms;
		printf("  Little's law: %d warps/SM with one 4-byte load each keep %.0f bytes of loads in "
		       "flight on the GPU; read at %.1f GB/s, that implies a latency of %.0f ns; reading at "
		       "the ceiling's rate would need about %.0f bytes in flight per SM\n", g->bps[0] * BLOCK / 32,
		       flight, read_rate / 1e9, ns, need);
		lab_put(m, "implied_latency_ns", ns);
		lab_put(m, "bytes_in_flight_per_sm_needed", need);
	}
}

extern "C" int apod_lab_ilp(const struct apod_lab_opts *o, json_object *out)
{
	size_t n = lab_size(o, (size_t)1 << 26, ((size_t)1 << 20) + 333);
	int fmas = o->check ? 1024 : 1 << 18;
	struct gpu g = {};
	struct results x = {};

	if (n < 4096 || n > (size_t)1 << 29)
		return apod_usage_fail("ilp: --size %zu floats is outside 4096 .. 2^29", n);
	if (setup(&g) || arithmetic(o, &g, fmas, &x))
		return -1;
	report_arithmetic(o, out, &g, fmas, &x);
	if (memory(o, &g, n, &x))
		return -1;
	report_memory(o, out, &g, n, &x);
	return x.failed ? apod_fail("ilp: a version's output differs from the host's") : 0;
}
