/*
 * device.cu: is there a GPU, can this binary run on it, and is it big enough?
 */
#include <stdio.h>

#include "apod/cuda.h"
#include "device.h"
#include "gpu_info.h"

/* The checks a user's own stage gets from the installed <apod/cuda.h>,
 * written once there; apod's advice for a binary without code for the GPU
 * names its configure option. */
extern "C" int apod_gpu_available(char *why, size_t len)
{
	return apod_cuda_usable(why, len, "with configure --with-cuda-arch=");
}

extern "C" int apod_gpu_require(const char *stage, size_t bytes)
{
	return apod_cuda_require(stage, bytes);
}

extern "C" int apod_gpu_print_info(FILE *f)
{
	int n = 0, drv = 0, rt = 0, current = 0;
	char d[16], r[16];
	cudaError_t err;
	cudaDriverGetVersion(&drv);
	cudaRuntimeGetVersion(&rt);
	apod_cuda_version_text(drv, d, sizeof d);
	apod_cuda_version_text(rt, r, sizeof r);
	fprintf(f, "CUDA: runtime %s (linked statically), driver supports %s\n", r, drv ? d : "none");
	err = cudaGetDeviceCount(&n);
	if (err != cudaSuccess) {
		fprintf(f, "CUDA devices: none usable (%s: %s)\n", cudaGetErrorName(err),
		        cudaGetErrorString(err));
		return 0;
	}
	/* Each device is asked in turn; the caller's current device is restored. */
	cudaGetDevice(&current);
	for (int i = 0; i < n; i++) {
		cudaDeviceProp p;
		int mem_khz = 0, bus = 0, sm_khz = 0;
		cudaFuncAttributes attr;
		if (cudaGetDeviceProperties(&p, i) != cudaSuccess)
			continue;
		cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, i);
		cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, i);
		cudaDeviceGetAttribute(&sm_khz, cudaDevAttrClockRate, i);
		cudaSetDevice(i);
		err = cudaFuncGetAttributes(&attr, apod_cuda_probe_kernel);
		fprintf(f, "device %d: %s, compute capability %d.%d, %d SMs at %.0f MHz\n", i, p.name,
		        p.major, p.minor, p.multiProcessorCount, sm_khz / 1e3);
		fprintf(f, "  memory: %.1f GiB, %d-bit bus at %.0f MHz: theoretical bandwidth %.0f GB/s "
		        "(2 x clock x bus width / 8, double data rate)\n", p.totalGlobalMem / 1073741824.0,
		        bus, mem_khz / 1e3, 2.0 * mem_khz * 1e3 * (bus / 8) / 1e9);
		fprintf(f, "  L2 %d KiB, shared memory %zu KiB per SM, %d registers per SM, "
		        "max %d threads per SM\n", p.l2CacheSize / 1024,
		        p.sharedMemPerMultiprocessor / 1024, p.regsPerMultiprocessor,
		        p.maxThreadsPerMultiProcessor);
		if (err == cudaSuccess)
			fprintf(f, "  this binary: runs here as sm_%d (its PTX is compute_%d)\n",
			        attr.binaryVersion, attr.ptxVersion);
		else
			fprintf(f, "  this binary: NO code for this device (%s)\n", cudaGetErrorName(err));
	}
	cudaSetDevice(current);
	return 0;
}
