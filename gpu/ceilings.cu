/*
 * ceilings.cu: what the device can do, measured for `apod ceilings`: the
 * copy kernel every bandwidth figure is held against (copy4.cuh), the FP32
 * and FP64 FMA chains of the ilp lab (fma_peak.cuh), the special-function
 * unit (rsqrt.approx: one MUFU instruction, the unit exp2, sin, cos and lg2
 * run on too), an empty kernel's launch, and a large pinned buffer copied
 * both ways.  Each is checked before it is timed; GPU times are the median
 * of REPS after a warm-up (timing.cuh), host-timed ones likewise.
 */
#include <stdio.h>
#include <string.h>

#include "apod/ceilings.h"
#include "cpu/harness/ceilings.h"
#include "copy4.cuh"
#include "apod/cuda.h"
#include "device.h"
#include "fma_peak.cuh"
#include "gpu_ceilings.h"
#include "gpu/labs/kit.cuh"
#include "cpu/harness/timer.h"

#define REPS 20
#define COPY_BYTES ((size_t)512 << 20)   /* 10x the H200's L2, the devices lab's default */
#define PCIE_BYTES ((size_t)256 << 20)   /* where a pinned copy's rate has long levelled off */
#define SFU_ILP 8
#define SFU_PASS 64                      /* rsqrts per thread per pass */
#define LAUNCHES 1000                    /* back-to-back launches per timed run */

static __device__ __forceinline__ float rsqrt_approx(float x)
{
	float y;
	asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
	return y;
}

/* SFU_ILP independent chains x <- 1/sqrt(x) a thread: the fixed point is 1,
 * which every chain from a positive start reaches (the map halves the
 * distance in the exponent each time). */
static __global__ void __launch_bounds__(FMA_PEAK_BLOCK) rsqrt_chains(const float *__restrict__ x0,
                                                                      float *__restrict__ x, int passes)
{
	const int threads = gridDim.x * blockDim.x, t = blockIdx.x * blockDim.x + threadIdx.x;
	float v[SFU_ILP];
#pragma unroll
	for (int j = 0; j < SFU_ILP; j++)
		v[j] = x0[j * threads + t];
#pragma unroll 1
	for (int p = 0; p < passes; p++) {
#pragma unroll
		for (int s = 0; s < SFU_PASS / SFU_ILP; s++) {
#pragma unroll
			for (int j = 0; j < SFU_ILP; j++)
				v[j] = rsqrt_approx(v[j]);
		}
	}
#pragma unroll
	for (int j = 0; j < SFU_ILP; j++)
		x[j * threads + t] = v[j];
}

static __global__ void empty_kernel(void) {}

/* rsqrt op/s, every SM full; checked: every chain ends at its fixed point 1. */
static int special_rate(double *ops)
{
	const int passes = 1 << 12;
	int dev, sms, per_sm, blocks, threads;
	dev_array<float> d_x0, d_x;
	double ms = 0;
	APOD_CUDA_TRY(cudaGetDevice(&dev));
	APOD_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
	APOD_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, rsqrt_chains, FMA_PEAK_BLOCK, 0));
	blocks = sms * per_sm;
	threads = blocks * FMA_PEAK_BLOCK;
	if (d_x0.alloc((size_t)threads * SFU_ILP) || d_x.alloc((size_t)threads * SFU_ILP))
		return -1;
	{
		std::vector<float> h(d_x0.n);
		for (size_t e = 0; e < h.size(); e++)
			h[e] = 0.5f + (float)(e % 1024) / 256.0f;   /* 0.5 to 4.5 */
		APOD_CUDA_TRY(cudaMemcpy(d_x0.p, h.data(), d_x0.bytes(), cudaMemcpyHostToDevice));
		APOD_CUDA_TRY(cudaMemset(d_x.p, 0, d_x.bytes()));
		APOD_LAUNCH_TRY((rsqrt_chains<<<blocks, FMA_PEAK_BLOCK>>>(d_x0.p, d_x.p, passes)));
		APOD_CUDA_TRY(cudaMemcpy(h.data(), d_x.p, d_x.bytes(), cudaMemcpyDeviceToHost));
		for (size_t e = 0; e < h.size(); e++)
			if (!(fabsf(h[e] - 1.0f) < 1e-5f))
				return apod_fail("special-function ceiling: rsqrt chain %zu ended at %g, not 1",
				                 e, h[e]);
	}
	if (time_it(REPS, [&] { rsqrt_chains<<<blocks, FMA_PEAK_BLOCK>>>(d_x0.p, d_x.p, passes);
	                        cudaError_t e = cudaGetLastError();
	                        return e != cudaSuccess ? apod_cuda_failed(e, "rsqrt_chains<<<>>>", __FILE__,
	                                                                 __LINE__) : 0; }, &ms))
		return -1;
	*ops = (double)threads * passes * SFU_PASS / (ms * 1e-3);
	return 0;
}

static double median_s(std::vector<double> &v)
{
	std::sort(v.begin(), v.end());
	return v[v.size() / 2];
}

/* An empty kernel: launch to completion seen by the host, and the interval
 * between launches queued back to back, in seconds (host clock). */
static int launch_times(double *latency, double *interval)
{
	std::vector<double> one, many;
	APOD_LAUNCH_TRY((empty_kernel<<<1, 1>>>()));
	APOD_CUDA_TRY(cudaDeviceSynchronize());
	for (int r = 0; r < 10 * REPS + 1; r++) {
		double t0 = apod_now();
		APOD_LAUNCH_TRY((empty_kernel<<<1, 1>>>()));
		APOD_CUDA_TRY(cudaStreamSynchronize(0));
		one.push_back(apod_now() - t0);
	}
	for (int r = 0; r < REPS + 1; r++) {
		double t0 = apod_now();
		for (int i = 0; i < LAUNCHES; i++)
			APOD_LAUNCH_TRY((empty_kernel<<<1, 1>>>()));
		APOD_CUDA_TRY(cudaStreamSynchronize(0));
		if (r > 0)
			many.push_back((apod_now() - t0) / LAUNCHES);
	}
	*latency = median_s(one);
	*interval = median_s(many);
	return 0;
}

/* A pinned buffer of PCIE_BYTES to the device and back, checked, then each
 * direction timed alone, in bytes/s. */
static int pcie(double *h2d, double *d2h)
{
	host_array<unsigned char> h, back;
	dev_array<unsigned char> d;
	double ms = 0;
	if (h.alloc_pinned(PCIE_BYTES) || back.alloc_pinned(PCIE_BYTES) || d.alloc(PCIE_BYTES))
		return -1;
	for (size_t i = 0; i < PCIE_BYTES; i++)
		h.p[i] = (unsigned char)((i * 2654435761u) >> 13);
	memset(back.p, 0, PCIE_BYTES);
	APOD_CUDA_TRY(cudaMemcpy(d.p, h.p, PCIE_BYTES, cudaMemcpyHostToDevice));
	APOD_CUDA_TRY(cudaMemcpy(back.p, d.p, PCIE_BYTES, cudaMemcpyDeviceToHost));
	if (memcmp(h.p, back.p, PCIE_BYTES))
		return apod_fail("PCIe ceiling: the pinned buffer did not come back as it went");
	for (int dir = 0; dir < 2; dir++) {
		if (time_it(REPS, [&] {
			    cudaError_t e = dir ? cudaMemcpyAsync(back.p, d.p, PCIE_BYTES, cudaMemcpyDeviceToHost)
			                        : cudaMemcpyAsync(d.p, h.p, PCIE_BYTES, cudaMemcpyHostToDevice);
			    return e != cudaSuccess ? apod_cuda_failed(e, "cudaMemcpyAsync (pinned)", __FILE__,
			                                             __LINE__) : 0; }, &ms))
			return -1;
		*(dir ? d2h : h2d) = PCIE_BYTES / (ms * 1e-3);
	}
	return 0;
}

static int measure_device(struct apod_ceilings *c)
{
	struct apod_ceiling *dev = &c->r[APOD_CEIL_DEVICE], *up = &c->r[APOD_CEIL_H2D],
	                    *down = &c->r[APOD_CEIL_D2H];
	double gbs = 0, g32 = 0, g64 = 0;
	if (copy4_ceiling_gbs(COPY_BYTES, REPS, &gbs) || fma_peak_gflops_of<float>(REPS, &g32) ||
	    fma_peak_gflops_of<double>(REPS, &g64) || special_rate(&dev->special) ||
	    launch_times(&dev->launch, &dev->launch_interval) || pcie(&up->bandwidth, &down->bandwidth))
		return -1;
	dev->bandwidth = gbs * 1e9;
	dev->fp32 = g32 * 1e9;
	dev->fp64 = g64 * 1e9;
	dev->measured = up->measured = down->measured = 1;
	return 0;
}

extern "C" int apod_gpu_ceilings(struct apod_ceilings *c, int measure)
{
	char why[256];
	int dev = 0;
	cudaDeviceProp p;
	if (!apod_gpu_available(why, sizeof why)) {
		apod_ceilings_no_device(c, why);
		return 0;
	}
	APOD_CUDA_TRY(cudaGetDevice(&dev));
	APOD_CUDA_TRY(cudaGetDeviceProperties(&p, dev));
	snprintf(c->device, sizeof c->device, "%s", p.name);
	for (int i = 0; i < 16; i++)
		snprintf(c->device_id + 2 * i, sizeof c->device_id - 2 * i, "%02x",
		         (unsigned char)p.uuid.bytes[i]);
	for (int k = APOD_CEIL_DEVICE; k < APOD_CEIL_COUNT; k++)
		memset(&c->r[k], 0, sizeof c->r[k]);
	return measure ? measure_device(c) : 0;
}
