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
 * accumulator per body, as the host does.  forces_tuned and forces_split
 * do not (rsqrtf).
 */
#ifndef APOD_GPU_NBODY_FORCES_CUH
#define APOD_GPU_NBODY_FORCES_CUH

#include "apod/cuda.h"
#include "shared/nbody/interact.h"

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

/* Rows of bench --kernels, beside gpu4's forces_split: P bodies a thread
 * (i = base + p * blockDim.x, so loads stay coalesced), a float4 tile in
 * shared memory, the inner loop unrolled, rsqrtf in place of the square
 * root and the division, and the second half kick fused in (v += h a as soon as a body's acceleration is known).  The
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

/* gpu4's and nbody's mgpu's: the accelerations of bodies
 * i in [i0, i1) (all n for gpu4, one rank's share for mgpu) from every body
 * j in [0, n): P bodies a thread, the block's threads split into
 * S slices of BLOCK / S threads, each slice taking its own part of every
 * tile (S times the warps at a given n, where more bodies a thread alone
 * left too few: nbody_resident.h), a tile of compile-time size whose
 * JT-body pieces unroll fully (immediate shared-memory offsets, no loop
 * overhead), the next tile's loads in flight in registers while this one is
 * computed, and the slices' partial sums added in slice order through
 * shared memory at the end.  EQUAL: every body has the mass m, so the pull
 * is summed for unit mass (nbody_interact_rsqrt_unit, one multiply fewer)
 * and multiplied by m once; the last tile is padded with bodies at
 * NBODY_FAR, which add exactly zero.  Otherwise the masses are read from the
 * tile and the padding is massless.  The order of the sum is not serial's;
 * like the rsqrt, that is within the designed tolerances (any order). */
template <int P, int S, int BLOCK, int JT, int MINB, bool EQUAL>
static __global__ void __launch_bounds__(BLOCK, MINB)
forces_split(const float4 *__restrict__ pos, float4 *__restrict__ vel, float4 *__restrict__ acc, int n,
             int i0, int i1, float eps2, float m, float h, int kick)
{
	constexpr int W = BLOCK / S, TILE = S * JT > BLOCK ? S * JT : BLOCK, L = TILE / BLOCK,
		      PER = TILE / S;
	static_assert(BLOCK % S == 0 && W % 32 == 0, "a slice is whole warps");
	static_assert(TILE % BLOCK == 0 && PER % JT == 0, "a tile is whole loads and whole pieces");
	__shared__ float4 tile[TILE];
	__shared__ float part[S > 1 ? (S - 1) * 3 * P * W : 1];
	const float4 pad = EQUAL ? make_float4(NBODY_FAR, NBODY_FAR, NBODY_FAR, 0) : make_float4(0, 0, 0, 0);
	const int ti = threadIdx.x % W, s = threadIdx.x / W;
	const int base = i0 + blockIdx.x * W * P + ti;
	float xi[P], yi[P], zi[P], ax[P], ay[P], az[P];
	float4 next[L];
#pragma unroll
	for (int p = 0; p < P; p++) {
		int i = base + p * W;
		float4 q = pos[i < i1 ? i : i1 - 1];
		xi[p] = q.x;
		yi[p] = q.y;
		zi[p] = q.z;
		ax[p] = ay[p] = az[p] = 0;
	}
#pragma unroll
	for (int l = 0; l < L; l++) {
		int j = l * BLOCK + threadIdx.x;
		next[l] = j < n ? pos[j] : pad;
	}
	for (int t0 = 0; t0 < n; t0 += TILE) {
		__syncthreads();   /* the previous tile is no longer read */
#pragma unroll
		for (int l = 0; l < L; l++)
			tile[l * BLOCK + threadIdx.x] = next[l];
		__syncthreads();
#pragma unroll
		for (int l = 0; l < L; l++) {
			int j = t0 + TILE + l * BLOCK + threadIdx.x;
			next[l] = j < n ? pos[j] : pad;
		}
		const float4 *mine = tile + s * PER;
#pragma unroll 1
		for (int c = 0; c < PER; c += JT) {
#pragma unroll
			for (int k = 0; k < JT; k++) {
				float4 pj = mine[c + k];
#pragma unroll
				for (int p = 0; p < P; p++)
					if (EQUAL)
						nbody_interact_rsqrt_unit(xi[p], yi[p], zi[p], pj.x, pj.y, pj.z, eps2,
						                          &ax[p], &ay[p], &az[p]);
					else
						nbody_interact_rsqrt(xi[p], yi[p], zi[p], pj.x, pj.y, pj.z, pj.w, eps2,
						                     &ax[p], &ay[p], &az[p]);
			}
		}
	}
	if (S > 1) {
		if (s > 0) {
#pragma unroll
			for (int p = 0; p < P; p++) {
				float *q = part + ((s - 1) * 3 * P + 3 * p) * W + ti;
				q[0] = ax[p];
				q[W] = ay[p];
				q[2 * W] = az[p];
			}
		}
		__syncthreads();
		if (s > 0)
			return;
#pragma unroll
		for (int r = 1; r < S; r++)
#pragma unroll
			for (int p = 0; p < P; p++) {
				const float *q = part + ((r - 1) * 3 * P + 3 * p) * W + ti;
				ax[p] += q[0];
				ay[p] += q[W];
				az[p] += q[2 * W];
			}
	}
#pragma unroll
	for (int p = 0; p < P; p++) {
		int i = base + p * W;
		if (i >= i1)
			continue;
		if (EQUAL) {
			ax[p] *= m;
			ay[p] *= m;
			az[p] *= m;
		}
		acc[i] = make_float4(ax[p], ay[p], az[p], 0);
		if (kick) {
			float4 v = vel[i];
			vel[i] = make_float4(nbody_kick(v.x, ax[p], h), nbody_kick(v.y, ay[p], h),
			                     nbody_kick(v.z, az[p], h), 0);
		}
	}
}

/* The split kernel's shapes, widest first: bodies a thread, slices, block,
 * tile piece, blocks an SM for the launch bound.  The first shape is the
 * fastest on the H200 at 2^17 and 2^18 bodies; the others have fewer
 * bodies a block, so that smaller n still give every SM blocks
 * (bench --kernels times all three; doc/optimize.md, "n-body"). */
#define NBODY_SPLIT_SHAPES 3
struct nbody_split_shape {
	int p, s, block;
};
static const struct nbody_split_shape nbody_split_shapes[NBODY_SPLIT_SHAPES] = {
	{ 8, 8, 256 }, { 4, 8, 256 }, { 2, 8, 256 },
};

/* The widest shape that still gives each SM two blocks, else the last. */
static inline int nbody_split_choose(int n, int sms)
{
	for (int k = 0; k < NBODY_SPLIT_SHAPES; k++) {
		const struct nbody_split_shape *sh = &nbody_split_shapes[k];
		int bodies = sh->block / sh->s * sh->p;
		if ((n + bodies - 1) / bodies >= 2 * sms)
			return k;
	}
	return NBODY_SPLIT_SHAPES - 1;
}

/* Launch shape k of the split kernel (equal masses m, or any masses) for
 * the bodies [i0, i1) of n: their accelerations (and the kick of their
 * velocities), indexed as in pos. */
static inline int nbody_split_launch_range(int k, bool equal, cudaStream_t stream, const float4 *pos,
                                           float4 *vel, float4 *acc, int n, int i0, int i1, float eps2,
                                           float m, float h, int kick)
{
	const struct nbody_split_shape *sh = &nbody_split_shapes[k];
	int grid = (i1 - i0 + sh->block / sh->s * sh->p - 1) / (sh->block / sh->s * sh->p);
#define SPLIT(P, S, B, JT, MB)                                                                    \
	do {                                                                                      \
		if (equal)                                                                        \
			APOD_LAUNCH_TRY((forces_split<P, S, B, JT, MB, true><<<grid, B, 0, stream>>>(   \
				pos, vel, acc, n, i0, i1, eps2, m, h, kick)));                     \
		else                                                                              \
			APOD_LAUNCH_TRY((forces_split<P, S, B, JT, MB, false><<<grid, B, 0, stream>>>(  \
				pos, vel, acc, n, i0, i1, eps2, m, h, kick)));                     \
	} while (0)
	switch (k) {
	case 0:
		SPLIT(8, 8, 256, 16, 2);
		break;
	case 1:
		SPLIT(4, 8, 256, 32, 3);
		break;
	default:
		SPLIT(2, 8, 256, 32, 4);
		break;
	}
#undef SPLIT
	return 0;
}

/* ... for every body: gpu4's launch. */
static inline int nbody_split_launch(int k, bool equal, cudaStream_t stream, const float4 *pos,
                                     float4 *vel, float4 *acc, int n, float eps2, float m, float h,
                                     int kick)
{
	return nbody_split_launch_range(k, equal, stream, pos, vel, acc, n, 0, n, eps2, m, h, kick);
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
