/*
 * copy4.cuh: the copy that every bandwidth figure in apod is held against,
 * under the names apod bench and the labs use.  The kernel and the
 * ceiling's measurement live in the installed <apod/cuda_ceilings.cuh>, so
 * that a user's GPU port measures its ceiling the same way:
 *   copy4_kernel        a grid-stride loop of 16-byte loads and stores
 *   copy4_ceiling_gbs   the faster of it and cudaMemcpy device to device,
 *                       checked first, in GB/s (read + write counted)
 */
#ifndef APOD_GPU_COPY4_CUH
#define APOD_GPU_COPY4_CUH

#include "apod/cuda_ceilings.cuh"
#include "timing.cuh"

#define copy4_kernel apod_cuda_copy_kernel

static inline int copy4_ceiling_gbs(size_t bytes, int reps, double *gbs)
{
	return apod_cuda_copy_gbs(bytes, reps, gbs);
}

#endif
