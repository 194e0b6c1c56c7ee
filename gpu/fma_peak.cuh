/*
 * fma_peak.cuh: the FP32 and FP64 FMA peaks of this device, under the names
 * the ilp lab (gpu/labs/ilp.cu, part 1), bench --kernels and apod ceilings
 * use.  The chains and their measurement live in the installed
 * <apod/cuda_ceilings.cuh>, so that a user's GPU port measures its peaks
 * the same way: ILP independent chains x <- fma(x, 2, 1), then
 * x <- fma(x, 0.5, -0.25), on quarter-integers where every result is exact,
 * so a chain of L FMAs from x0 ends at exactly x0 + L/8 (checked before
 * anything is timed).
 */
#ifndef APOD_GPU_FMA_PEAK_CUH
#define APOD_GPU_FMA_PEAK_CUH

#include "apod/cuda_ceilings.cuh"
#include "timing.cuh"

#define FMA_PEAK_BLOCK APOD_CUDA_FMA_BLOCK
#define PASS_FMAS APOD_CUDA_PASS_FMAS
#define fma_chains apod_cuda_chains

/* The FP32 peak in GFLOP/s (bench --kernels). */
static inline int fma_peak_gflops(int reps, double *gflops)
{
	return apod_cuda_fma_gflops<float>(reps, gflops);
}

#endif
