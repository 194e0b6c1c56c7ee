/*
 * occupancy.cu: lab 8, how many warps a multiprocessor holds, and when
 * holding more stops paying.
 *
 *   a) The calculator (cpu/labs/occupancy.c) against the runtime's
 *      cudaOccupancyMaxActiveBlocksPerMultiprocessor, on compiled kernels
 *      whose footprints differ: a few registers (axpy, fma), many
 *      registers (a kernel holding 96 values live, free, capped by
 *      __launch_bounds__ and by __maxnreg__, including the guide's 37),
 *      static shared arrays of 1 to 48 KiB, and dynamic shared memory up
 *      to the opt-in maximum; block sizes 1..1024 (every multiple of 32 and
 *      a few that are not).  The calculator is fed what the runtime
 *      reports (numRegs, sharedSizeBytes, maxThreadsPerBlock,
 *      maxDynamicSharedSizeBytes and the device's per-SM limits) plus the
 *      allocation units from its table; every kernel prefers the largest
 *      shared-memory carveout, so the SM's shared memory is
 *      sharedMemPerMultiprocessor.  Every disagreement is a failure.  A
 *      small table then shows what the carveout preference does (not
 *      counted: the preference is a hint the driver may overrule).
 *   b) Block-size sweep, 32..1024 threads (and 48, 100, 200), of a
 *      memory-bound kernel (z = a*x + y, GB/s) and a compute-bound one (a
 *      chain of 2048 dependent FMAs per thread, GFLOP/s), with the
 *      occupancy of each block size beside the metric.
 *   c) The guide's sensitivity experiment (§10.4): the same kernels at 128
 *      threads per block, with dynamic shared memory they never touch
 *      added so that blocks per SM drop one at a time, from 16 to 1 on an
 *      H100/H200; axpy also in a float4 form, which keeps four times as
 *      many bytes in flight per warp.
 *
 * Verified: every kernel's output is compared bit for bit with a CPU
 * reference: integer work for the register and shared-memory kernels,
 * and for axpy __fmul_rn/__fadd_rn on the device against one rounding of
 * the exact product and of the exact sum on the host.  In (b) and (c)
 * each configuration is checked before it is timed, after filling the
 * output with a NaN pattern so that an earlier run cannot pass for it.
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/copy4.cuh"
#include "kit.cuh"
#include "cpu/labs/occupancy.h"

#define FMA_STEPS 2048      /* dependent FMAs per thread in the compute-bound kernel */
#define LIVE 96             /* values each thread of the register kernels keeps live */
#define ROUNDS 2
#define STEP_THREADS 128    /* block size of part (c) */
#define AXPY_A 1.7f
#define FMA_A 0.999f
#define FMA_B 0.001f

/* ---------------------------------------------------------------- kernels */

/* z = a*x + y, rounded twice (no contraction into an FMA), one element per
 * thread.  TAG only makes a second copy for the carveout table. */
template <int TAG>
static __global__ void axpy_kernel(float a, const float *__restrict__ x, const float *__restrict__ y,
                                   float *__restrict__ z, size_t n)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		z[i] = __fadd_rn(__fmul_rn(a, x[i]), y[i]);
}

/* The same with 16-byte loads: four elements per thread. */
static __global__ void axpy4_kernel(float a, const float *__restrict__ x, const float *__restrict__ y,
                                    float *__restrict__ z, size_t n)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x, n4 = n / 4;
	if (i < n4) {
		float4 u = reinterpret_cast<const float4 *>(x)[i], v = reinterpret_cast<const float4 *>(y)[i], w;
		w.x = __fadd_rn(__fmul_rn(a, u.x), v.x);
		w.y = __fadd_rn(__fmul_rn(a, u.y), v.y);
		w.z = __fadd_rn(__fmul_rn(a, u.z), v.z);
		w.w = __fadd_rn(__fmul_rn(a, u.w), v.w);
		reinterpret_cast<float4 *>(z)[i] = w;
	}
	/* The last n % 4 elements, by the grid's first threads. */
	if (i < n - 4 * n4)
		z[4 * n4 + i] = __fadd_rn(__fmul_rn(a, x[4 * n4 + i]), y[4 * n4 + i]);
}

/* One chain of dependent FMAs per thread: each waits ~4 cycles for the one
 * before, so an SM needs several warps per scheduler to stay busy.  The
 * start depends on the low 12 bits of the index and the result is offset
 * by the rest, so that every output differs from its neighbours.  The
 * constants are literals: one becomes an immediate, so each FFMA reads two
 * registers, which the compiler puts in different register banks.  Passed
 * as kernel arguments, both were held in registers: each FFMA (R0, R0, R4,
 * R5 in the sm_90 code) read R0 and R4 from the same bank, and the chain
 * ran at half the FP32 rate (32 TFLOP/s on the H200, against 57 for a
 * chain with literal constants in the ilp lab). */
static __global__ void fma_kernel(float *__restrict__ out, size_t n)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float v = (float)(unsigned)(i & 4095) * (1.0f / 4096.0f);
	for (int k = 0; k < FMA_STEPS / 64; k++) {
#pragma unroll
		for (int j = 0; j < 64; j++)
			v = fmaf(v, FMA_A, FMA_B);
	}
	out[i] = __fadd_rn(v, (float)(unsigned)(i >> 12));
}

/* Register pressure: LIVE values loaded, mixed while all are live, folded. */
static __device__ __forceinline__ void regs_body(const unsigned *__restrict__ in, unsigned *__restrict__ out,
                                                 int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned v[LIVE], h = 0;
	if (i >= n)
		return;
#pragma unroll
	for (int k = 0; k < LIVE; k++)
		v[k] = in[(size_t)k * n + i];
#pragma unroll
	for (int r = 0; r < ROUNDS; r++)
#pragma unroll
		for (int k = 0; k < LIVE; k++)
			v[k] = v[k] * 2654435761u + (v[(k + 1) % LIVE] ^ (v[(k + 37) % LIVE] >> 3));
#pragma unroll
	for (int k = 0; k < LIVE; k++)
		h = h * 31u + v[k];
	out[i] = h;
}

static __global__ void regs_free(const unsigned *in, unsigned *out, int n) { regs_body(in, out, n); }
/* 4 blocks of 256 must fit: at most 65536 / 1024 = 64 registers. */
static __global__ void __launch_bounds__(256, 4) regs_lb256x4(const unsigned *in, unsigned *out, int n)
{
	regs_body(in, out, n);
}
/* A per-kernel -maxrregcount (nvcc 12.4 on; older compilers leave the
 * kernel uncapped, and the table shows what it got).  The guide's example
 * is 37 registers per thread; 32 is the most that allows full occupancy on
 * a 2048-thread SM (a launch-bounds pair cannot ask for it without
 * exceeding the 1024 threads of a CC 7.5 SM). */
#if __CUDACC_VER_MAJOR__ > 12 || (__CUDACC_VER_MAJOR__ == 12 && __CUDACC_VER_MINOR__ >= 4)
#define MAXNREG(n) __maxnreg__(n)
#else
#define MAXNREG(n)
#endif
static __global__ void MAXNREG(37) regs_max37(const unsigned *in, unsigned *out, int n)
{
	regs_body(in, out, n);
}
static __global__ void MAXNREG(32) regs_max32(const unsigned *in, unsigned *out, int n)
{
	regs_body(in, out, n);
}
/* Only a block-size cap: the compiler may use all the registers it likes. */
static __global__ void __launch_bounds__(128) regs_lb128(const unsigned *in, unsigned *out, int n)
{
	regs_body(in, out, n);
}

/* Shared memory: each block fills `words` words from its own index, then
 * each thread reads one word chosen by its thread index. */
static __device__ __forceinline__ void smem_body(unsigned *s, unsigned words, const unsigned *__restrict__ in,
                                                 unsigned *__restrict__ out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	for (unsigned k = threadIdx.x; k < words; k += blockDim.x)
		s[k] = (k * 2654435761u) ^ (blockIdx.x * 40503u);
	__syncthreads();
	if (i < n)
		out[i] = in[i] ^ s[(threadIdx.x * 97u + 13u) % words];
}

template <int WORDS>
static __global__ void smem_kernel(const unsigned *in, unsigned *out, int n)
{
	__shared__ unsigned s[WORDS];
	smem_body(s, WORDS, in, out, n);
}

static __global__ void dsmem_kernel(const unsigned *in, unsigned *out, int n, unsigned words)
{
	extern __shared__ unsigned dyn_smem[];
	smem_body(dyn_smem, words, in, out, n);
}

typedef void (*regs_fn)(const unsigned *, unsigned *, int);   /* also the static-shared kernels */

/* ------------------------------------------------------- the kernel table */

enum kind { K_AXPY, K_AXPY4, K_FMA, K_REGS, K_SMEM, K_DSMEM };

struct kern {
	const char *name;
	enum kind kind;
	const void *fn;
	regs_fn rf;               /* K_REGS and K_SMEM */
	cudaFuncAttributes attr;
	int configs, disagree, verified, max_calc;
};

/* Device buffers and host references. */
struct bufs {
	size_t n, nf, nr, ns;     /* axpy elements, fma threads, register and shared-memory kernels' elements */
	dev_array<float> x, y, z, f;
	dev_array<unsigned> rin, rout, sin, sout;
	host_array<float> hx, hy, zref, zback, fref, fback;
	host_array<unsigned> hrin, rref, hsin, uback;
};

static unsigned grid_for(size_t n, int threads)
{
	size_t g = (n + threads - 1) / threads;
	return (unsigned)(g ? g : 1);
}

/* Launch kernel k on `n` of its elements (0: all). */
static int launch(const struct kern *k, struct bufs *b, int threads, size_t dyn, size_t n)
{
	switch (k->kind) {
	case K_AXPY:
		n = n ? n : b->n;
		APOD_LAUNCH_TRY((axpy_kernel<0><<<grid_for(n, threads), threads, dyn>>>(AXPY_A, b->x.p, b->y.p, b->z.p, n)));
		return 0;
	case K_AXPY4:
		n = n ? n : b->n;
		APOD_LAUNCH_TRY((axpy4_kernel<<<grid_for(n / 4, threads), threads, dyn>>>(AXPY_A, b->x.p, b->y.p, b->z.p, n)));
		return 0;
	case K_FMA:
		n = n ? n : b->nf;
		APOD_LAUNCH_TRY((fma_kernel<<<grid_for(n, threads), threads, dyn>>>(b->f.p, n)));
		return 0;
	case K_REGS:
		APOD_LAUNCH_TRY((k->rf<<<grid_for(b->nr, threads), threads, dyn>>>(b->rin.p, b->rout.p, (int)b->nr)));
		return 0;
	case K_SMEM:
		APOD_LAUNCH_TRY((k->rf<<<grid_for(b->ns, threads), threads, dyn>>>(b->sin.p, b->sout.p, (int)b->ns)));
		return 0;
	case K_DSMEM:
		APOD_LAUNCH_TRY((dsmem_kernel<<<grid_for(b->ns, threads), threads, dyn>>>(b->sin.p, b->sout.p, (int)b->ns,
		                                                                      (unsigned)(dyn / 4))));
		return 0;
	}
	return apod_fail("occupancy: unknown kernel kind");
}

/* ------------------------------------------------------ host references */

static uint64_t mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* axpy as the device rounds it: a*x is exact in double (24 + 24 bits), so
 * one conversion gives __fmul_rn; t + y rounded through double and then to
 * float is the correctly rounded float sum (double has more than 2*24 + 2
 * bits), so that gives __fadd_rn.  No contraction can cross the casts. */
static float axpy_ref(float a, float x, float y)
{
	float t = (float)((double)a * (double)x);
	return (float)((double)t + (double)y);
}

static void regs_ref(const unsigned *in, unsigned *out, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint32_t v[LIVE], h = 0;
		for (int k = 0; k < LIVE; k++)
			v[k] = in[(size_t)k * n + i];
		for (int r = 0; r < ROUNDS; r++)
			for (int k = 0; k < LIVE; k++)
				v[k] = v[k] * 2654435761u + (v[(k + 1) % LIVE] ^ (v[(k + 37) % LIVE] >> 3));
		for (int k = 0; k < LIVE; k++)
			h = h * 31u + v[k];
		out[i] = h;
	}
}

static uint32_t smem_ref(const unsigned *in, size_t i, int threads, unsigned words)
{
	uint32_t blk = (uint32_t)(i / threads), t = (uint32_t)(i % threads), k = (t * 97u + 13u) % words;
	return in[i] ^ ((k * 2654435761u) ^ (blk * 40503u));
}

/* The index of the first 32-bit word that differs, or -1. */
static long first_diff(const void *a, const void *b, size_t words)
{
	const uint32_t *p = (const uint32_t *)a, *q = (const uint32_t *)b;
	if (memcmp(a, b, words * 4) == 0)
		return -1;
	for (size_t i = 0; i < words; i++)
		if (p[i] != q[i])
			return (long)i;
	return -1;
}

/*
 * Run k once and compare its output with the reference: 1 if identical,
 * 0 if not (a note says where), -1 on a CUDA error.  `n` limits axpy and
 * fma to a prefix (0: all); the word after the prefix must be untouched.
 */
static int verify(const struct kern *k, struct bufs *b, int threads, size_t dyn, size_t n, char *note,
                  size_t notelen)
{
	void *dev, *back;
	const void *ref;
	size_t words, total;
	long bad;
	uint32_t sentinel = 0xffffffffu;   /* a NaN as a float; no reference value has these bits */

	switch (k->kind) {
	case K_AXPY:
	case K_AXPY4:
		dev = b->z.p, back = b->zback.p, ref = b->zref.p, total = b->n;
		break;
	case K_FMA:
		dev = b->f.p, back = b->fback.p, ref = b->fref.p, total = b->nf;
		break;
	case K_REGS:
		dev = b->rout.p, back = b->uback.p, ref = b->rref.p, total = b->nr;
		break;
	default:
		dev = b->sout.p, back = b->uback.p, ref = NULL, total = b->ns;
		break;
	}
	words = n && n < total ? n : total;
	APOD_CUDA_TRY(cudaMemset(dev, 0xff, total * 4));
	if (launch(k, b, threads, dyn, words))
		return -1;
	APOD_CUDA_TRY(cudaMemcpy(back, dev, (words < total ? words + 1 : words) * 4, cudaMemcpyDeviceToHost));
	if (words < total && memcmp((uint32_t *)back + words, &sentinel, 4) != 0) {
		snprintf(note, notelen, "wrote past element %zu", words);
		return 0;
	}
	if (ref)
		bad = first_diff(back, ref, words);
	else {
		/* The shared-memory kernels' output depends on the block size. */
		unsigned w = k->kind == K_DSMEM ? (unsigned)(dyn / 4) : (unsigned)(k->attr.sharedSizeBytes / 4);
		bad = -1;
		for (size_t i = 0; i < words && bad < 0; i++)
			if (b->uback.p[i] != smem_ref(b->hsin.p, i, threads, w))
				bad = (long)i;
	}
	if (bad >= 0) {
		snprintf(note, notelen, "element %ld differs", bad);
		return 0;
	}
	return 1;
}

/* --------------------------------------------------- calculator vs API */

struct agreement {
	int configs, disagree;
	json_object *list;
};

/* The calculator's result for kernel k, and whether the runtime agrees. */
static int compare(const struct apod_occ_sm *sm, const struct kern *k, int threads, size_t dyn,
                   struct apod_occ_result *r, struct agreement *ag)
{
	struct apod_occ_launch l;
	int api = -1;
	apod_occ_launch_init(&l, threads, k->attr.numRegs, k->attr.sharedSizeBytes);
	l.smem_dynamic = dyn;
	l.carveout = k->attr.preferredShmemCarveout;
	l.max_threads = k->attr.maxThreadsPerBlock;
	l.max_dynamic = (size_t)k->attr.maxDynamicSharedSizeBytes;
	if (apod_occupancy(sm, &l, r))
		return apod_fail("occupancy: the calculator rejected %d threads, %d registers", threads,
		                 k->attr.numRegs);
	APOD_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&api, k->fn, threads, dyn));
	ag->configs++;
	if (api != r->blocks) {
		json_object *d = lab_row(ag->list);
		if (ag->disagree < 12)
			printf("  DISAGREE %-28s %4d threads %6zu B dynamic: calculator %d blocks (%s), API %d\n",
			       k->name, threads, dyn, r->blocks, apod_occ_limiter_name(r->limiters), api);
		ag->disagree++;
		lab_put(d, "kernel", k->name);
		lab_put(d, "threads", threads);
		lab_put(d, "dynamic_smem", dyn);
		lab_put(d, "calculator", r->blocks);
		lab_put(d, "api", api);
		return 1;
	}
	return 0;
}

/* The SM as this device reports it, with the allocation units of its row. */
static int device_sm(const cudaDeviceProp *p, struct apod_occ_sm *sm, int *row_ok, json_object *dj)
{
	const struct apod_occ_sm *row = apod_occ_known(p->major, p->minor);
	int n;
	if (row)
		*sm = *row;
	else {
		/* Unknown: the units of the newest row of the same major revision
		 * (7.2 takes 7.5's 256-byte shared-memory unit, not the newest
		 * row's 128), else of the newest row; part (a) tells whether they
		 * fit.  The device's own carveout sizes are unknown: the kernels
		 * prefer the largest, which is sharedMemPerMultiprocessor. */
		const struct apod_occ_sm *t = apod_occ_table(&n);
		int pick = n - 1;
		for (int i = 0; i < n; i++)
			if (t[i].cc_major == p->major)
				pick = i;
		*sm = t[pick];
		sm->ncarveouts = 0;
		printf("  CC %d.%d is not in the calculator's table: using the allocation units of CC %d.%d\n",
		       p->major, p->minor, sm->cc_major, sm->cc_minor);
	}
	*row_ok = row && row->warp_size == p->warpSize && row->max_threads_per_block == p->maxThreadsPerBlock &&
	          row->max_threads_per_sm == p->maxThreadsPerMultiProcessor &&
	          row->max_blocks_per_sm == p->maxBlocksPerMultiProcessor &&
	          row->regs_per_sm == p->regsPerMultiprocessor && row->regs_per_block == p->regsPerBlock &&
	          row->smem_per_sm == p->sharedMemPerMultiprocessor &&
	          row->smem_per_block == p->sharedMemPerBlockOptin &&
	          row->smem_reserved_per_block == p->reservedSharedMemPerBlock;
	sm->cc_major = p->major;
	sm->cc_minor = p->minor;
	sm->warp_size = p->warpSize;
	sm->max_threads_per_block = p->maxThreadsPerBlock;
	sm->max_threads_per_sm = p->maxThreadsPerMultiProcessor;
	sm->max_warps_per_sm = p->maxThreadsPerMultiProcessor / p->warpSize;
	sm->max_blocks_per_sm = p->maxBlocksPerMultiProcessor;
	sm->regs_per_sm = p->regsPerMultiprocessor;
	sm->regs_per_block = p->regsPerBlock;
	sm->smem_per_sm = p->sharedMemPerMultiprocessor;
	sm->smem_per_block = p->sharedMemPerBlockOptin;
	sm->smem_reserved_per_block = p->reservedSharedMemPerBlock;
	printf("  SM: %d threads (%d warps), %d blocks, %d registers (%d per block, at most %d per thread, "
	       "allocated %d per %s, %d partitions),\n      %zu B shared memory (%zu per block at most, "
	       "%zu-byte unit, %zu reserved per block)\n",
	       sm->max_threads_per_sm, sm->max_warps_per_sm, sm->max_blocks_per_sm, sm->regs_per_sm,
	       sm->regs_per_block, sm->max_regs_per_thread, sm->reg_alloc_unit,
	       sm->reg_gran == APOD_OCC_REGS_PER_WARP ? "warp" : "block", sm->warp_alloc_gran, sm->smem_per_sm,
	       sm->smem_per_block, sm->smem_alloc_unit, sm->smem_reserved_per_block);
	if (row)
		printf("  the table's row for CC %d.%d (%s) %s this device's limits\n", p->major, p->minor, row->arch,
		       *row_ok ? "matches" : "DOES NOT MATCH");
	lab_put(dj, "name", p->name);
	lab_put(dj, "compute_capability", p->major + p->minor / 10.0);
	lab_put(dj, "sms", p->multiProcessorCount);
	lab_put(dj, "max_threads_per_sm", sm->max_threads_per_sm);
	lab_put(dj, "max_blocks_per_sm", sm->max_blocks_per_sm);
	lab_put(dj, "regs_per_sm", sm->regs_per_sm);
	lab_put(dj, "smem_per_sm", (int64_t)sm->smem_per_sm);
	lab_put(dj, "smem_per_block_optin", (int64_t)sm->smem_per_block);
	lab_put(dj, "smem_reserved_per_block", (int64_t)sm->smem_reserved_per_block);
	lab_put(dj, "table_row_known", row != NULL);
	lab_put(dj, "table_row_matches", *row_ok != 0);
	return 0;
}

/* The block sizes part (a) compares and part (b) sweeps. */
static int block_sizes(int *t, int with_one)
{
	static const int odd[] = { 33, 48, 100, 200, 1000 };
	int n = 0, j = 0;
	if (with_one)
		t[n++] = 1;
	for (int s = 32; s <= 1024; s += 32) {
		for (; j < 5 && odd[j] < s; j++)
			if (with_one || odd[j] == 48 || odd[j] == 100 || odd[j] == 200)
				t[n++] = odd[j];
		t[n++] = s;
	}
	return n;
}

static void add_row(json_object *rows, const char *part, const char *kernel, int threads, size_t dyn,
                    const struct apod_occ_result *r, int verified, double ms, double value, const char *unit,
                    double ceiling)
{
	json_object *o = lab_row(rows);
	lab_put(o, "part", part);
	lab_put(o, "version", kernel);
	lab_put(o, "threads", threads);
	lab_put(o, "dynamic_smem", dyn);
	lab_put(o, "blocks_per_sm", r->blocks);
	lab_put(o, "occupancy", r->occupancy);
	lab_put(o, "limiter", apod_occ_limiter_name(r->limiters));
	lab_put(o, "verified", verified != 0);
	if (verified && ms > 0) {
		lab_put(o, "ms", ms);
		lab_put(o, unit, value);
		if (ceiling > 0)
			lab_put(o, "fraction_of_ceiling", value / ceiling);
	}
}

/* Check one configuration, then time it: metric in GB/s or GFLOP/s (0 if not timed). */
static int check_and_time(const struct apod_occ_sm *sm, struct kern *k, struct bufs *b, int threads,
                          size_t dyn, int timed, int reps, struct agreement *ag,
                          struct apod_occ_result *r, int *ok, double *ms, double *value, int *failed)
{
	char note[96] = "";
	int v;
	*ms = *value = 0;
	if (compare(sm, k, threads, dyn, r, ag) < 0)
		return -1;
	if ((v = verify(k, b, threads, dyn, 0, note, sizeof note)) < 0)
		return -1;
	*ok = v;
	if (!v) {
		printf("  FAILED %s at %d threads, %zu B dynamic: %s\n", k->name, threads, dyn, note);
		(*failed)++;
		return 0;
	}
	if (!timed)
		return 0;
	if (time_it(reps, [&] { return launch(k, b, threads, dyn, 0) != 0; }, ms))
		return -1;
	*value = k->kind == K_FMA ? 2.0 * FMA_STEPS * b->nf / (*ms * 1e-3) / 1e9
	                          : 3.0 * sizeof(float) * b->n / (*ms * 1e-3) / 1e9;
	return 0;
}

/* Inputs, references and device copies. */
static int make_bufs(struct bufs *b)
{
	size_t nu = b->nr > b->ns ? b->nr : b->ns;
	float table[4096];
	if (b->hx.alloc(b->n) || b->hy.alloc(b->n) || b->zref.alloc(b->n) || b->zback.alloc(b->n) ||
	    b->fref.alloc(b->nf) || b->fback.alloc(b->nf) || b->hrin.alloc(LIVE * b->nr) ||
	    b->rref.alloc(b->nr) || b->hsin.alloc(b->ns) || b->uback.alloc(nu))
		return -1;
	float *hx = b->hx.p, *hy = b->hy.p, *zref = b->zref.p, *fref = b->fref.p;
	unsigned *hrin = b->hrin.p, *hsin = b->hsin.p;
	/* x and y in [-1, 1): 24 random bits each, so every value is exact. */
	for (size_t i = 0; i < b->n; i++) {
		hx[i] = (float)(mix(2 * i + 1) >> 40) * (1.0f / 8388608.0f) - 1.0f;
		hy[i] = (float)(mix(2 * i + 2) >> 40) * (1.0f / 8388608.0f) - 1.0f;
		zref[i] = axpy_ref(AXPY_A, hx[i], hy[i]);
	}
	/* The fma chain from each of its 4096 starting values; fmaf rounds once,
	 * as the device's FFMA does.  The offset is a plain float addition. */
	for (int k = 0; k < 4096; k++) {
		float v = (float)k * (1.0f / 4096.0f);
		for (int s = 0; s < FMA_STEPS; s++)
			v = fmaf(v, FMA_A, FMA_B);
		table[k] = v;
	}
	for (size_t i = 0; i < b->nf; i++)
		fref[i] = table[i & 4095] + (float)(unsigned)(i >> 12);
	for (size_t i = 0; i < LIVE * b->nr; i++)
		hrin[i] = (unsigned)mix(i + 77);
	regs_ref(hrin, b->rref.p, b->nr);
	for (size_t i = 0; i < b->ns; i++)
		hsin[i] = (unsigned)mix(i + 991);

	if (b->x.alloc(b->n) || b->y.alloc(b->n) || b->z.alloc(b->n) || b->f.alloc(b->nf) ||
	    b->rin.alloc(LIVE * b->nr) || b->rout.alloc(b->nr) || b->sin.alloc(b->ns) || b->sout.alloc(b->ns))
		return -1;
	APOD_CUDA_TRY(cudaMemcpy(b->x.p, hx, b->n * sizeof(float), cudaMemcpyHostToDevice));
	APOD_CUDA_TRY(cudaMemcpy(b->y.p, hy, b->n * sizeof(float), cudaMemcpyHostToDevice));
	APOD_CUDA_TRY(cudaMemcpy(b->rin.p, hrin, LIVE * b->nr * sizeof(unsigned), cudaMemcpyHostToDevice));
	APOD_CUDA_TRY(cudaMemcpy(b->sin.p, hsin, b->ns * sizeof(unsigned), cudaMemcpyHostToDevice));
	return 0;
}

/* The runtime's answer alone (for the lines that quote it). */
static int api_blocks(const struct kern *k, int threads, size_t dyn, int *nb)
{
	APOD_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(nb, k->fn, threads, dyn));
	return 0;
}

/* Part (a): every kernel, every block size, several dynamic sizes. */
static int part_a(const struct apod_occ_sm *sm, struct kern *ks, int nk, struct bufs *b, size_t n_a,
                  struct agreement *ag, json_object *kj, int *wrong)
{
	int sizes[48], nsizes = block_sizes(sizes, 1);
	const size_t dyns[] = { 0, 1024, 6144, 7168, 16384, 49152, 102400 };
	const int ndyn = (int)(sizeof dyns / sizeof dyns[0]);

	printf("\n(a) the calculator against cudaOccupancyMaxActiveBlocksPerMultiprocessor: block sizes 1..1024 "
	       "(%d of them),\n    dynamic shared memory 0, 1, 6, 7, 16, 48, 100 KiB and the kernel's maximum; "
	       "every kernel prefers the largest carveout\n", nsizes);
	printf("  %-31s %4s %6s %7s %9s %7s %7s %8s  %s\n", "kernel", "regs", "local", "static", "max thr",
	       "configs", "differ", "output", "at 256 threads (or its max)");
	for (int i = 0; i < nk; i++) {
		struct kern *k = &ks[i];
		struct apod_occ_result r;
		struct apod_occ_launch l;
		size_t maxdyn = (size_t)k->attr.maxDynamicSharedSizeBytes;
		int before = ag->disagree, before_cfg = ag->configs, tshow, ok = 1;
		char note[96] = "";
		for (int s = 0; s < nsizes && sizes[s] <= k->attr.maxThreadsPerBlock; s++) {
			for (int d = 0; d < ndyn && dyns[d] < maxdyn; d++)
				if (compare(sm, k, sizes[s], dyns[d], &r, ag) < 0)
					return -1;
			if (compare(sm, k, sizes[s], maxdyn, &r, ag) < 0)
				return -1;
		}
		k->configs = ag->configs - before_cfg;
		k->disagree = ag->disagree - before;
		/* The largest block the calculator allows with the device's limits
		 * alone, beside the runtime's maxThreadsPerBlock for the kernel. */
		k->max_calc = 0;
		for (int t = 32; t <= sm->max_threads_per_block; t += 32) {
			apod_occ_launch_init(&l, t, k->attr.numRegs, k->attr.sharedSizeBytes);
			if (apod_occupancy(sm, &l, &r) == 0 && r.blocks > 0)
				k->max_calc = t;
		}
		/* The output, at two block sizes (the second not a multiple of 32:
		 * 100, or 1000 with the dynamic kernel's largest allocation). */
		tshow = k->attr.maxThreadsPerBlock < 256 ? k->attr.maxThreadsPerBlock : 256;
		{
			int v1, v2 = 0;
			size_t d1 = k->kind == K_DSMEM ? 4096 : 0, d2 = k->kind == K_DSMEM ? maxdyn : 0;
			int t2 = k->kind == K_DSMEM ? (k->attr.maxThreadsPerBlock < 1000 ? k->attr.maxThreadsPerBlock : 1000)
			                            : 100;
			size_t lim = k->kind == K_AXPY || k->kind == K_AXPY4 ? n_a : k->kind == K_FMA ? n_a / 16 : 0;
			if ((v1 = verify(k, b, tshow, d1, lim, note, sizeof note)) < 0)
				return -1;
			if (v1 && (v2 = verify(k, b, t2, d2, lim, note, sizeof note)) < 0)
				return -1;
			ok = v1 && v2;
		}
		k->verified = ok;
		*wrong += !ok;
		/* (already compared with the runtime in the loop above) */
		apod_occ_launch_init(&l, tshow, k->attr.numRegs, k->attr.sharedSizeBytes);
		l.carveout = k->attr.preferredShmemCarveout;
		l.max_threads = k->attr.maxThreadsPerBlock;
		apod_occupancy(sm, &l, &r);
		printf("  %-31s %4d %6zu %7zu %4d/%-4d %7d %7d %8s  %d blocks, %5.1f%%, %s\n", k->name,
		       k->attr.numRegs, k->attr.localSizeBytes, k->attr.sharedSizeBytes, k->attr.maxThreadsPerBlock,
		       k->max_calc, k->configs, k->disagree, ok ? "ok" : "FAILED", r.blocks, 100 * r.occupancy,
		       apod_occ_limiter_name(r.limiters));
		if (!ok)
			printf("    %s\n", note);
		{
			json_object *o = lab_row(kj);
			lab_put(o, "kernel", k->name);
			lab_put(o, "regs", k->attr.numRegs);
			lab_put(o, "local_bytes", k->attr.localSizeBytes);
			lab_put(o, "static_smem", k->attr.sharedSizeBytes);
			lab_put(o, "max_threads", k->attr.maxThreadsPerBlock);
			lab_put(o, "max_threads_calculator", k->max_calc);
			lab_put(o, "max_dynamic_smem", k->attr.maxDynamicSharedSizeBytes);
			lab_put(o, "carveout", k->attr.preferredShmemCarveout);
			lab_put(o, "configs", k->configs);
			lab_put(o, "disagreements", k->disagree);
			lab_put(o, "verified", ok != 0);
		}
	}
	printf("  (regs and local bytes per thread, static shared bytes, max threads per block: the runtime's / the "
	       "calculator's)\n");
	return 0;
}

/*
 * The carveout preference, not counted: the same axpy (a second copy, so
 * the others keep their setting) at 128 threads, first with no preference
 * (as compiled), then preferring 0, 25, 50 and 100 percent, with 0 to 100
 * KiB of dynamic shared memory.
 */
static int carveout_table(const struct apod_occ_sm *sm, json_object *cj)
{
	static const int cvs[5] = { -1, 0, 25, 50, 100 };
	static const size_t dyns[4] = { 0, 8192, 32768, 102400 };
	struct kern k = { "axpy (carveout copy)", K_AXPY, (const void *)axpy_kernel<1>, NULL, {}, 0, 0, 0, 0 };
	int calc[4][5], api[4][5], read_back[5], agree = 0, total = 0;
	size_t config[4][5];

	if (sm->ncarveouts == 0) {
		printf("\n  (no carveout table: this SM's carveout sizes are not in the calculator's table)\n");
		return 0;
	}
	APOD_CUDA_TRY(cudaFuncGetAttributes(&k.attr, k.fn));
	APOD_CUDA_TRY(cudaFuncSetAttribute(k.fn, cudaFuncAttributeMaxDynamicSharedMemorySize,
	                              (int)(sm->smem_per_block - k.attr.sharedSizeBytes)));
	for (int c = 0; c < 5; c++) {
		if (cvs[c] >= 0)
			APOD_CUDA_TRY(cudaFuncSetAttribute(k.fn, cudaFuncAttributePreferredSharedMemoryCarveout, cvs[c]));
		APOD_CUDA_TRY(cudaFuncGetAttributes(&k.attr, k.fn));
		read_back[c] = k.attr.preferredShmemCarveout;
		for (int d = 0; d < 4; d++) {
			struct apod_occ_launch l;
			struct apod_occ_result r;
			apod_occ_launch_init(&l, STEP_THREADS, k.attr.numRegs, k.attr.sharedSizeBytes);
			l.smem_dynamic = dyns[d];
			l.carveout = cvs[c];
			l.max_threads = k.attr.maxThreadsPerBlock;
			l.max_dynamic = (size_t)k.attr.maxDynamicSharedSizeBytes;
			apod_occupancy(sm, &l, &r);
			calc[d][c] = r.blocks;
			config[d][c] = r.smem_config;
			APOD_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&api[d][c], k.fn, STEP_THREADS, dyns[d]));
		}
	}
	printf("\n    the carveout preference (informative, not a check): blocks per SM at %d threads, calculator/API,\n"
	       "    with the calculator's shared-memory configuration in brackets\n  %10s", STEP_THREADS, "dynamic B");
	for (int c = 0; c < 5; c++) {
		char h[24];
		if (cvs[c] < 0)
			snprintf(h, sizeof h, "no preference");
		else
			snprintf(h, sizeof h, "carveout %d%%", cvs[c]);
		printf(" %18s", h);
	}
	printf("\n");
	for (int d = 0; d < 4; d++) {
		printf("  %10zu", dyns[d]);
		for (int c = 0; c < 5; c++) {
			char cell[40];
			json_object *o = lab_row(cj);
			total++;
			agree += api[d][c] == calc[d][c];
			snprintf(cell, sizeof cell, "%d/%d%s [%zuK]", calc[d][c], api[d][c],
			         api[d][c] == calc[d][c] ? "" : " !", config[d][c] / 1024);
			printf(" %18s", cell);
			lab_put(o, "carveout", cvs[c]);
			lab_put(o, "attribute_read_back", read_back[c]);
			lab_put(o, "dynamic_smem", dyns[d]);
			lab_put(o, "threads", STEP_THREADS);
			lab_put(o, "calculator", calc[d][c]);
			lab_put(o, "calculator_smem_config", config[d][c]);
			lab_put(o, "api", api[d][c]);
		}
		printf("\n");
	}
	printf("    %d of %d agree%s\n", agree, total,
	       agree == total ? "" : " (! marks a difference: the API does not treat the preference as the "
	                             "calculator does)");
	return 0;
}

/* Part (b): block sizes 32..1024 for axpy and the fma chain. */
static int part_b(const struct apod_occ_sm *sm, struct kern *axpy, struct kern *fma, struct bufs *b,
                  const struct apod_lab_opts *o, double ceiling, struct agreement *ag, json_object *rows,
                  int *wrong)
{
	int sizes[48], nsizes = block_sizes(sizes, 0), timed = !o->check, grid_a = 0, bs_a = 0, grid_f = 0, bs_f = 0;
	APOD_CUDA_TRY(cudaOccupancyMaxPotentialBlockSize(&grid_a, &bs_a, axpy_kernel<0>, 0, 0));
	APOD_CUDA_TRY(cudaOccupancyMaxPotentialBlockSize(&grid_f, &bs_f, fma_kernel, 0, 0));
	printf("\n(b) block-size sweep.  axpy: z = %.1f*x + y on %zu floats, %zu bytes moved (read x and y, "
	       "write z);\n    fma: %d dependent FMAs in each of %zu threads, %.4g GFLOP.  Copy ceiling: ",
	       (double)AXPY_A, b->n, 3 * b->n * sizeof(float), FMA_STEPS, b->nf, 2.0 * FMA_STEPS * b->nf / 1e9);
	if (timed)
		printf("%.1f GB/s.\n", ceiling);
	else
		printf("not measured (--check).\n");
	printf("    cudaOccupancyMaxPotentialBlockSize suggests %d threads for axpy, %d for fma.\n", bs_a, bs_f);
	printf("  %7s  %-25s %10s %8s  %-25s %11s  %s\n", "threads", "axpy: blocks/SM, occ.", "GB/s", "of copy",
	       "fma: blocks/SM, occ.", "GFLOP/s", "check");
	for (int s = 0; s < nsizes; s++) {
		struct apod_occ_result ra, rf;
		int oka = 0, okf = 0;
		double msa, va, msf, vf;
		char ca[40], cf[40];
		if (check_and_time(sm, axpy, b, sizes[s], 0, timed, o->reps, ag, &ra, &oka, &msa, &va, wrong) ||
		    check_and_time(sm, fma, b, sizes[s], 0, timed, o->reps, ag, &rf, &okf, &msf, &vf, wrong))
			return -1;
		snprintf(ca, sizeof ca, "%2d, %5.1f%% %s", ra.blocks, 100 * ra.occupancy, apod_occ_limiter_name(ra.limiters));
		snprintf(cf, sizeof cf, "%2d, %5.1f%% %s", rf.blocks, 100 * rf.occupancy, apod_occ_limiter_name(rf.limiters));
		if (timed && oka && okf)
			printf("  %7d  %-25s %10.1f %7.1f%%  %-25s %11.1f  ok\n", sizes[s], ca, va, 100 * va / ceiling, cf, vf);
		else
			printf("  %7d  %-25s %10s %8s  %-25s %11s  %s\n", sizes[s], ca, "-", "", cf, "-",
			       oka && okf ? "ok" : "FAILED");
		add_row(rows, "block-size sweep", "axpy", sizes[s], 0, &ra, oka, msa, va, "GB/s", ceiling);
		add_row(rows, "block-size sweep", "fma", sizes[s], 0, &rf, okf, msf, vf, "GFLOP/s", 0);
	}
	return 0;
}

/* Part (c): occupancy lowered one block at a time with dynamic shared memory. */
static int part_c(const struct apod_occ_sm *sm, struct kern *ks3[3], struct bufs *b, const struct apod_lab_opts *o,
                  double ceiling, struct agreement *ag, json_object *rows, json_object *knees, int *wrong)
{
	static const char *const short_name[3] = { "axpy", "axpy float4", "fma" };
	struct apod_occ_result r0;
	size_t dyn[64], cfg = apod_occ_smem_config(sm, 100, 0);
	int nsteps = 0, timed = !o->check, base;
	double val[3][64] = { { 0 } }, occ[64] = { 0 };
	int blk[64] = { 0 };

	if (compare(sm, ks3[0], STEP_THREADS, 0, &r0, ag) < 0)
		return -1;
	base = r0.blocks;
	dyn[nsteps++] = 0;
	/* For b blocks: the largest allocation of which b fit, less the reservation. */
	for (int bl = base - 1; bl >= 1 && nsteps < 64; bl--) {
		size_t alloc = cfg / bl / sm->smem_alloc_unit * sm->smem_alloc_unit;
		size_t need = sm->smem_reserved_per_block + ks3[0]->attr.sharedSizeBytes;
		if (alloc > need && alloc - need <= (size_t)ks3[0]->attr.maxDynamicSharedSizeBytes)
			dyn[nsteps++] = alloc - need;
	}
	printf("\n(c) occupancy lowered with dynamic shared memory the kernels never touch (%d threads per block; "
	       "same sizes as (b))\n", STEP_THREADS);
	printf("  %10s %9s %9s %10s %8s %11s %8s %11s  %s\n", "dynamic B", "blocks/SM", "occupancy", "axpy GB/s",
	       "of copy", "float4 GB/s", "of copy", "fma GFLOP/s", "check");
	for (int s = 0; s < nsteps; s++) {
		struct apod_occ_result r[3];
		int ok[3] = { 0, 0, 0 }, allok;
		double ms[3];
		for (int k = 0; k < 3; k++)
			if (check_and_time(sm, ks3[k], b, STEP_THREADS, dyn[s], timed, o->reps, ag, &r[k], &ok[k], &ms[k],
			                   &val[k][s], wrong))
				return -1;
		allok = ok[0] && ok[1] && ok[2];
		occ[s] = r[0].occupancy;
		blk[s] = r[0].blocks;
		if (timed && allok)
			printf("  %10zu %9d %8.2f%% %10.1f %7.1f%% %11.1f %7.1f%% %11.1f  ok", dyn[s], r[0].blocks,
			       100 * r[0].occupancy, val[0][s], 100 * val[0][s] / ceiling, val[1][s],
			       100 * val[1][s] / ceiling, val[2][s]);
		else
			printf("  %10zu %9d %8.2f%% %10s %8s %11s %8s %11s  %s", dyn[s], r[0].blocks, 100 * r[0].occupancy,
			       "-", "", "-", "", "-", allok ? "ok" : "FAILED");
		if (r[1].blocks != r[0].blocks || r[2].blocks != r[0].blocks)
			printf("  (float4: %d blocks, fma: %d)", r[1].blocks, r[2].blocks);
		printf("\n");
		for (int k = 0; k < 3; k++)
			add_row(rows, "dynamic shared memory", short_name[k], STEP_THREADS, dyn[s], &r[k], ok[k], ms[k],
			        val[k][s], k == 2 ? "GFLOP/s" : "GB/s", k == 2 ? 0 : ceiling);
	}
	if (!timed)
		return 0;
	/* Where more occupancy stops paying: the lowest occupancy within 5% of the best. */
	for (int k = 0; k < 3; k++) {
		double best = 0;
		int at = -1;
		json_object *o2;
		for (int s = 0; s < nsteps; s++)
			best = val[k][s] > best ? val[k][s] : best;
		for (int s = 0; s < nsteps; s++)
			if (val[k][s] >= 0.95 * best && (at < 0 || occ[s] < occ[at]))
				at = s;
		if (at < 0)
			continue;
		printf("  %-12s within 5%% of its best (%.1f %s) down to %.2f%% occupancy (%d blocks of %d threads per SM)\n",
		       short_name[k], best, k == 2 ? "GFLOP/s" : "GB/s", 100 * occ[at], blk[at], STEP_THREADS);
		o2 = lab_row(knees);
		lab_put(o2, "version", short_name[k]);
		lab_put(o2, "best", best);
		lab_put(o2, "unit", k == 2 ? "GFLOP/s" : "GB/s");
		lab_put(o2, "lowest_occupancy_within_5pct", occ[at]);
		lab_put(o2, "blocks_per_sm", blk[at]);
	}
	return 0;
}

/* The lab's JSON tables, added to `out` in this order before anything runs. */
struct occ_json {
	json_object *dj, *kj, *agj, *cj, *rows, *knees;
};

static void begin_json(json_object *out, struct occ_json *J, struct agreement *ag)
{
	J->dj = json_object_new_object();
	lab_put(out, "device", J->dj);
	J->kj = lab_array(out, "kernels");
	ag->list = lab_array(out, "disagreements");
	J->agj = json_object_new_object();
	lab_put(out, "agreement", J->agj);
	J->cj = lab_array(out, "carveout");
	J->rows = lab_array(out, "rows");
	lab_put(out, "unit", "GB/s (axpy), GFLOP/s (fma)");
	J->knees = lab_array(out, "knee");
}

/* Every kernel prefers the largest carveout (so the SM's shared memory
 * is sharedMemPerMultiprocessor) and may take all the dynamic shared
 * memory a block can have. */
static int configure_kernels(struct kern *ks, int nk, const cudaDeviceProp *p)
{
	for (int i = 0; i < nk; i++) {
		APOD_CUDA_TRY(cudaFuncGetAttributes(&ks[i].attr, ks[i].fn));
		APOD_CUDA_TRY(cudaFuncSetAttribute(ks[i].fn, cudaFuncAttributePreferredSharedMemoryCarveout,
		                              (int)cudaSharedmemCarveoutMaxShared));
		APOD_CUDA_TRY(cudaFuncSetAttribute(ks[i].fn, cudaFuncAttributeMaxDynamicSharedMemorySize,
		                              (int)(p->sharedMemPerBlockOptin - ks[i].attr.sharedSizeBytes)));
		APOD_CUDA_TRY(cudaFuncGetAttributes(&ks[i].attr, ks[i].fn));
	}
	return 0;
}

/* The guide's worked example, on this GPU (k: the kernel capped at 37 registers). */
static int guide_example(const struct apod_occ_sm *sm, const struct kern *k)
{
	struct apod_occ_result r1, r2;
	int a1 = 0, a2 = 0;
	apod_occupancy_of(sm, 128, k->attr.numRegs, k->attr.sharedSizeBytes, &r1);
	apod_occupancy_of(sm, 320, k->attr.numRegs, k->attr.sharedSizeBytes, &r2);
	if (api_blocks(k, 128, 0, &a1) || api_blocks(k, 320, 0, &a2))
		return -1;
	printf("  the guide's example (§10.1.1: 37 registers, 75%% at 128 threads, 63%% at 320), compiled: %d "
	       "registers;\n    128 threads: %d blocks (API %d), %.1f%%;  320 threads: %d blocks (API %d), %.1f%%\n",
	       k->attr.numRegs, r1.blocks, a1, 100 * r1.occupancy, r2.blocks, a2, 100 * r2.occupancy);
	return 0;
}

extern "C" int apod_lab_occupancy(const struct apod_lab_opts *o, json_object *out)
{
	size_t n = lab_size(o, (size_t)1 << 25, ((size_t)1 << 20) + 333);
	size_t n_a = n < ((size_t)1 << 20) + 333 ? n : ((size_t)1 << 20) + 333;
	struct bufs b;
	struct apod_occ_sm sm;
	struct agreement ag = { 0, 0, NULL };
	struct occ_json J;
	cudaDeviceProp p;
	int dev = 0, row_ok = 0, wrong = 0;
	double ceiling = 0;

	if (o->size && (o->size < 4096 || o->size > ((size_t)1 << 30)))
		return apod_usage_fail("occupancy: --size %zu is not between 4096 and 2^30 elements", o->size);
	begin_json(out, &J, &ag);

	struct kern ks[] = {
		{ "axpy (memory-bound)", K_AXPY, (const void *)axpy_kernel<0>, NULL, {}, 0, 0, 0, 0 },
		{ "axpy float4", K_AXPY4, (const void *)axpy4_kernel, NULL, {}, 0, 0, 0, 0 },
		{ "fma chain (compute-bound)", K_FMA, (const void *)fma_kernel, NULL, {}, 0, 0, 0, 0 },
		{ "96 live values, no bounds", K_REGS, (const void *)regs_free, regs_free, {}, 0, 0, 0, 0 },
		{ "96 live, launch_bounds(256,4)", K_REGS, (const void *)regs_lb256x4, regs_lb256x4, {}, 0, 0, 0, 0 },
		{ "96 live, maxnreg(37)", K_REGS, (const void *)regs_max37, regs_max37, {}, 0, 0, 0, 0 },
		{ "96 live, maxnreg(32)", K_REGS, (const void *)regs_max32, regs_max32, {}, 0, 0, 0, 0 },
		{ "96 live, launch_bounds(128)", K_REGS, (const void *)regs_lb128, regs_lb128, {}, 0, 0, 0, 0 },
		{ "static shared 1 KiB", K_SMEM, (const void *)smem_kernel<256>, smem_kernel<256>, {}, 0, 0, 0, 0 },
		{ "static shared 8 KiB", K_SMEM, (const void *)smem_kernel<2048>, smem_kernel<2048>, {}, 0, 0, 0, 0 },
		{ "static shared 24 KiB", K_SMEM, (const void *)smem_kernel<6144>, smem_kernel<6144>, {}, 0, 0, 0, 0 },
		{ "static shared 48 KiB", K_SMEM, (const void *)smem_kernel<12288>, smem_kernel<12288>, {}, 0, 0, 0, 0 },
		{ "dynamic shared only", K_DSMEM, (const void *)dsmem_kernel, NULL, {}, 0, 0, 0, 0 },
	};
	const int nk = (int)(sizeof ks / sizeof ks[0]);
	struct kern *three[3] = { &ks[0], &ks[1], &ks[2] };

	b.n = n;
	b.nf = n / 16;
	b.nr = 20011;
	b.ns = 100003;
	APOD_CUDA_TRY(cudaGetDevice(&dev));
	APOD_CUDA_TRY(cudaGetDeviceProperties(&p, dev));
	printf("occupancy on %s (CC %d.%d, %d SMs)\n", p.name, p.major, p.minor, p.multiProcessorCount);
	if (device_sm(&p, &sm, &row_ok, J.dj) || configure_kernels(ks, nk, &p))
		return -1;

	/* (a), the guide's example and the carveout table. */
	if (make_bufs(&b) || part_a(&sm, ks, nk, &b, n_a, &ag, J.kj, &wrong) || guide_example(&sm, &ks[5]))
		return -1;
	printf("  %d configurations compared, %d disagreements\n", ag.configs, ag.disagree);
	if (carveout_table(&sm, J.cj))
		return -1;

	/* (b) and (c), held against the copy ceiling. */
	if (!o->check && copy4_ceiling_gbs(2 * n * sizeof(float), o->reps, &ceiling))
		return -1;
	lab_put(out, "copy_ceiling_gbs", ceiling);
	lab_put(out, "axpy_elements", n);
	lab_put(out, "axpy_bytes", 3 * n * sizeof(float));
	lab_put(out, "fma_threads", b.nf);
	lab_put(out, "fma_flops", 2.0 * FMA_STEPS * b.nf);
	if (part_b(&sm, &ks[0], &ks[2], &b, o, ceiling, &ag, J.rows, &wrong) ||
	    part_c(&sm, three, &b, o, ceiling, &ag, J.rows, J.knees, &wrong))
		return -1;
	printf("\n%d calculator/API comparisons in all, %d disagreements\n", ag.configs, ag.disagree);
	lab_put(J.agj, "configurations", ag.configs);
	lab_put(J.agj, "disagreements", ag.disagree);

	if (ag.disagree || wrong || (apod_occ_known(p.major, p.minor) && !row_ok))
		return apod_fail("occupancy: %d calculator/API disagreements, %d wrong kernel outputs%s", ag.disagree,
		                 wrong, apod_occ_known(p.major, p.minor) && !row_ok
		                            ? ", the table's row does not match the device" : "");
	return 0;
}
