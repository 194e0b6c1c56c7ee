/*
 * probes.cuh: the n-body probes' reductions on the device, shared by the
 * resident stages (resident.cu) and mgpu (stage_mgpu.cu): the statistics'
 * 7 sums (kinetic, m v, m r) in double over a set of bodies, the
 * potential's rows, and one block's total of the partial sums (a fixed
 * order, the same every run).  Launched with NBODY_PROBE_BLOCK threads.
 */
#ifndef APOD_GPU_NBODY_PROBES_CUH
#define APOD_GPU_NBODY_PROBES_CUH

#include "gpu/block_tree_sum.cuh"
#include "shared/nbody/interact.h"

#define NBODY_PROBE_BLOCK 256
#define STATS_BLOCKS 1024     /* at most: partial sums per statistics probe */
#define NBODY_SUMS 7

/* Kinetic, m v (3), m r (3) over a strided set of bodies, then the block. */
static __global__ void stats_kernel(const float4 *__restrict__ pos, const float4 *__restrict__ vel,
                                    int n, double *part)
{
	double v[NBODY_SUMS] = { 0, 0, 0, 0, 0, 0, 0 };
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
		float4 x = pos[i], u = vel[i];
		double m = x.w;
		v[0] += nbody_kinetic(x.w, u.x, u.y, u.z);
		v[1] += m * u.x;
		v[2] += m * u.y;
		v[3] += m * u.z;
		v[4] += m * x.x;
		v[5] += m * x.y;
		v[6] += m * x.z;
	}
	block_tree_sum<NBODY_SUMS, NBODY_PROBE_BLOCK>(v, part + (size_t)blockIdx.x * NBODY_SUMS);
}

/* The potential of the pairs (i, j > i) for the rows i in [i0, i1) (all n
 * for gpu2-gpu4, a rank's share for mgpu): one thread a row, j in index
 * order, then the block. */
static __global__ void potential_kernel(const float4 *__restrict__ pos, int n, int i0, int i1,
                                        float eps2, double *part)
{
	int i = i0 + blockIdx.x * blockDim.x + threadIdx.x;
	double row[1] = { 0 };
	if (i < i1) {
		float4 a = pos[i];
		for (int j = i + 1; j < n; j++) {
			float4 b = pos[j];
			row[0] += nbody_pair_potential(a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w, eps2);
		}
	}
	block_tree_sum<1, NBODY_PROBE_BLOCK>(row, part + blockIdx.x);
}

/* One block sums count rows of K partial sums. */
template <int K> static __global__ void total_kernel(const double *part, int count, double *total)
{
	double v[K];
	for (int c = 0; c < K; c++)
		v[c] = 0;
	for (int b = threadIdx.x; b < count; b += blockDim.x)
		for (int c = 0; c < K; c++)
			v[c] += part[(size_t)b * K + c];
	block_tree_sum<K, NBODY_PROBE_BLOCK>(v, total);
}

#endif
