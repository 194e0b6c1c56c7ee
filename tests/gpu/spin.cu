/*
 * spin.cu: a kernel that keeps the device busy for a given time, so that a
 * test can hold a timer to a known length of device work.
 */
#include "apod/cuda.h"
#include "spin.h"

static __device__ unsigned long long globaltimer_ns(void)
{
	unsigned long long t;
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
	return t;
}

static __global__ void spin_kernel(unsigned long long ns)
{
	unsigned long long t0 = globaltimer_ns();
	while (globaltimer_ns() - t0 < ns)
		__nanosleep(500);
}

extern "C" int apod_gpu_spin(cudaStream_t stream, double seconds)
{
	APOD_LAUNCH_TRY((spin_kernel<<<1, 1, 0, stream>>>((unsigned long long)(seconds * 1e9))));
	return 0;
}
