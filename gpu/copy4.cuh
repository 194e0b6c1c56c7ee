/*
 * copy4.cuh: the copy that every bandwidth figure in apod is held against.
 *
 * A grid-stride loop of 16-byte loads and stores: the simplest kernel that
 * reaches the memory system's practical ceiling, so "fraction of the copy"
 * says how much of what the memory can deliver a kernel gets.  apod bench,
 * the devices lab and the transfers lab's zero-copy reader use the kernel;
 * the labs that report a fraction of the measured ceiling call
 * copy4_ceiling_gbs().
 */
#ifndef APOD_GPU_COPY4_CUH
#define APOD_GPU_COPY4_CUH

#include <stdlib.h>
#include <string.h>

#include "apod/cuda.h"
#include "timing.cuh"

static __global__ void copy4_kernel(const float4 *__restrict__ in, float4 *__restrict__ out, size_t n4)
{
	for (size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x; k < n4;
	     k += (size_t)gridDim.x * blockDim.x)
		out[k] = in[k];
}

/* Enough blocks to fill every multiprocessor several times over. */
static inline int copy4_blocks(void)
{
	int dev = 0, sms = 0;
	if (cudaGetDevice(&dev) != cudaSuccess ||
	    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess)
		return 1024;
	return 4 * sms;
}

/* copy4_ceiling_gbs's buffers, given back on every way out of it. */
struct copy4_buffers {
	float4 *d_in = nullptr, *d_out = nullptr;
	unsigned char *h = nullptr, *back = nullptr;

	copy4_buffers() = default;
	copy4_buffers(const copy4_buffers &) = delete;
	copy4_buffers &operator=(const copy4_buffers &) = delete;
	~copy4_buffers()
	{
		free(h);
		free(back);
		if (d_in)
			cudaFree(d_in);
		if (d_out)
			cudaFree(d_out);
	}
};

/*
 * The memory system's copy ceiling on `bytes` (read + write counted), in
 * GB/s: the faster of copy4 and cudaMemcpy device to device on the same
 * buffers, after checking that copy4 reproduces its input.  copy4 runs
 * eight blocks of 256 threads per multiprocessor, enough loads in flight
 * for a single pass to saturate memory; the first record used one wave of
 * 4 x SMs blocks of 512, which on the H200 ran 3-9% below cudaMemcpy and so
 * let some labs' kernels beat their "ceiling".  0 on success, -1 on a CUDA
 * error or a wrong copy (already reported).
 */
static inline int copy4_ceiling_gbs(size_t bytes, int reps, double *gbs)
{
	size_t n4 = bytes / 16, nbytes = n4 * 16;
	copy4_buffers bufs;
	float4 *&d_in = bufs.d_in, *&d_out = bufs.d_out;
	unsigned char *&h = bufs.h, *&back = bufs.back;
	int blocks = 8 * copy4_blocks(), same;
	double ms = 0, ms_memcpy = 0;

	if (n4 == 0)
		return apod_fail("copy ceiling: %zu bytes is too small to measure", bytes);
	if (!(h = (unsigned char *)malloc(nbytes)) || !(back = (unsigned char *)malloc(nbytes)))
		return apod_fail("copy ceiling: cannot allocate %zu bytes of host memory", 2 * nbytes);
	for (size_t i = 0; i < nbytes; i++)
		h[i] = (unsigned char)((i * 2654435761u) >> 11);
	APOD_CUDA_TRY(cudaMalloc(&d_in, nbytes));
	APOD_CUDA_TRY(cudaMalloc(&d_out, nbytes));
	APOD_CUDA_TRY(cudaMemcpy(d_in, h, nbytes, cudaMemcpyHostToDevice));
	APOD_CUDA_TRY(cudaMemset(d_out, 0, nbytes));
	APOD_LAUNCH_TRY((copy4_kernel<<<blocks, 256>>>(d_in, d_out, n4)));
	APOD_CUDA_TRY(cudaMemcpy(back, d_out, nbytes, cudaMemcpyDeviceToHost));
	same = memcmp(h, back, nbytes) == 0;
	free(h);
	free(back);
	h = back = NULL;
	if (!same)
		return apod_fail("copy ceiling: the copy kernel did not reproduce its input");
	if (time_it(reps, [&] { copy4_kernel<<<blocks, 256>>>(d_in, d_out, n4);
	                        return cudaGetLastError() != cudaSuccess; }, &ms) ||
	    time_it(reps, [&] { return cudaMemcpyAsync(d_out, d_in, nbytes, cudaMemcpyDeviceToDevice)
	                               != cudaSuccess; }, &ms_memcpy))
		return -1;
	if (ms_memcpy < ms)
		ms = ms_memcpy;
	/* Freed here so that a failure is reported; the owner lets go of each
	 * buffer first, so that nothing is freed twice. */
	{
		float4 *in = d_in, *out = d_out;
		cudaError_t err_in, err_out;
		d_in = d_out = NULL;
		err_in = cudaFree(in);
		err_out = cudaFree(out);
		if (err_in != cudaSuccess)
			return apod_cuda_failed(err_in, "cudaFree(d_in)", __FILE__, __LINE__);
		if (err_out != cudaSuccess)
			return apod_cuda_failed(err_out, "cudaFree(d_out)", __FILE__, __LINE__);
	}
	*gbs = 2.0 * nbytes / (ms * 1e-3) / 1e9;
	return 0;
}

#endif
