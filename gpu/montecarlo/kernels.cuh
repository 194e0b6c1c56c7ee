/*
 * kernels.cuh: the Monte Carlo kernels of gpu1 and gpu2, shared by their
 * stages (stage_gpu.cu) and by the bench (bench.cu).
 *
 * A batch becomes, on the device, the same 2 x MC_NEST sums every stage makes
 * (per estimator S1 = sum (v - c), S2 = sum (v - c)^2, cpu/montecarlo/
 * montecarlo.h) and a histogram of S_T.  Sums are in double and reduced
 * by a fixed tree, so a stage's results are the same on every run; the
 * histogram's counts are integers, added with atomics (exact in any order).
 *
 * gpu2's one departure from the shared path code is sincospi(2 u2) in
 * place of sin and cos of 2pi u2: the argument is then exact (a power of
 * two times u2) and the reduction cheaper.  cpu/montecarlo/workload.c's
 * error analysis counts the angle's difference (at most 2u * 2pi) in its
 * C_Z.  No single-precision intrinsic (__expf, __logf, __sinf) is used:
 * their relative errors of 2^-21 and more, carried through n steps and
 * times the strike, would exceed the gate's bound (eta, about 1e-13 on the
 * decks) by eight orders of magnitude, i.e. they would change the answer.
 */
#ifndef APOD_MONTECARLO_KERNELS_CUH
#define APOD_MONTECARLO_KERNELS_CUH

#include <stdint.h>

#include "apod/cuda.h"
#include "gpu/block_tree_sum.cuh"
#include "cpu/montecarlo/montecarlo.h"
#include "path3.cuh"

#define MC_BLOCK 256                     /* threads a block, a power of two */
#define MC_WARPS (MC_BLOCK / 32)
/* Blocks of gpu2 an SM must hold at once, for which the compiler caps the
 * registers.  1: no cap (80 registers, 3 blocks fit); 4 (64 registers, no
 * spills) measured 4% slower, its Philox rounds and Box-Muller pair left
 * with fewer registers in flight (doc/optimize.md, section 21). */
#ifndef MC_GPU2_MIN_BLOCKS
#define MC_GPU2_MIN_BLOCKS 1
#endif

/* What a batch's kernels need, by value. */
struct mc_batch_args {
	struct mc_model m;
	double shift[MC_NEST];
	uint64_t first;                      /* the batch's first path */
	unsigned long long paths;
	double hist_lo, hist_inv_width;
	int bins;
};

/* One path's MC_SUMS shifted terms and its bin. */
static __device__ __forceinline__ int mc_terms(const struct mc_batch_args &a,
                                               const struct mc_outcome &o, double t[MC_SUMS])
{
	double v[MC_NEST];
	mc_payoffs(&a.m, &o, v);
	for (int e = 0; e < MC_NEST; e++) {
		double d = v[e] - a.shift[e];
		t[2 * e] = d;
		t[2 * e + 1] = d * d;
	}
	return mc_bin(o.st, a.hist_lo, a.hist_inv_width, a.bins);
}

/* gpu1: one thread, one path; global atomics for the histogram; the
 * block's sums to partial[block]. */
static __global__ void __launch_bounds__(MC_BLOCK)
mc_gpu1_kernel(struct mc_batch_args a, double *partial, unsigned *hist)
{
	unsigned long long i = (unsigned long long)blockIdx.x * MC_BLOCK + threadIdx.x;
	double t[MC_SUMS] = {};
	if (i < a.paths) {
		struct mc_outcome o = mc_path(&a.m, a.first + i);
		atomicAdd(&hist[mc_terms(a, o, t)], 1u);
	}
	block_tree_sum<MC_SUMS, MC_BLOCK>(t, partial + (size_t)blockIdx.x * MC_SUMS);
}

/* The end of gpu2's and gpu3's blocks: each thread's sums reduced by warp
 * shuffles, then across the block's warps, to partial[block]; the block's
 * histogram added to the global one. */
static __device__ __forceinline__ void mc_block_finish(double acc[MC_SUMS], double *partial,
                                                       const unsigned *sh_hist, unsigned *hist,
                                                       int bins)
{
	__shared__ double warp_sums[MC_WARPS][MC_SUMS];
	unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
	for (int j = 0; j < MC_SUMS; j++)
		for (int off = 16; off > 0; off /= 2)
			acc[j] += __shfl_down_sync(0xffffffffu, acc[j], off);
	if (lane == 0)
		for (int j = 0; j < MC_SUMS; j++)
			warp_sums[warp][j] = acc[j];
	__syncthreads();
	if (warp == 0) {
		for (int j = 0; j < MC_SUMS; j++) {
			double v = lane < MC_WARPS ? warp_sums[lane][j] : 0.0;
			for (int off = 16; off > 0; off /= 2)
				v += __shfl_down_sync(0xffffffffu, v, off);
			if (lane == 0)
				partial[(size_t)blockIdx.x * MC_SUMS + j] = v;
		}
	}
	for (int b = threadIdx.x; b < bins; b += MC_BLOCK)
		if (sh_hist[b])
			atomicAdd(&hist[b], sh_hist[b]);
}

/* Box-Muller with sincospi: see the comment at the top. */
static __device__ __forceinline__ void mc_normal2_pi(philox4x32_ctr_t w, double *z0, double *z1)
{
	double u1 = apod_u01d(w.v[0], w.v[1]);
	double u2 = apod_u01d(w.v[2], w.v[3]);
	double r = sqrt(-2.0 * log(u1)), s, c;
	sincospi(2.0 * u2, &s, &c);
	*z0 = r * c;
	*z1 = r * s;
}

/* mc_path (shared/montecarlo/path.h) with mc_normal2_pi. */
MC_DEFINE_PATH(static __device__ __forceinline__, mc_path_pi, mc_normal2_pi)

/* gpu2: a grid sized to fill the device, each thread several paths
 * (grid-stride, so neighbouring threads take neighbouring paths); the
 * histogram in shared memory (dynamic, bins words), added to the global
 * one once a block; the sums reduced by warp shuffles, then across the
 * block's warps. */
static __global__ void __launch_bounds__(MC_BLOCK, MC_GPU2_MIN_BLOCKS)
mc_gpu2_kernel(struct mc_batch_args a, double *partial, unsigned *hist)
{
	extern __shared__ unsigned sh_hist[];
	double acc[MC_SUMS] = {};
	for (int b = threadIdx.x; b < a.bins; b += MC_BLOCK)
		sh_hist[b] = 0;
	__syncthreads();
	for (unsigned long long i = (unsigned long long)blockIdx.x * MC_BLOCK + threadIdx.x;
	     i < a.paths; i += (unsigned long long)gridDim.x * MC_BLOCK) {
		double t[MC_SUMS];
		struct mc_outcome o = mc_path_pi(&a.m, a.first + i);
		atomicAdd(&sh_hist[mc_terms(a, o, t)], 1u);
		for (int j = 0; j < MC_SUMS; j++)
			acc[j] += t[j];
	}
	mc_block_finish(acc, partial, sh_hist, hist, a.bins);
}

/* gpu3: gpu2's grid, blocks and reductions around path3.cuh's path (gpu2's
 * numbers without the double library's branches; the round keys of
 * Philox come by value). */
static __global__ void __launch_bounds__(MC_BLOCK)
mc_gpu3_kernel(struct mc_batch_args a, struct mc3_keys keys, double *partial, unsigned *hist)
{
	extern __shared__ unsigned sh_hist[];
	double acc[MC_SUMS] = {};
	for (int b = threadIdx.x; b < a.bins; b += MC_BLOCK)
		sh_hist[b] = 0;
	__syncthreads();
	const unsigned long long stride = (unsigned long long)gridDim.x * MC_BLOCK;
	/* A thread's paths in gpu2's order, MC_GPU3_PATHS at a time; a path
	 * past the batch repeats the first and is not counted. */
	for (unsigned long long i = (unsigned long long)blockIdx.x * MC_BLOCK + threadIdx.x;
	     i < a.paths; i += MC_GPU3_PATHS * stride) {
		uint64_t path[MC_GPU3_PATHS];
		struct mc_outcome o[MC_GPU3_PATHS];
#pragma unroll
		for (int q = 0; q < MC_GPU3_PATHS; q++)
			path[q] = a.first + (i + q * stride < a.paths ? i + q * stride : i);
		mc3_paths<MC_GPU3_PATHS>(a.m, keys, path, o);
#pragma unroll
		for (int q = 0; q < MC_GPU3_PATHS; q++) {
			double t[MC_SUMS];
			if (q > 0 && i + q * stride >= a.paths)
				break;
			atomicAdd(&sh_hist[mc_terms(a, o[q], t)], 1u);
			for (int j = 0; j < MC_SUMS; j++)
				acc[j] += t[j];
		}
	}
	mc_block_finish(acc, partial, sh_hist, hist, a.bins);
}

/* Both stages' last level: one block sums the blocks' partial sums into
 * the batch's MC_SUMS, in a fixed order. */
static __global__ void __launch_bounds__(MC_BLOCK)
mc_total_kernel(const double *partial, unsigned blocks, double *sums)
{
	double t[MC_SUMS] = {};
	for (unsigned b = threadIdx.x; b < blocks; b += MC_BLOCK)
		for (int j = 0; j < MC_SUMS; j++)
			t[j] += partial[(size_t)b * MC_SUMS + j];
	block_tree_sum<MC_SUMS, MC_BLOCK>(t, sums);
}

static inline struct mc_batch_args mc_args(const struct mc_problem *p, size_t batch)
{
	struct mc_batch_args a;
	a.m = p->model;
	for (int e = 0; e < MC_NEST; e++)
		a.shift[e] = p->shift[e];
	a.first = (uint64_t)batch * p->paths;
	a.paths = p->paths;
	a.hist_lo = p->hist_lo;
	a.hist_inv_width = p->hist_inv_width;
	a.bins = p->bins;
	return a;
}

#endif
