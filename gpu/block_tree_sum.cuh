/*
 * block_tree_sum.cuh: K doubles a thread summed over a block of B threads
 * by a fixed tree (the upper half added to the lower, halving), so that the
 * sums are the same every run; thread 0 gets them.  The block level of the
 * deterministic reductions of n-body's resident stages
 * (gpu/nbody/resident.cu), Monte Carlo's (gpu/montecarlo/kernels.cuh) and
 * particles' calcEnergy (gpu/particles/stage_gpu.cu).
 *
 * Every thread of the block calls it (it synchronises); B is the block's
 * size, a power of two.
 */
#ifndef APOD_GPU_BLOCK_TREE_SUM_CUH
#define APOD_GPU_BLOCK_TREE_SUM_CUH

template <int K, int B> static __device__ void block_tree_sum(const double (&v)[K], double *out)
{
	__shared__ double s[K][B];
	unsigned t = threadIdx.x;
	for (int c = 0; c < K; c++)
		s[c][t] = v[c];
	__syncthreads();
	for (unsigned half = B / 2; half > 0; half /= 2) {
		if (t < half)
			for (int c = 0; c < K; c++)
				s[c][t] += s[c][t + half];
		__syncthreads();
	}
	if (t == 0)
		for (int c = 0; c < K; c++)
			out[c] = s[c][0];
}

#endif
