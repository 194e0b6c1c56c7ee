/*
 * reduce.cuh: combining per-thread statistics into per-block ones on the
 * device, with the same Chan merge the CPU uses (shared/stats.h).
 *
 * Warp level: five shuffles per tree level (count, mean, m2, min, max).
 * Block level: one result per warp in shared memory, merged by warp 0.
 * The merge order is fixed by the launch shape, so a run is repeatable.
 */
#ifndef APOD_GPU_REDUCE_CUH
#define APOD_GPU_REDUCE_CUH

#include "shared/stats.h"

#define APOD_MAX_WARPS 32

static __device__ __forceinline__ void warp_merge_moments(struct apod_moments *m)
{
	for (int off = 16; off > 0; off >>= 1) {
		struct apod_moments o;
		o.n = __shfl_down_sync(0xffffffffu, m->n, off);
		o.mean = __shfl_down_sync(0xffffffffu, m->mean, off);
		o.m2 = __shfl_down_sync(0xffffffffu, m->m2, off);
		o.min = __shfl_down_sync(0xffffffffu, m->min, off);
		o.max = __shfl_down_sync(0xffffffffu, m->max, off);
		apod_moments_merge(m, &o);
	}
}

/* Every thread of the block calls this; thread 0 gets the block's result. */
static __device__ void block_merge_moments(struct apod_moments *m)
{
	__shared__ struct apod_moments warp_m[APOD_MAX_WARPS];
	int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
	int nwarps = (blockDim.x + 31) >> 5;
	warp_merge_moments(m);
	if (lane == 0)
		warp_m[warp] = *m;
	__syncthreads();
	if (warp == 0) {
		if (lane < nwarps)
			*m = warp_m[lane];
		else
			apod_moments_init(m);
		warp_merge_moments(m);
	}
	__syncthreads();   /* warp_m may be reused by a following call */
}

/* calcStats's one merge of partial moments, whichever kernel launches it:
 * the block takes parts[0 .. nparts-1], each thread every blockDim.x-th
 * part from its own index, then merges them as above, so the order (and
 * the result, bit for bit) depends only on nparts and the block's size.
 * Every thread calls this; thread 0 writes the total to *total. */
static __device__ void block_merge_parts(const struct apod_moments *__restrict__ parts, int nparts,
                                         struct apod_moments *__restrict__ total)
{
	struct apod_moments m;
	apod_moments_init(&m);
	for (int k = threadIdx.x; k < nparts; k += blockDim.x)
		apod_moments_merge(&m, &parts[k]);
	block_merge_moments(&m);
	if (threadIdx.x == 0)
		*total = m;
}

static __device__ __forceinline__ double warp_sum(double v)
{
	for (int off = 16; off > 0; off >>= 1)
		v += __shfl_down_sync(0xffffffffu, v, off);
	return v;
}

/* Every thread calls this; thread 0 gets the block's sum. */
static __device__ double block_sum(double v)
{
	__shared__ double warp_s[APOD_MAX_WARPS];
	int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
	int nwarps = (blockDim.x + 31) >> 5;
	v = warp_sum(v);
	if (lane == 0)
		warp_s[warp] = v;
	__syncthreads();
	if (warp == 0) {
		v = lane < nwarps ? warp_s[lane] : 0.0;
		v = warp_sum(v);
	}
	__syncthreads();
	return v;
}

#endif
