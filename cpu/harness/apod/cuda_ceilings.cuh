/*
 * apod/cuda_ceilings.cuh: what the GPU is and what it can do, for a GPU port
 * of your own: the two hooks of struct apod_program (apod/apod.h) that make
 * `info` name the device and give your GPU stage a speed of light in the
 * table.  In one .cu file of the program:
 *
 *     #include <apod/cuda_ceilings.cuh>
 *     extern "C" int my_device_info(FILE *f) { return apod_cuda_device_info(f); }
 *     extern "C" int my_ceilings(struct apod_ceilings *c, int measure)
 *     {
 *             return apod_cuda_ceilings(c, measure);
 *     }
 *
 * and in main.c, .device_info = my_device_info, .ceilings = my_ceilings.
 *
 * The measurements are apod's own (`apod ceilings` calls these functions):
 *   copy       a grid-stride copy of 16-byte loads and stores, or
 *              cudaMemcpy device to device where that is faster, on
 *              buffers 10x a large L2; read + write counted
 *   FP32/FP64  8 independent FMA chains a thread on every SM, 2 flops each
 *   special    rsqrt.approx chains (one MUFU instruction: the unit exp2,
 *              sin, cos and lg2 run on too)
 *   launch     an empty kernel, launch to the host seeing it done, and the
 *              interval between launches queued back to back
 *   PCIe       a large pinned buffer, each direction alone
 * Each result is checked before anything is timed (a copy that does not
 * reproduce its input, a chain that ends off its exact value, is a failure,
 * not a figure); GPU times are the median of the repetitions after a
 * warm-up, between CUDA events; host-timed ones likewise.
 *
 * Everything here is static (inline), compiled into your file by nvcc, as
 * <apod/cuda.h> is: include it in one .cu file.  Failures follow the
 * harness's convention: apod_fail() says why and the function returns -1.
 */
#ifndef APOD_CUDA_CEILINGS_CUH
#define APOD_CUDA_CEILINGS_CUH

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include "ceilings.h"
#include "cuda.h"

#define APOD_CUDA_REPS 20
#define APOD_CUDA_COPY_BYTES ((size_t)512 << 20)  /* 10x the H200's L2 */
#define APOD_CUDA_PCIE_BYTES ((size_t)256 << 20)  /* where a pinned copy's rate has levelled off */
#define APOD_CUDA_FMA_BLOCK 128   /* four warps: one for each scheduler of a Volta-to-Hopper SM */
#define APOD_CUDA_PASS_FMAS 64    /* FMAs (or rsqrts) per thread in one pass, whatever the ILP */
#define APOD_CUDA_ILP 8           /* independent chains a thread: the ilp lab's best on Volta to Hopper */
#define APOD_CUDA_LAUNCHES 1000   /* back-to-back launches per timed run */

/* ---- timing ---- */

/* Median of the recorded times (the upper middle one for an even count). */
static inline double apod_cuda_median_ms(std::vector<float> &v)
{
	std::sort(v.begin(), v.end());
	return v.empty() ? 0 : v[v.size() / 2];
}

/* Two events, destroyed on every way out of the function that owns them. */
struct apod_cuda_events {
	cudaEvent_t a = nullptr, b = nullptr;

	apod_cuda_events() = default;
	apod_cuda_events(const apod_cuda_events &) = delete;
	apod_cuda_events &operator=(const apod_cuda_events &) = delete;
	~apod_cuda_events()
	{
		if (a)
			cudaEventDestroy(a);
		if (b)
			cudaEventDestroy(b);
	}

	/* Both made, or -1 with the failure recorded (and the failed one null). */
	int create()
	{
		cudaError_t err;
		if ((err = cudaEventCreate(&a)) != cudaSuccess) {
			a = nullptr;
			return apod_cuda_failed(err, "cudaEventCreate(&a)", __FILE__, __LINE__);
		}
		if ((err = cudaEventCreate(&b)) != cudaSuccess) {
			b = nullptr;
			return apod_cuda_failed(err, "cudaEventCreate(&b)", __FILE__, __LINE__);
		}
		return 0;
	}

	/* Destroyed here so that a failure is reported; let go of first, so
	 * that nothing is destroyed twice. */
	int destroy()
	{
		cudaEvent_t ea = a, eb = b;
		cudaError_t err_a, err_b;
		a = b = nullptr;
		err_a = cudaEventDestroy(ea);
		err_b = cudaEventDestroy(eb);
		if (err_a != cudaSuccess)
			return apod_cuda_failed(err_a, "cudaEventDestroy(a)", __FILE__, __LINE__);
		if (err_b != cudaSuccess)
			return apod_cuda_failed(err_b, "cudaEventDestroy(b)", __FILE__, __LINE__);
		return 0;
	}
};

/* Run f once to warm up, then `reps` times between events on stream s,
 * each from an idle device (so the time includes the host's latency to
 * launch f's first kernel: what a caller that launches and waits sees);
 * *ms is the median.  f returns 0, or non-zero after recording why. */
template <typename F> static inline int apod_cuda_time(int reps, F f, double *ms, cudaStream_t s = 0)
{
	apod_cuda_events ev;
	std::vector<float> t;
	if (ev.create() || f())
		return -1;
	APOD_CUDA_TRY(cudaDeviceSynchronize());
	for (int r = 0; r < reps; r++) {
		float x;
		APOD_CUDA_TRY(cudaEventRecord(ev.a, s));
		if (f())
			return -1;
		APOD_CUDA_TRY(cudaEventRecord(ev.b, s));
		APOD_CUDA_TRY(cudaEventSynchronize(ev.b));
		APOD_CUDA_TRY(cudaEventElapsedTime(&x, ev.a, ev.b));
		t.push_back(x);
	}
	if (ev.destroy())
		return -1;
	*ms = apod_cuda_median_ms(t);
	return 0;
}

/* The host's clock, in seconds. */
static inline double apod_cuda_host_s(void)
{
	return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/* ---- memory the measurements own ---- */

/* n values on the device (or pinned on the host), given back on every way
 * out of the function that owns them. */
template <typename T> struct apod_cuda_buffer {
	T *p = nullptr;
	size_t n = 0;
	bool pinned = false;

	apod_cuda_buffer() = default;
	apod_cuda_buffer(const apod_cuda_buffer &) = delete;
	apod_cuda_buffer &operator=(const apod_cuda_buffer &) = delete;
	~apod_cuda_buffer()
	{
		if (p && pinned)
			cudaFreeHost(p);
		else if (p)
			cudaFree(p);
	}
	size_t bytes() const { return n * sizeof(T); }

	int alloc(size_t count)
	{
		APOD_CUDA_TRY(cudaMalloc((void **)&p, count * sizeof(T)));
		n = count;
		return 0;
	}
	int alloc_pinned(size_t count)
	{
		APOD_CUDA_TRY(cudaMallocHost((void **)&p, count * sizeof(T)));
		n = count;
		pinned = true;
		return 0;
	}
	/* Given back here so that a failure is reported; let go of first, so
	 * that nothing is freed twice. */
	int release()
	{
		T *q = p;
		p = nullptr;
		if (q && pinned)
			APOD_CUDA_TRY(cudaFreeHost(q));
		else if (q)
			APOD_CUDA_TRY(cudaFree(q));
		return 0;
	}
};

/* The current device's multiprocessors. */
static inline int apod_cuda_sms(int *sms)
{
	int dev = 0;
	APOD_CUDA_TRY(cudaGetDevice(&dev));
	APOD_CUDA_TRY(cudaDeviceGetAttribute(sms, cudaDevAttrMultiProcessorCount, dev));
	return 0;
}

/* ---- copy bandwidth ---- */

/* The copy every bandwidth figure in apod is held against: the simplest
 * kernel that reaches the memory system's practical ceiling. */
static __global__ void apod_cuda_copy_kernel(const float4 *__restrict__ in, float4 *__restrict__ out,
                                             size_t n4)
{
	for (size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x; k < n4;
	     k += (size_t)gridDim.x * blockDim.x)
		out[k] = in[k];
}

/*
 * The memory system's copy ceiling on `bytes` (read + write counted), in
 * GB/s: the faster of the copy kernel and cudaMemcpy device to device on
 * the same buffers, after checking that the kernel reproduces its input.
 * Eight blocks of 256 threads per multiprocessor: enough loads in flight
 * for a single pass to saturate memory (one wave of 4 x SMs blocks of 512
 * ran 3-9% below cudaMemcpy on the H200).
 */
static inline int apod_cuda_copy_gbs(size_t bytes, int reps, double *gbs)
{
	size_t n4 = bytes / 16, nbytes = n4 * 16;
	apod_cuda_buffer<float4> in, out;
	int sms = 0, blocks;
	double ms = 0, ms_memcpy = 0;

	if (n4 == 0)
		return apod_fail("copy ceiling: %zu bytes is too small to measure", bytes);
	if (apod_cuda_sms(&sms) || in.alloc(n4) || out.alloc(n4))
		return -1;
	blocks = 8 * 4 * sms;
	{
		std::vector<unsigned char> h(nbytes), back(nbytes);
		for (size_t i = 0; i < nbytes; i++)
			h[i] = (unsigned char)((i * 2654435761u) >> 11);
		APOD_CUDA_TRY(cudaMemcpy(in.p, h.data(), nbytes, cudaMemcpyHostToDevice));
		APOD_CUDA_TRY(cudaMemset(out.p, 0, nbytes));
		APOD_LAUNCH_TRY((apod_cuda_copy_kernel<<<blocks, 256>>>(in.p, out.p, n4)));
		APOD_CUDA_TRY(cudaMemcpy(back.data(), out.p, nbytes, cudaMemcpyDeviceToHost));
		if (memcmp(h.data(), back.data(), nbytes))
			return apod_fail("copy ceiling: the copy kernel did not reproduce its input");
	}
	if (apod_cuda_time(reps, [&] {
		    APOD_LAUNCH_TRY((apod_cuda_copy_kernel<<<blocks, 256>>>(in.p, out.p, n4)));
		    return 0; }, &ms) ||
	    apod_cuda_time(reps, [&] {
		    APOD_CUDA_TRY(cudaMemcpyAsync(out.p, in.p, nbytes, cudaMemcpyDeviceToDevice));
		    return 0; }, &ms_memcpy) ||
	    in.release() || out.release())
		return -1;
	*gbs = 2.0 * nbytes / (std::min(ms, ms_memcpy) * 1e-3) / 1e9;
	return 0;
}

/* ---- FMA throughput ---- */

static __device__ __forceinline__ float apod_cuda_fma_rn(float a, float b, float c)
{
	return __fmaf_rn(a, b, c);
}

static __device__ __forceinline__ double apod_cuda_fma_rn(double a, double b, double c)
{
	return __fma_rn(a, b, c);
}

/* One step of an FMA chain, x <- fma(x, 2, 1), x <- fma(x, 0.5, -0.25):
 * on quarter-integers every result is exact, so a chain of L FMAs from x0
 * ends at exactly x0 + L/8. */
template <typename T> struct apod_cuda_fma_step {
	static constexpr int ops = 2;
	static __device__ __forceinline__ T apply(T v)
	{
		v = apod_cuda_fma_rn(v, (T)2, (T)1);
		return apod_cuda_fma_rn(v, (T)0.5, (T)-0.25);
	}
};

/* ILP independent chains a thread of Step (an FMA chain by default).  One
 * pass is the same 64 operations and the same loop overhead for every ILP;
 * only how they depend on each other changes (apod's ilp lab runs ILP 1 to
 * 8). */
template <int ILP, typename T = float, typename Step = apod_cuda_fma_step<T>>
static __global__ void __launch_bounds__(APOD_CUDA_FMA_BLOCK)
	apod_cuda_chains(const T *__restrict__ x0, T *__restrict__ x, int passes)
{
	const int threads = gridDim.x * blockDim.x, t = blockIdx.x * blockDim.x + threadIdx.x;
	T v[ILP];
#pragma unroll
	for (int j = 0; j < ILP; j++)
		v[j] = x0[j * threads + t];
#pragma unroll 1
	for (int p = 0; p < passes; p++) {
#pragma unroll
		for (int s = 0; s < APOD_CUDA_PASS_FMAS / (Step::ops * ILP); s++) {
#pragma unroll
			for (int j = 0; j < ILP; j++)
				v[j] = Step::apply(v[j]);
		}
	}
#pragma unroll
	for (int j = 0; j < ILP; j++)
		x[j * threads + t] = v[j];
}

/* The FMA peak of T (float or double), in GFLOP/s (2 flops an FMA): 8
 * chains a thread, every SM as full as it can be.  Checked first: every
 * chain must end at x0 + L/8. */
template <typename T> static inline int apod_cuda_fma_gflops(int reps, double *gflops)
{
	const int ILP = APOD_CUDA_ILP, fmas = 1 << 18, passes = fmas / APOD_CUDA_PASS_FMAS;
	int sms = 0, per_sm = 0, blocks, threads;
	apod_cuda_buffer<T> d_x0, d_x;
	double ms = 0;
	if (apod_cuda_sms(&sms))
		return -1;
	APOD_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, apod_cuda_chains<ILP, T>,
	                                                            APOD_CUDA_FMA_BLOCK, 0));
	blocks = sms * per_sm;
	threads = blocks * APOD_CUDA_FMA_BLOCK;
	if (d_x0.alloc((size_t)threads * ILP) || d_x.alloc((size_t)threads * ILP))
		return -1;
	{
		std::vector<T> h(d_x0.n), got(d_x0.n);
		for (size_t e = 0; e < h.size(); e++)
			h[e] = (T)(e % 4096) * (T)0.25 - (T)512;   /* quarter-integers, small */
		APOD_CUDA_TRY(cudaMemcpy(d_x0.p, h.data(), d_x0.bytes(), cudaMemcpyHostToDevice));
		APOD_LAUNCH_TRY((apod_cuda_chains<ILP, T><<<blocks, APOD_CUDA_FMA_BLOCK>>>(d_x0.p, d_x.p,
		                                                                              passes)));
		APOD_CUDA_TRY(cudaMemcpy(got.data(), d_x.p, d_x.bytes(), cudaMemcpyDeviceToHost));
		for (size_t e = 0; e < got.size(); e++)
			if (got[e] != h[e] + (T)(fmas / ILP / 8.0))
				return apod_fail("fma peak: chain %zu ended at %g, not %g", e, (double)got[e],
				                 h[e] + fmas / ILP / 8.0);
	}
	if (apod_cuda_time(reps, [&] {
		    APOD_LAUNCH_TRY((apod_cuda_chains<ILP, T><<<blocks, APOD_CUDA_FMA_BLOCK>>>(d_x0.p, d_x.p,
		                                                                                  passes)));
		    return 0; }, &ms) ||
	    d_x0.release() || d_x.release())
		return -1;
	*gflops = 2.0 * threads * (double)fmas / (ms * 1e-3) / 1e9;
	return 0;
}

/* ---- the special-function unit ---- */

static __device__ __forceinline__ float apod_cuda_rsqrt_approx(float x)
{
	float y;
	asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
	return y;
}

/* x <- 1/sqrt(x): the fixed point is 1, which every chain from a positive
 * start reaches (the map halves the distance in the exponent each time). */
struct apod_cuda_rsqrt_step {
	static constexpr int ops = 1;
	static __device__ __forceinline__ float apply(float v) { return apod_cuda_rsqrt_approx(v); }
};

/* rsqrt op/s, every SM full; checked: every chain ends at its fixed point 1. */
static inline int apod_cuda_special_rate(int reps, double *ops)
{
	const int passes = 1 << 12;
	void (*const chains)(const float *, float *, int) = apod_cuda_chains<APOD_CUDA_ILP, float, apod_cuda_rsqrt_step>;
	int sms = 0, per_sm = 0, blocks, threads;
	apod_cuda_buffer<float> d_x0, d_x;
	double ms = 0;
	if (apod_cuda_sms(&sms))
		return -1;
	APOD_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, chains, APOD_CUDA_FMA_BLOCK, 0));
	blocks = sms * per_sm;
	threads = blocks * APOD_CUDA_FMA_BLOCK;
	if (d_x0.alloc((size_t)threads * APOD_CUDA_ILP) || d_x.alloc((size_t)threads * APOD_CUDA_ILP))
		return -1;
	{
		std::vector<float> h(d_x0.n);
		for (size_t e = 0; e < h.size(); e++)
			h[e] = 0.5f + (float)(e % 1024) / 256.0f;   /* 0.5 to 4.5 */
		APOD_CUDA_TRY(cudaMemcpy(d_x0.p, h.data(), d_x0.bytes(), cudaMemcpyHostToDevice));
		APOD_CUDA_TRY(cudaMemset(d_x.p, 0, d_x.bytes()));
		APOD_LAUNCH_TRY((chains<<<blocks, APOD_CUDA_FMA_BLOCK>>>(d_x0.p, d_x.p, passes)));
		APOD_CUDA_TRY(cudaMemcpy(h.data(), d_x.p, d_x.bytes(), cudaMemcpyDeviceToHost));
		for (size_t e = 0; e < h.size(); e++)
			if (!(fabsf(h[e] - 1.0f) < 1e-5f))
				return apod_fail("special-function ceiling: rsqrt chain %zu ended at %g, not 1",
				                 e, h[e]);
	}
	if (apod_cuda_time(reps, [&] {
		    APOD_LAUNCH_TRY((chains<<<blocks, APOD_CUDA_FMA_BLOCK>>>(d_x0.p, d_x.p, passes)));
		    return 0; }, &ms) ||
	    d_x0.release() || d_x.release())
		return -1;
	*ops = (double)threads * passes * APOD_CUDA_PASS_FMAS / (ms * 1e-3);
	return 0;
}

/* ---- launch latency ---- */

static __global__ void apod_cuda_empty_kernel(void) {}

static inline double apod_cuda_median_s(std::vector<double> &v)
{
	std::sort(v.begin(), v.end());
	return v[v.size() / 2];
}

/* An empty kernel: launch to completion seen by the host, and the interval
 * between launches queued back to back, in seconds (host clock). */
static inline int apod_cuda_launch_times(int reps, double *latency, double *interval)
{
	std::vector<double> one, many;
	APOD_LAUNCH_TRY((apod_cuda_empty_kernel<<<1, 1>>>()));
	APOD_CUDA_TRY(cudaDeviceSynchronize());
	for (int r = 0; r < 10 * reps + 1; r++) {
		double t0 = apod_cuda_host_s();
		APOD_LAUNCH_TRY((apod_cuda_empty_kernel<<<1, 1>>>()));
		APOD_CUDA_TRY(cudaStreamSynchronize(0));
		one.push_back(apod_cuda_host_s() - t0);
	}
	for (int r = 0; r < reps + 1; r++) {
		double t0 = apod_cuda_host_s();
		for (int i = 0; i < APOD_CUDA_LAUNCHES; i++)
			APOD_LAUNCH_TRY((apod_cuda_empty_kernel<<<1, 1>>>()));
		APOD_CUDA_TRY(cudaStreamSynchronize(0));
		if (r > 0)   /* the first run warms up */
			many.push_back((apod_cuda_host_s() - t0) / APOD_CUDA_LAUNCHES);
	}
	*latency = apod_cuda_median_s(one);
	*interval = apod_cuda_median_s(many);
	return 0;
}

/* ---- PCIe ---- */

/* A pinned buffer of `bytes` to the device and back, checked, then each
 * direction timed alone, in bytes/s. */
static inline int apod_cuda_pcie(size_t bytes, int reps, double *h2d, double *d2h)
{
	apod_cuda_buffer<unsigned char> h, back, d;
	double ms = 0;
	if (h.alloc_pinned(bytes) || back.alloc_pinned(bytes) || d.alloc(bytes))
		return -1;
	for (size_t i = 0; i < bytes; i++)
		h.p[i] = (unsigned char)((i * 2654435761u) >> 13);
	memset(back.p, 0, bytes);
	APOD_CUDA_TRY(cudaMemcpy(d.p, h.p, bytes, cudaMemcpyHostToDevice));
	APOD_CUDA_TRY(cudaMemcpy(back.p, d.p, bytes, cudaMemcpyDeviceToHost));
	if (memcmp(h.p, back.p, bytes))
		return apod_fail("PCIe ceiling: the pinned buffer did not come back as it went");
	if (apod_cuda_time(reps, [&] {
		    APOD_CUDA_TRY(cudaMemcpyAsync(d.p, h.p, bytes, cudaMemcpyHostToDevice));
		    return 0; }, &ms))
		return -1;
	*h2d = bytes / (ms * 1e-3);
	if (apod_cuda_time(reps, [&] {
		    APOD_CUDA_TRY(cudaMemcpyAsync(back.p, d.p, bytes, cudaMemcpyDeviceToHost));
		    return 0; }, &ms) ||
	    h.release() || back.release() || d.release())
		return -1;
	*d2h = bytes / (ms * 1e-3);
	return 0;
}

/* ---- the program's hooks ---- */

/* Every device resource of c measured on the current device. */
static inline int apod_cuda_measure_device(struct apod_ceilings *c)
{
	struct apod_ceiling *dev = &c->r[APOD_CEIL_DEVICE], *up = &c->r[APOD_CEIL_H2D],
	                    *down = &c->r[APOD_CEIL_D2H];
	const int reps = APOD_CUDA_REPS;
	double gbs = 0, g32 = 0, g64 = 0;
	if (apod_cuda_copy_gbs(APOD_CUDA_COPY_BYTES, reps, &gbs) || apod_cuda_fma_gflops<float>(reps, &g32) ||
	    apod_cuda_fma_gflops<double>(reps, &g64) || apod_cuda_special_rate(reps, &dev->special) ||
	    apod_cuda_launch_times(reps, &dev->launch, &dev->launch_interval) ||
	    apod_cuda_pcie(APOD_CUDA_PCIE_BYTES, reps, &up->bandwidth, &down->bandwidth))
		return -1;
	dev->bandwidth = gbs * 1e9;
	dev->fp32 = g32 * 1e9;
	dev->fp64 = g64 * 1e9;
	dev->measured = up->measured = down->measured = 1;
	return 0;
}

/* apod_cuda_ceilings, with the advice for a binary that has no code for the
 * device as apod_cuda_usable takes it (apod names its configure option). */
static inline int apod_cuda_ceilings_advised(struct apod_ceilings *c, int measure, const char *rebuild)
{
	char why[512];   /* room for a device's name (256) and the advice; cut to 256 in c */
	int dev = 0;
	cudaDeviceProp p;
	if (!apod_cuda_usable(why, sizeof why, rebuild)) {
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
	return measure ? apod_cuda_measure_device(c) : 0;
}

/* The program's `ceilings` hook (apod/apod.h): with measure 0, name the
 * current device in c (its name and UUID name the cache file); with 1,
 * also measure the device and PCIe resources (a few seconds).  No usable
 * device: 0, every device resource's why saying what is missing.  -1 with
 * apod_fail on a CUDA error or a measurement that came out wrong. */
static inline int apod_cuda_ceilings(struct apod_ceilings *c, int measure)
{
	return apod_cuda_ceilings_advised(c, measure, "with nvcc -arch=sm_");
}

/* apod_cuda_device_info, with a note after the runtime's version (apod
 * says how it links the runtime). */
static inline int apod_cuda_device_info_noted(FILE *f, const char *runtime_note)
{
	int n = 0, drv = 0, rt = 0, current = 0;
	char d[16], r[16];
	cudaError_t err;
	/* A failure leaves the version 0, printed as "none"/"0.0": info
	 * describes what is there, and no device is not an error here. */
	cudaDriverGetVersion(&drv);
	cudaRuntimeGetVersion(&rt);
	apod_cuda_version_text(drv, d, sizeof d);
	apod_cuda_version_text(rt, r, sizeof r);
	fprintf(f, "CUDA: runtime %s%s, driver supports %s\n", r, runtime_note, drv ? d : "none");
	err = cudaGetDeviceCount(&n);
	if (err != cudaSuccess) {
		fprintf(f, "CUDA devices: none usable (%s: %s)\n", cudaGetErrorName(err),
		        cudaGetErrorString(err));
		return 0;
	}
	/* Each device is asked in turn; the caller's current device is restored. */
	APOD_CUDA_TRY(cudaGetDevice(&current));
	for (int i = 0; i < n; i++) {
		cudaDeviceProp p;
		int mem_khz = 0, bus = 0, sm_khz = 0;
		cudaFuncAttributes attr;
		if ((err = cudaGetDeviceProperties(&p, i)) != cudaSuccess) {
			fprintf(f, "device %d: cannot be read (%s: %s)\n", i, cudaGetErrorName(err),
			        cudaGetErrorString(err));
			continue;
		}
		APOD_CUDA_TRY(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, i));
		APOD_CUDA_TRY(cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, i));
		APOD_CUDA_TRY(cudaDeviceGetAttribute(&sm_khz, cudaDevAttrClockRate, i));
		APOD_CUDA_TRY(cudaSetDevice(i));
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
	APOD_CUDA_TRY(cudaSetDevice(current));
	return 0;
}

/* The program's `device_info` hook (apod/apod.h), what `info` prints under
 * the host: the CUDA runtime and driver versions, then every device (name,
 * compute capability, SMs and clock, memory and its theoretical bandwidth,
 * L2, shared memory and registers per SM) and whether the file that
 * includes this header carries code it can run.  No device is not an error:
 * it says so and returns 0. */
static inline int apod_cuda_device_info(FILE *f)
{
	return apod_cuda_device_info_noted(f, "");
}

#endif
