/*
 * provoke.cu: real CUDA failures on purpose, for the tests of the error
 * mechanism (tests/check_gpu.c): each goes through APOD_CUDA_TRY or APOD_LAUNCH_TRY
 * exactly as production code does, and must come back as -1 with a message
 * that names the call, the file and the line.
 */
#include "apod/cuda.h"
#include "provoke.h"

static __global__ void touch_kernel(float *out)
{
	extern __shared__ float scratch[];
	scratch[threadIdx.x] = (float)threadIdx.x;
	__syncthreads();
	if (out)
		out[threadIdx.x] = scratch[threadIdx.x];
}

static int too_many_threads(void)
{
	/* 4096 threads a block: more than any CUDA device allows. */
	APOD_LAUNCH_TRY((touch_kernel<<<1, 4096, 4096 * sizeof(float)>>>(NULL)));
	APOD_CUDA_TRY(cudaDeviceSynchronize());
	return 0;
}

static int too_much_shared_memory(void)
{
	/* 16 MiB of dynamic shared memory: more than any SM has. */
	APOD_LAUNCH_TRY((touch_kernel<<<1, 32, 16u << 20>>>(NULL)));
	APOD_CUDA_TRY(cudaDeviceSynchronize());
	return 0;
}

static int no_such_device(void)
{
	int n = 0;
	APOD_CUDA_TRY(cudaGetDeviceCount(&n));
	APOD_CUDA_TRY(cudaSetDevice(n + 7));
	return 0;
}

extern "C" int apod_gpu_provoke(int which)
{
	switch (which) {
	case 0: return too_many_threads();
	case 1: return too_much_shared_memory();
	case 2: return no_such_device();
	}
	return apod_fail("apod_gpu_provoke: no failure number %d", which);
}
