/*
 * tuned.cuh: gpu4's kernels.  See stage4.cu for what changed and why.
 */
#ifndef APOD_GPU_TUNED_CUH
#define APOD_GPU_TUNED_CUH

#include "heat/cell.h"
#include "heat/hist.h"
#include "reduce.cuh"
#include "thread_stats.cuh"

#define FUSED_ROWS 32   /* rows a thread marches through: halo reads are 2/32 */
/* At most 512 threads a block and at least 3 blocks an SM: 1536 resident
 * threads, which caps registers at 42 a thread.  Without the bound the
 * reduction kernels took 54-58 registers (ncu: 50% theoretical occupancy).
 * With it the fused kernel takes 40 and spills a little to local memory
 * (ncu counts the requests), and still runs faster: 0.207 -> 0.190 ms. */
#define TUNED_THREADS 512
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#define TUNED_MIN_BLOCKS 2   /* sm_75 holds 1024 threads an SM */
#else
#define TUNED_MIN_BLOCKS 3
#endif

/* A cell is fixed if it is on an edge or a heater (bit set in the mask). */
static __device__ __forceinline__ int heater_bit(const unsigned *__restrict__ mask, size_t idx)
{
	return (mask[idx >> 5] >> (idx & 31)) & 1u;
}

/* End of a tuned kernel: merge the threads' moments into the block's
 * partial and add the block's histogram to the global one. */
static __device__ __forceinline__ void finish_block(struct thread_stats *t, unsigned *block_hist,
                                                    struct apod_moments *__restrict__ parts,
                                                    size_t part, unsigned *__restrict__ hist,
                                                    int nbins)
{
	struct apod_moments m;
	ts_flush(t, block_hist);
	ts_moments(t, &m);
	block_merge_moments(&m);   /* its __syncthreads also orders the histogram */
	if (threadIdx.x == 0)
		parts[part] = m;
	for (int b = threadIdx.x; b < nbins; b += blockDim.x)
		if (block_hist[b])
			atomicAdd(&hist[b], block_hist[b]);
}

/* genTimeStep + calcStats, any width: one column per thread, marching down
 * FUSED_ROWS rows with the cells above and at the row in registers. */
static __global__ void fused_scalar_kernel(
	const heat_real *__restrict__ cur, heat_real *__restrict__ next,
	const unsigned *__restrict__ heater_mask, size_t nx, size_t ny, heat_real alpha,
	heat_real lo, heat_real inv_width, int nbins, struct apod_moments *__restrict__ parts,
	unsigned *__restrict__ hist)
{
	extern __shared__ unsigned block_hist[];
	size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	size_t i0 = (size_t)blockIdx.y * FUSED_ROWS;
	size_t i1 = i0 + FUSED_ROWS < ny ? i0 + FUSED_ROWS : ny;
	struct thread_stats t;

	for (int b = threadIdx.x; b < nbins; b += blockDim.x)
		block_hist[b] = 0;
	__syncthreads();
	ts_init(&t);
	if (j < nx) {
		heat_real up = i0 > 0 ? cur[(i0 - 1) * nx + j] : (heat_real)0;
		heat_real c = cur[i0 * nx + j];
		int edge_col = j == 0 || j + 1 == nx;
		for (size_t i = i0; i < i1; i++) {
			size_t idx = i * nx + j;
			heat_real dn = i + 1 < ny ? cur[idx + nx] : (heat_real)0;
			heat_real v = c;
			if (!(edge_col || i == 0 || i + 1 == ny || heater_bit(heater_mask, idx)))
				v = heat_cell_update(c, up, dn, cur[idx + 1], cur[idx - 1], alpha);
			next[idx] = v;
			ts_add(&t, v);
			ts_bin(&t, heat_hist_bin(v, lo, inv_width, nbins), block_hist);
			up = c;
			c = dn;
		}
	}
	finish_block(&t, block_hist, parts, (size_t)blockIdx.y * gridDim.x + blockIdx.x, hist, nbins);
}

#ifdef APOD_REAL_FLOAT
/* The same, four columns per thread with 16-byte loads and stores (float,
 * nx a multiple of 4).  gpu4 runs <true, true>; `apod bench` also times the
 * sweep alone and the sweep with moments only, to show what each costs.  The neighbours across a float4 come from the next
 * and previous lanes by shuffle; only the warp's outermost lanes load them. */
static __device__ __forceinline__ float4 load4(const float *p)
{
	return *reinterpret_cast<const float4 *>(p);
}

template <bool MOMENTS, bool HIST>
static __global__ void __launch_bounds__(TUNED_THREADS, TUNED_MIN_BLOCKS) fused_vec4_kernel(
	const float *__restrict__ cur, float *__restrict__ next,
	const unsigned *__restrict__ heater_mask, size_t nx, size_t ny, float alpha,
	float lo, float inv_width, int nbins, struct apod_moments *__restrict__ parts,
	unsigned *__restrict__ hist)
{
	extern __shared__ unsigned block_hist[];
	size_t j = 4 * ((size_t)blockIdx.x * blockDim.x + threadIdx.x);
	size_t i0 = (size_t)blockIdx.y * FUSED_ROWS;
	size_t i1 = i0 + FUSED_ROWS < ny ? i0 + FUSED_ROWS : ny;
	int lane = threadIdx.x & 31, valid = j < nx;
	struct thread_stats t;
	float4 up = make_float4(0, 0, 0, 0), c = up, dn = up, ahead = up;

	for (int b = threadIdx.x; b < nbins; b += blockDim.x)
		block_hist[b] = 0;
	__syncthreads();
	ts_init(&t);
	if (valid) {
		if (i0 > 0)
			up = load4(cur + (i0 - 1) * nx + j);
		c = load4(cur + i0 * nx + j);
		if (i0 + 1 < ny)
			ahead = load4(cur + (i0 + 1) * nx + j);
	}
	/* Every lane runs the loop, valid or not, so that the shuffles see a
	 * full warp; invalid lanes neither load nor store. */
	for (size_t i = i0; i < i1; i++) {
		size_t idx = i * nx + j;
		float left = __shfl_up_sync(0xffffffffu, c.w, 1);
		float right = __shfl_down_sync(0xffffffffu, c.x, 1);
		float4 v = c;
		/* The row below was loaded an iteration ago; start the one after it
		 * now, so that each thread keeps a load in flight while it computes. */
		dn = ahead;
		if (valid) {
			unsigned fixed;
			if (i + 2 < ny)
				ahead = load4(cur + idx + 2 * nx);
			if (lane == 0 && j > 0)
				left = cur[idx - 1];
			if (lane == 31 && j + 4 < nx)
				right = cur[idx + 4];
			/* Bits 0-3: the four cells' heater bits (idx is a multiple of 4). */
			fixed = (heater_mask[idx >> 5] >> (idx & 31)) & 0xfu;
			if (i == 0 || i + 1 == ny)
				fixed = 0xfu;
			if (j == 0)
				fixed |= 1u;
			if (j + 4 == nx)
				fixed |= 8u;
			if (!(fixed & 1u))
				v.x = heat_cell_update(c.x, up.x, dn.x, c.y, left, alpha);
			if (!(fixed & 2u))
				v.y = heat_cell_update(c.y, up.y, dn.y, c.z, c.x, alpha);
			if (!(fixed & 4u))
				v.z = heat_cell_update(c.z, up.z, dn.z, c.w, c.y, alpha);
			if (!(fixed & 8u))
				v.w = heat_cell_update(c.w, up.w, dn.w, right, c.z, alpha);
			*reinterpret_cast<float4 *>(next + idx) = v;
			if (MOMENTS)
				ts_add4(&t, v.x, v.y, v.z, v.w);
			if (HIST)
				ts_bin4(&t, heat_hist_bin(v.x, lo, inv_width, nbins),
			        heat_hist_bin(v.y, lo, inv_width, nbins),
			        heat_hist_bin(v.z, lo, inv_width, nbins),
			        heat_hist_bin(v.w, lo, inv_width, nbins), block_hist);
		}
		up = c;
		c = dn;
	}
	finish_block(&t, block_hist, parts, (size_t)blockIdx.y * gridDim.x + blockIdx.x, hist, nbins);
}
#endif

/* calcStats alone with the tuned per-thread statistics: the reduction that
 * `apod bench` sets beside CUB's DeviceReduce.  HIST=false measures the
 * moments alone, the like-for-like comparison with a sum. */
template <bool HIST>
static __global__ void __launch_bounds__(TUNED_THREADS, TUNED_MIN_BLOCKS) reduce_stats_kernel(const heat_real *__restrict__ f, size_t n, heat_real lo,
                                           heat_real inv_width, int nbins,
                                           struct apod_moments *__restrict__ parts,
                                           unsigned *__restrict__ hist)
{
	extern __shared__ unsigned block_hist[];
	struct thread_stats t;
	size_t stride = (size_t)gridDim.x * blockDim.x;
	if (HIST) {
		for (int b = threadIdx.x; b < nbins; b += blockDim.x)
			block_hist[b] = 0;
		__syncthreads();
	}
	ts_init(&t);
#ifdef APOD_REAL_FLOAT
	/* Four at a time while aligned; the tail one at a time. */
	size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	/* Two loads in flight per thread before either is used. */
	for (; k + stride < n / 4; k += 2 * stride) {
		float4 v = *reinterpret_cast<const float4 *>(f + 4 * k);
		float4 w = *reinterpret_cast<const float4 *>(f + 4 * (k + stride));
		ts_add4(&t, v.x, v.y, v.z, v.w);
		ts_add4(&t, w.x, w.y, w.z, w.w);
		if (HIST) {
			ts_bin4(&t, heat_hist_bin(v.x, lo, inv_width, nbins),
			        heat_hist_bin(v.y, lo, inv_width, nbins),
			        heat_hist_bin(v.z, lo, inv_width, nbins),
			        heat_hist_bin(v.w, lo, inv_width, nbins), block_hist);
			ts_bin4(&t, heat_hist_bin(w.x, lo, inv_width, nbins),
			        heat_hist_bin(w.y, lo, inv_width, nbins),
			        heat_hist_bin(w.z, lo, inv_width, nbins),
			        heat_hist_bin(w.w, lo, inv_width, nbins), block_hist);
		}
	}
	for (; k < n / 4; k += stride) {
		float4 v = *reinterpret_cast<const float4 *>(f + 4 * k);
		ts_add4(&t, v.x, v.y, v.z, v.w);
		if (HIST)
			ts_bin4(&t, heat_hist_bin(v.x, lo, inv_width, nbins),
			        heat_hist_bin(v.y, lo, inv_width, nbins),
			        heat_hist_bin(v.z, lo, inv_width, nbins),
			        heat_hist_bin(v.w, lo, inv_width, nbins), block_hist);
	}
	for (size_t k = n / 4 * 4 + (size_t)blockIdx.x * blockDim.x + threadIdx.x; k < n; k += stride) {
#else
	for (size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x; k < n; k += stride) {
#endif
		ts_add(&t, f[k]);
		if (HIST)
			ts_bin(&t, heat_hist_bin(f[k], lo, inv_width, nbins), block_hist);
	}
	if (HIST) {
		finish_block(&t, block_hist, parts, blockIdx.x, hist, nbins);
	} else {
		struct apod_moments m;
		ts_moments(&t, &m);
		block_merge_moments(&m);
		if (threadIdx.x == 0)
			parts[blockIdx.x] = m;
	}
}

#endif
