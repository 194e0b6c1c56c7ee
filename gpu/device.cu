/*
 * device.cu: is there a GPU, can this binary run on it, and is it big enough?
 */
#include <stdio.h>

#include "cuda_check.h"
#include "device.h"
#include "gpu_info.h"

int apod_cuda_fail(cudaError_t err, const char *call, const char *file, int line)
{
	return apod_fail("%s failed at %s:%d: %s: %s", call, file, line, cudaGetErrorName(err),
	                 cudaGetErrorString(err));
}

/* A kernel that exists only so that cudaFuncGetAttributes can tell whether
 * this binary holds code (SASS or PTX) the device can run. */
static __global__ void probe_kernel(void) {}

static void version_text(int v, char *buf, size_t len)
{
	snprintf(buf, len, "%d.%d", v / 1000, (v % 1000) / 10);
}

extern "C" int apod_gpu_available(char *why, size_t len)
{
	int n = 0, drv = 0, rt = 0, dev = 0;
	char d[16], r[16];
	cudaError_t err = cudaGetDeviceCount(&n);
	cudaFuncAttributes attr;
	cudaDeviceProp prop;

	cudaDriverGetVersion(&drv);
	cudaRuntimeGetVersion(&rt);
	version_text(drv, d, sizeof d);
	version_text(rt, r, sizeof r);
	if (drv == 0) {
		snprintf(why, len, "no NVIDIA driver is installed, so no CUDA device can be used");
		return 0;
	}
	if (err == cudaErrorInsufficientDriver || (err == cudaSuccess && drv < rt)) {
		snprintf(why, len, "the NVIDIA driver supports CUDA %s, but this program's runtime "
		         "needs CUDA %s or newer: update the driver", d, r);
		return 0;
	}
	if (err == cudaErrorNoDevice || (err == cudaSuccess && n == 0)) {
		snprintf(why, len, "no CUDA device found (driver CUDA %s)", drv ? d : "not installed");
		return 0;
	}
	if (err != cudaSuccess) {
		snprintf(why, len, "cannot use the GPU: %s: %s", cudaGetErrorName(err),
		         cudaGetErrorString(err));
		return 0;
	}
	if (cudaGetDevice(&dev) != cudaSuccess || cudaGetDeviceProperties(&prop, dev) != cudaSuccess) {
		snprintf(why, len, "cannot read the properties of device %d", dev);
		return 0;
	}
	err = cudaFuncGetAttributes(&attr, probe_kernel);
	if (err == cudaErrorNoKernelImageForDevice || err == cudaErrorInvalidDeviceFunction) {
		snprintf(why, len, "this binary carries no code for %s (sm_%d%d); rebuild with "
		         "--with-cuda-arch=%d%d", prop.name, prop.major, prop.minor, prop.major, prop.minor);
		return 0;
	}
	/* Create the context now, so that its cost (a few hundred ms) is not
	 * charged to the first phase that touches the device. */
	err = err == cudaSuccess ? cudaFree(0) : err;
	if (err != cudaSuccess) {
		snprintf(why, len, "cannot use %s: %s: %s", prop.name, cudaGetErrorName(err),
		         cudaGetErrorString(err));
		return 0;
	}
	return 1;
}

extern "C" int apod_gpu_require(const char *stage, size_t bytes)
{
	size_t free_b = 0, total_b = 0;
	CUDA_TRY(cudaMemGetInfo(&free_b, &total_b));
	if (bytes > free_b)
		return apod_usage_fail("%s: the problem needs %zu bytes of device memory, but only %zu "
		                       "of the device's %zu are free", stage, bytes, free_b, total_b);
	return 0;
}

extern "C" int apod_gpu_print_info(FILE *f)
{
	int n = 0, drv = 0, rt = 0, current = 0;
	char d[16], r[16];
	cudaError_t err;
	cudaDriverGetVersion(&drv);
	cudaRuntimeGetVersion(&rt);
	version_text(drv, d, sizeof d);
	version_text(rt, r, sizeof r);
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
		err = cudaFuncGetAttributes(&attr, probe_kernel);
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
