/*
 * forces.cuh: the n-body kernels, one per rung of the ladder, and the
 * small ones every stage shares (kick, drift).  Included by each stage and
 * by bench.cu, so the benchmark times the very kernels the stages run.
 *
 * Layout: float4 per body, pos = (x, y, z, m), vel = (vx, vy, vz, 0),
 * acc = (ax, ay, az, 0): one 16-byte load or store a body.
 *
 * Bit for bit with serial under --disable-fmad: forces_simple and
 * forces_tiled call nbody_interact() for j = 0 .. n-1 in order with one
 * accumulator per body, as the host does.  forces_tuned does not (rsqrtf).
 */
#ifndef APOD_GPU_NBODY_FORCES_CUH
#define APOD_GPU_NBODY_FORCES_CUH

#include "apod/cuda.h"
#include "nbody/interact.h"

/* gpu1, gpu2: one thread a body, every body j read from global memory (the
 * same address across a warp: one broadcast load from L1). */
static __global__ void forces_simple(const float4 *__restrict__ pos, float4 *__restrict__ acc, int n,
                                     float eps2)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float ax = 0, ay = 0, az = 0;
	float4 pi;
	if (i >= n)
		return;
	pi = pos[i];
	for (int j = 0; j < n; j++) {
		float4 pj = pos[j];
		nbody_interact(pi.x, pi.y, pi.z, pj.x, pj.y, pj.z, pj.w, eps2, &ax, &ay, &az);
	}
	acc[i] = make_float4(ax, ay, az, 0);
}

/* gpu3: the classic tiled kernel.  Each block stages blockDim.x bodies j in
 * shared memory at a time, every thread reads them from there; the tiles
 * and the bodies within a tile are taken in index order, and only the
 * bodies that exist (no padding), so the sum is serial's. */
static __global__ void forces_tiled(const float4 *__restrict__ pos, float4 *__restrict__ acc, int n,
                                    float eps2)
{
	extern __shared__ float4 tile[];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float ax = 0, ay = 0, az = 0;
	float4 pi = pos[i < n ? i : n - 1];
	for (int t0 = 0; t0 < n; t0 += blockDim.x) {
		int count = n - t0 < (int)blockDim.x ? n - t0 : (int)blockDim.x;
		__syncthreads();   /* the previous tile is no longer read */
		if ((int)threadIdx.x < count)
			tile[threadIdx.x] = pos[t0 + threadIdx.x];
		__syncthreads();
		for (int k = 0; k < count; k++) {
			float4 pj = tile[k];
			nbody_interact(pi.x, pi.y, pi.z, pj.x, pj.y, pj.z, pj.w, eps2, &ax, &ay, &az);
		}
	}
	if (i < n)
		acc[i] = make_float4(ax, ay, az, 0);
}

/* gpu4: P bodies a thread (i = base + p * blockDim.x, so loads stay
 * coalesced), a float4 tile in shared memory, the inner loop unrolled,
 * rsqrtf in place of the square root and the division, and the second half
 * kick fused in (v += h a as soon as a body's acceleration is known).  The
 * last tile is padded with massless bodies at the origin: they add exactly
 * zero (w = 0), so the loop needs no bound and unrolls fully. */
template <int P, bool RSQRT = true>
static __global__ void forces_tuned(const float4 *__restrict__ pos, float4 *__restrict__ vel,
                                    float4 *__restrict__ acc, int n, float eps2, float h, int kick)
{
	extern __shared__ float4 tile[];
	int base = blockIdx.x * blockDim.x * P + threadIdx.x;
	float4 pi[P];
	float ax[P], ay[P], az[P];
#pragma unroll
	for (int p = 0; p < P; p++) {
		int i = base + p * blockDim.x;
		pi[p] = pos[i < n ? i : n - 1];
		ax[p] = ay[p] = az[p] = 0;
	}
	for (int t0 = 0; t0 < n; t0 += blockDim.x) {
		int j = t0 + threadIdx.x;
		__syncthreads();
		tile[threadIdx.x] = j < n ? pos[j] : make_float4(0, 0, 0, 0);
		__syncthreads();
#pragma unroll 8
		for (int k = 0; k < (int)blockDim.x; k++) {
			float4 pj = tile[k];
#pragma unroll
			for (int p = 0; p < P; p++)
				if (RSQRT)
					nbody_interact_rsqrt(pi[p].x, pi[p].y, pi[p].z, pj.x, pj.y, pj.z, pj.w,
					                     eps2, &ax[p], &ay[p], &az[p]);
				else
					nbody_interact(pi[p].x, pi[p].y, pi[p].z, pj.x, pj.y, pj.z, pj.w, eps2,
					               &ax[p], &ay[p], &az[p]);
		}
	}
#pragma unroll
	for (int p = 0; p < P; p++) {
		int i = base + p * blockDim.x;
		if (i >= n)
			continue;
		acc[i] = make_float4(ax[p], ay[p], az[p], 0);
		if (kick) {
			float4 v = vel[i];
			vel[i] = make_float4(nbody_kick(v.x, ax[p], h), nbody_kick(v.y, ay[p], h),
			                     nbody_kick(v.z, az[p], h), 0);
		}
	}
}

/* Dynamic shared memory of the tuned kernel: one float4 a thread (the tile). */
struct tile_bytes {
	__host__ __device__ size_t operator()(int block) const { return (size_t)block * sizeof(float4); }
};

/* The tuned kernel's launch for n bodies: the block size the occupancy API
 * finds best for it (with its tile), then halved while the grid would give
 * an SM fewer than two blocks: the API maximises the threads an SM holds,
 * not the SMs in use, and at n = 2^17 with 2 bodies a thread its 1024
 * threads a block would make 64 blocks for an H100's 132 SMs. */
template <int P, bool RSQRT = true> static int tuned_shape(int n, int *block, int *grid)
{
	int min_grid, dev, sms, per = (n + P - 1) / P;
	APOD_CUDA_TRY(cudaGetDevice(&dev));
	APOD_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
	APOD_CUDA_TRY(cudaOccupancyMaxPotentialBlockSizeVariableSMem(&min_grid, block, forces_tuned<P, RSQRT>,
	                                                        tile_bytes(), 1024));
	while (*block >= 128 && (per + *block - 1) / *block < 2 * sms)
		*block = (*block / 2 + 31) / 32 * 32;   /* whole warps */
	if (*block > per)
		*block = (per + 31) / 32 * 32;
	*grid = (n + *block * P - 1) / (*block * P);
	return 0;
}

/* The first half of a step: v += h a, then x += dt v. */
static __global__ void kick_drift(float4 *__restrict__ pos, float4 *__restrict__ vel,
                                  const float4 *__restrict__ acc, int n, float h, float dt)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float4 x, v, a;
	if (i >= n)
		return;
	x = pos[i];
	v = vel[i];
	a = acc[i];
	v = make_float4(nbody_kick(v.x, a.x, h), nbody_kick(v.y, a.y, h), nbody_kick(v.z, a.z, h), 0);
	vel[i] = v;
	pos[i] = make_float4(nbody_drift(x.x, v.x, dt), nbody_drift(x.y, v.y, dt),
	                     nbody_drift(x.z, v.z, dt), x.w);
}

/* The second half: v += h a. */
static __global__ void kick(float4 *__restrict__ vel, const float4 *__restrict__ acc, int n, float h)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float4 v, a;
	if (i >= n)
		return;
	v = vel[i];
	a = acc[i];
	vel[i] = make_float4(nbody_kick(v.x, a.x, h), nbody_kick(v.y, a.y, h), nbody_kick(v.z, a.z, h), 0);
}

#endif
