/*
 * fma_peak.cuh: the FP32 and FP64 FMA peaks of this device, measured: the
 * FMA chains of the ilp lab (gpu/labs/ilp.cu, part 1), written once here
 * for it, bench --kernels and apod ceilings (gpu/ceilings.cu).
 *
 * Each thread runs ILP independent chains x <- fma(x, 2, 1), then
 * x <- fma(x, 0.5, -0.25), on quarter-integers where every result is exact,
 * so a chain of L FMAs from x0 ends at exactly x0 + L/8 (the ilp lab checks
 * that on the host with fmaf; fma_peak_gflops checks the device's result).
 */
#ifndef APOD_GPU_FMA_PEAK_CUH
#define APOD_GPU_FMA_PEAK_CUH

#include <vector>

#include "apod/cuda.h"
#include "timing.cuh"

#define FMA_PEAK_BLOCK 128   /* four warps: one for each scheduler of a Volta-to-Hopper SM */
#define PASS_FMAS 64         /* FMAs per thread in one pass of the loop, whatever ILP is */

static __device__ __forceinline__ float fma_rn(float a, float b, float c)
{
	return __fmaf_rn(a, b, c);
}

static __device__ __forceinline__ double fma_rn(double a, double b, double c)
{
	return __fma_rn(a, b, c);
}

/* ILP independent chains per thread, PASS_FMAS / ILP FMAs each per pass. */
template <int ILP, typename T = float>
static __global__ void __launch_bounds__(FMA_PEAK_BLOCK) fma_chains(const T *__restrict__ x0,
                                                                    T *__restrict__ x, int passes)
{
	const int threads = gridDim.x * blockDim.x, t = blockIdx.x * blockDim.x + threadIdx.x;
	T v[ILP];
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
				v[j] = fma_rn(v[j], (T)2, (T)1);
				v[j] = fma_rn(v[j], (T)0.5, (T)-0.25);
			}
		}
	}
#pragma unroll
	for (int j = 0; j < ILP; j++)
		x[j * threads + t] = v[j];
}

/* The peak of T (float or double), in GFLOP/s (2 flops an FMA): 8 chains
 * a thread, every SM as full as it can be (the ilp lab's best cell on Volta
 * to Hopper), the median of reps after a warm-up.  Checked first: every
 * chain must end at x0 + L/8. */
template <typename T> static inline int fma_peak_gflops_of(int reps, double *gflops)
{
	const int ILP = 8, fmas = 1 << 18, passes = fmas / PASS_FMAS;
	int dev, sms, per_sm, blocks, threads;
	T *d_x0 = nullptr, *d_x = nullptr;
	double ms = 0;
	int rc = -1;
	APOD_CUDA_TRY(cudaGetDevice(&dev));
	APOD_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
	APOD_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fma_chains<ILP, T>, FMA_PEAK_BLOCK, 0));
	blocks = sms * per_sm;
	threads = blocks * FMA_PEAK_BLOCK;
	{
		std::vector<T> h((size_t)threads * ILP);
		for (size_t e = 0; e < h.size(); e++)
			h[e] = (T)(e % 4096) * (T)0.25 - (T)512;   /* quarter-integers, small */
		if (cudaMalloc((void **)&d_x0, h.size() * sizeof(T)) != cudaSuccess ||
		    cudaMalloc((void **)&d_x, h.size() * sizeof(T)) != cudaSuccess) {
			apod_fail("fma peak: cannot allocate %zu values on the device", 2 * h.size());
			goto out;
		}
		if (cudaMemcpy(d_x0, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice) != cudaSuccess)
			goto fail;
		fma_chains<ILP, T><<<blocks, FMA_PEAK_BLOCK>>>(d_x0, d_x, passes);
		{
			std::vector<T> got(h.size());
			if (cudaMemcpy(got.data(), d_x, got.size() * sizeof(T), cudaMemcpyDeviceToHost) !=
			    cudaSuccess)
				goto fail;
			for (size_t e = 0; e < got.size(); e++)
				if (got[e] != h[e] + (T)(fmas / ILP / 8.0)) {
					apod_fail("fma peak: chain %zu ended at %g, not %g", e, (double)got[e],
					          h[e] + fmas / ILP / 8.0);
					goto out;
				}
		}
		if (time_it(reps, [&] { fma_chains<ILP, T><<<blocks, FMA_PEAK_BLOCK>>>(d_x0, d_x, passes);
		                        return cudaGetLastError() != cudaSuccess; }, &ms))
			goto out;
		*gflops = 2.0 * threads * (double)fmas / (ms * 1e-3) / 1e9;
		rc = 0;
		goto out;
	}
fail:
	apod_cuda_failed(cudaGetLastError(), "fma peak: a copy", __FILE__, __LINE__);
out:
	cudaFree(d_x0);
	cudaFree(d_x);
	return rc;
}

/* The FP32 peak (bench --kernels). */
static inline int fma_peak_gflops(int reps, double *gflops)
{
	return fma_peak_gflops_of<float>(reps, gflops);
}

#endif
