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

#include "copy4.cuh"
#include "cuda_check.h"
#include "lab.h"
#include "labs/splitmix.h"
#include "lab_models.h"   /* Little's law: apod_model_little_* */
#include "timing.cuh"

#define BLOCK 128        /* four warps: one for each scheduler of a Volta-to-Hopper SM */
#define PASS_FMAS 64     /* FMAs per thread in one pass of the loop, whatever ILP is */
#define NILP 4
#define MAXB 8           /* at most 2^7 = 128 blocks per SM in the sweep */

static const int ilps[NILP] = { 1, 2, 4, 8 };

/* ILP independent chains per thread, PASS_FMAS / ILP FMAs each per pass. */
template <int ILP>
static __global__ void __launch_bounds__(BLOCK) fma_chains(const float *__restrict__ x0,
                                                            float *__restrict__ x, int passes)
{
	const int threads = gridDim.x * blockDim.x, t = blockIdx.x * blockDim.x + threadIdx.x;
	float v[ILP];
#pragma unroll
	for (int j = 0; j < ILP; j++)
		v[j] = x0[j * threads + t];
	/* One pass is the same 64 FMAs and the same loop overhead for every ILP;
	 * only how they depend on each other changes. */
#pragma unroll 1
	for (int p = 0; p < passes; p++) {
#pragma unroll
		for (int s = 0; s < PASS_FMAS / (2 * ILP); s++) {
#pragma unroll
			for (int j = 0; j < ILP; j++) {
				v[j] = __fmaf_rn(v[j], 2.0f, 1.0f);
				v[j] = __fmaf_rn(v[j], 0.5f, -0.25f);
			}
		}
	}
#pragma unroll
	for (int j = 0; j < ILP; j++)
		x[j * threads + t] = v[j];
}

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
	CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, fn, BLOCK, 0));
	if (occ <= want) {
		*smem = 0;
		*got = occ;
		return 0;
	}
	CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, fn, BLOCK, hi));
	if (occ > want) {
		*smem = hi;
		*got = occ;
		return 0;
	}
	/* occ(lo) > want >= occ(hi), and occupancy only falls as shared memory grows. */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, fn, BLOCK, mid));
		if (occ <= want)
			hi = mid;
		else
			lo = mid;
	}
	*smem = hi;
	CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(got, fn, BLOCK, hi));
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

/* One cell printed in the table and returned as its JSON row: `of` is what
 * its fraction is taken of (the best cell, or the copy ceiling). */
static json_object *cell_row(const struct cell *c, int ilp, int warps, int max_threads_sm, double of,
                             const char *unit, const char *fraction_key, int timed)
{
	json_object *r = json_object_new_object();
	char name[64];
	cell_print(c, of, timed);
	snprintf(name, sizeof name, "ILP %d, %d warps/SM", ilp, warps);
	json_object_object_add(r, "version", json_object_new_string(name));
	json_object_object_add(r, "ilp", json_object_new_int(ilp));
	json_object_object_add(r, "warps_per_sm", json_object_new_int(warps));
	json_object_object_add(r, "occupancy", json_object_new_double((double)warps * 32 / max_threads_sm));
	json_object_object_add(r, "available", json_object_new_boolean(c->have));
	json_object_object_add(r, "verified", json_object_new_boolean(c->have && c->ok));
	if (c->have)
		json_object_object_add(r, "dynamic_smem_bytes", json_object_new_int64((int64_t)c->smem));
	if (c->have && c->ok && timed) {
		json_object_object_add(r, "ms", json_object_new_double(c->ms));
		json_object_object_add(r, unit, json_object_new_double(c->value));
		json_object_object_add(r, fraction_key, json_object_new_double(c->value / of));
	}
	return r;
}

extern "C" int apod_lab_ilp(const struct apod_lab_opts *o, json_object *out)
{
	size_t n = o->check ? ((size_t)1 << 20) + 333 : (o->size ? o->size : (size_t)1 << 26);
	int fmas = o->check ? 1024 : 1 << 18, passes = fmas / PASS_FMAS;
	int dev, sms, max_threads_sm, max_blocks_sm, clock_khz, optin_i, nb = 0, bps[MAXB], failed = 0;
	size_t optin, max_threads, nbytes = n * sizeof(float);
	struct cell ar[MAXB][NILP], mem[MAXB][NILP];
	float *h_x0 = NULL, *h_got = NULL, *h_in = NULL, *h_back = NULL;
	float *d_x0 = NULL, *d_x = NULL, *d_in = NULL, *d_out = NULL;
	double ceiling = 0, best = 0;
	int best_b = 0, best_v = 0;

	if (n < 4096 || n > (size_t)1 << 29)
		return apod_usage_fail("ilp: --size %zu floats is outside 4096 .. 2^29", n);
	memset(ar, 0, sizeof ar);
	memset(mem, 0, sizeof mem);
	CUDA_TRY(cudaGetDevice(&dev));
	CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
	CUDA_TRY(cudaDeviceGetAttribute(&max_threads_sm, cudaDevAttrMaxThreadsPerMultiProcessor, dev));
	CUDA_TRY(cudaDeviceGetAttribute(&max_blocks_sm, cudaDevAttrMaxBlocksPerMultiprocessor, dev));
	CUDA_TRY(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, dev));
	CUDA_TRY(cudaDeviceGetAttribute(&optin_i, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
	optin = (size_t)optin_i;
	/* Blocks per SM: 1, 2, 4, ... up to what an SM can hold (4 to 64 warps on an H200). */
	for (int b = 1; nb < MAXB && b * BLOCK <= max_threads_sm && b <= max_blocks_sm; b *= 2)
		bps[nb++] = b;
	if (nb == 0)
		return apod_fail("ilp: an SM of this device cannot hold one block of %d threads", BLOCK);
	/* Prefer the largest shared-memory carveout, so that the occupancy
	 * calculator (which honours the preference) and the driver (which takes
	 * it as a hint) work from the same shared memory per SM. */
	for (int v = 0; v < NILP; v++) {
		const void *fns[2] = { (const void *)fma_kernels[v], (const void *)copy_kernels[v] };
		for (int f = 0; f < 2; f++) {
			CUDA_TRY(cudaFuncSetAttribute(fns[f], cudaFuncAttributeMaxDynamicSharedMemorySize, optin_i));
			CUDA_TRY(cudaFuncSetAttribute(fns[f], cudaFuncAttributePreferredSharedMemoryCarveout,
			                              (int)cudaSharedmemCarveoutMaxShared));
		}
	}
	max_threads = (size_t)sms * bps[nb - 1] * BLOCK;

	/* 1. Arithmetic. */
	if (!(h_x0 = (float *)malloc(max_threads * 8 * sizeof(float))) ||
	    !(h_got = (float *)malloc(max_threads * 8 * sizeof(float)))) {
		free(h_x0);
		return apod_fail("ilp: cannot allocate %zu floats of host memory", 2 * max_threads * 8);
	}
	for (size_t e = 0; e < max_threads * 8; e++)
		h_x0[e] = start_value(e);
	/* The closed form x0 + L/8 against the host's own fmaf chain, longest chain first. */
	for (int v = 0; v < NILP; v++) {
		long L = (long)fmas / ilps[v];
		float extremes[2] = { -65536.0f, 65535.75f };
		for (int k = 0; k < 34; k++) {
			float x = k < 32 ? h_x0[k] : extremes[k - 32];
			if (host_chain(x, L) != x + (float)(L / 8.0))
				return apod_fail("ilp: the host's fmaf chain from %g is not x0 + %ld/8", x, L);
		}
	}
	CUDA_TRY(cudaMalloc(&d_x0, max_threads * 8 * sizeof(float)));
	CUDA_TRY(cudaMalloc(&d_x, max_threads * 8 * sizeof(float)));
	CUDA_TRY(cudaMemcpy(d_x0, h_x0, max_threads * 8 * sizeof(float), cudaMemcpyHostToDevice));
	for (int b = 0; b < nb; b++)
		for (int v = 0; v < NILP; v++) {
			struct cell *c = &ar[b][v];
			int got, blocks = sms * bps[b], threads = blocks * BLOCK;
			size_t elems = (size_t)threads * ilps[v];
			if (smem_for((const void *)fma_kernels[v], bps[b], optin, &c->smem, &got))
				return -1;
			if (!(c->have = got == bps[b]))
				continue;
			CUDA_TRY(cudaMemset(d_x, 0, elems * sizeof(float)));
			LAUNCH_TRY((fma_kernels[v]<<<blocks, BLOCK, c->smem>>>(d_x0, d_x, passes)));
			CUDA_TRY(cudaMemcpy(h_got, d_x, elems * sizeof(float), cudaMemcpyDeviceToHost));
			c->ok = 1;
			/* Element j * threads + t is chain j of thread t: x0 + (fmas / ILP) / 8. */
			for (size_t e = 0; e < elems && c->ok; e++)
				c->ok = h_got[e] == h_x0[e] + (float)(fmas / ilps[v] / 8.0);
			failed |= !c->ok;
			if (!c->ok || o->check)
				continue;
			if (time_it(o->reps, [&] {
				    fma_kernels[v]<<<blocks, BLOCK, c->smem>>>(d_x0, d_x, passes);
				    return cudaGetLastError() != cudaSuccess; }, &c->ms))
				return -1;
			c->value = 2.0 * threads * (double)fmas / (c->ms * 1e-3) / 1e9;
			if (c->value > best)
				best = c->value, best_b = b, best_v = v;
		}
	cudaFree(d_x0);
	cudaFree(d_x);
	free(h_x0);
	free(h_got);

	printf("ilp, part 1: each thread runs %d FMAs (__fmaf_rn) as ILP independent chains; blocks of %d "
	       "threads, %d SMs x blocks/SM of them, dynamic shared memory holds each SM to that many; "
	       "GFLOP/s = 2 x FMAs / time (%% of the best cell); checked bit for bit\n", fmas, BLOCK, sms);
	printf("  %8s %9s", "warps/SM", "occupancy");
	for (int v = 0; v < NILP; v++)
		printf(" %9s ILP %d", "", ilps[v]);
	printf("\n");
	{
		json_object *rows = json_object_new_array();
		for (int b = 0; b < nb; b++) {
			int warps = bps[b] * BLOCK / 32;
			printf("  %8d %8.1f%%", warps, 100.0 * warps * 32 / max_threads_sm);
			for (int v = 0; v < NILP; v++) {
				struct cell *c = &ar[b][v];
				json_object *r = cell_row(c, ilps[v], warps, max_threads_sm, best, "GFLOP/s",
				                          "fraction_of_best", !o->check);
				json_object_object_add(r, "independent_fmas_per_scheduler",
				                       json_object_new_double(warps / 4.0 * ilps[v]));
				json_object_array_add(rows, r);
			}
			printf("\n");
		}
		json_object_object_add(out, "rows", rows);
		json_object_object_add(out, "unit", json_object_new_string("GFLOP/s"));
		json_object_object_add(out, "fmas_per_thread", json_object_new_int(fmas));
		json_object_object_add(out, "sms", json_object_new_int(sms));
		json_object_object_add(out, "clock_khz", json_object_new_int(clock_khz));
	}
	if (!o->check && best > 0) {
		const struct cell *low = &ar[0][0];
		printf("  best: %.1f GFLOP/s (ILP %d, %d warps/SM) = %.1f FMAs per clock per SM at the peak "
		       "clock of %.0f MHz\n", best, ilps[best_v], bps[best_b] * BLOCK / 32,
		       best / 2 / sms / (clock_khz * 1e-6), clock_khz * 1e-3);
		json_object_object_add(out, "best_gflops", json_object_new_double(best));
		/* One warp per scheduler, one chain: each FMA waits for the one before. */
		if (low->have && low->ok && bps[0] == 1) {
			double cycles = low->ms * 1e-3 * clock_khz * 1e3 / fmas;
			printf("  %d warps/SM, ILP 1: one warp per scheduler, one chain: %.2f cycles per dependent "
			       "FMA at the peak clock (the FMA latency)\n", BLOCK / 32, cycles);
			json_object_object_add(out, "implied_fma_latency_cycles", json_object_new_double(cycles));
		}
	}

	/* 2. Memory. */
	if (!o->check && copy4_ceiling_gbs(nbytes, o->reps, &ceiling))
		return -1;
	if (!(h_in = (float *)malloc(nbytes)) || !(h_back = (float *)malloc(nbytes))) {
		free(h_in);
		return apod_fail("ilp: cannot allocate %zu bytes of host memory", 2 * nbytes);
	}
	for (size_t e = 0; e < n; e++) {
		uint32_t w = mix(e + 77);
		memcpy(&h_in[e], &w, sizeof w);   /* any bit pattern: a copy must keep it */
	}
	CUDA_TRY(cudaMalloc(&d_in, nbytes));
	CUDA_TRY(cudaMalloc(&d_out, nbytes));
	CUDA_TRY(cudaMemcpy(d_in, h_in, nbytes, cudaMemcpyHostToDevice));
	for (int b = 0; b < nb; b++)
		for (int v = 0; v < NILP; v++) {
			struct cell *c = &mem[b][v];
			int got, blocks = sms * bps[b];
			if (smem_for((const void *)copy_kernels[v], bps[b], optin, &c->smem, &got))
				return -1;
			if (!(c->have = got == bps[b]))
				continue;
			CUDA_TRY(cudaMemset(d_out, 0, nbytes));
			LAUNCH_TRY((copy_kernels[v]<<<blocks, BLOCK, c->smem>>>(d_in, d_out, (unsigned)n)));
			CUDA_TRY(cudaMemcpy(h_back, d_out, nbytes, cudaMemcpyDeviceToHost));
			c->ok = memcmp(h_back, h_in, nbytes) == 0;
			failed |= !c->ok;
			if (!c->ok || o->check)
				continue;
			if (time_it(o->reps, [&] {
				    copy_kernels[v]<<<blocks, BLOCK, c->smem>>>(d_in, d_out, (unsigned)n);
				    return cudaGetLastError() != cudaSuccess; }, &c->ms))
				return -1;
			c->value = 2.0 * nbytes / (c->ms * 1e-3) / 1e9;
		}
	cudaFree(d_in);
	cudaFree(d_out);
	free(h_in);
	free(h_back);

	printf("\nilp, part 2: a copy of %zu floats (%zu bytes read + %zu written) in which each thread "
	       "loads ILP floats before it stores them; GB/s", n, nbytes, nbytes);
	if (!o->check)
		printf(" (%% of the ceiling: a 16-byte copy of the same bytes, %.1f GB/s)", ceiling);
	printf("; checked bit for bit\n");
	printf("  %8s %9s", "warps/SM", "occupancy");
	for (int v = 0; v < NILP; v++)
		printf(" %9s ILP %d", "", ilps[v]);
	printf("\n");
	{
		json_object *m = json_object_new_object(), *rows = json_object_new_array();
		for (int b = 0; b < nb; b++) {
			int warps = bps[b] * BLOCK / 32;
			printf("  %8d %8.1f%%", warps, 100.0 * warps * 32 / max_threads_sm);
			for (int v = 0; v < NILP; v++) {
				struct cell *c = &mem[b][v];
				json_object *r = cell_row(c, ilps[v], warps, max_threads_sm, ceiling, "GB/s",
				                          "fraction_of_ceiling", !o->check);
				json_object_object_add(r, "load_bytes_in_flight_per_sm",
				                       json_object_new_int(warps * ilps[v] * 32 * (int)sizeof(float)));
				json_object_array_add(rows, r);
			}
			printf("\n");
		}
		json_object_object_add(m, "rows", rows);
		json_object_object_add(m, "unit", json_object_new_string("GB/s"));
		json_object_object_add(m, "bytes", json_object_new_int64((int64_t)(2 * nbytes)));
		if (ceiling > 0) {
			json_object_object_add(m, "ceiling", json_object_new_double(ceiling));
			json_object_object_add(m, "ceiling_is", json_object_new_string("copy4 (16-byte copy) on the same bytes"));
		}
		/* Little's law on the most starved point: bytes in flight / read rate = latency. */
		if (!o->check && mem[0][0].have && mem[0][0].ok) {
			double flight = (double)sms * bps[0] * BLOCK * sizeof(float);
			double read_rate = nbytes / (mem[0][0].ms * 1e-3);
			double ns = apod_model_little_latency_ns(flight, read_rate);
			/* Reads are half the ceiling's bytes. */
			double need = apod_model_little_bytes_in_flight(ceiling / 2, ns) / sms;
			printf("  Little's law: %d warps/SM with one 4-byte load each keep %.0f bytes of loads in "
			       "flight on the GPU; read at %.1f GB/s, that implies a latency of %.0f ns; reading at "
			       "the ceiling's rate would need about %.0f bytes in flight per SM\n", bps[0] * BLOCK / 32,
			       flight, read_rate / 1e9, ns, need);
			json_object_object_add(m, "implied_latency_ns", json_object_new_double(ns));
			json_object_object_add(m, "bytes_in_flight_per_sm_needed", json_object_new_double(need));
		}
		json_object_object_add(out, "memory", m);
	}
	return failed ? apod_fail("ilp: a version's output differs from the host's") : 0;
}
