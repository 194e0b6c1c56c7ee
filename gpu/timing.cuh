/*
 * timing.cuh: how every GPU figure in apod is taken (apod bench and the
 * labs): CUDA events around the work on the stream it runs on (the legacy
 * stream unless a caller names another), one warm-up run first, then the
 * median of `reps` runs (the upper middle one for an even count), so that
 * a stray slow run (a clock ramping up, another process) moves nothing.
 * time_it starts each run on an idle device (the labs); time_queued queues
 * the work first (apod bench --kernels), see below.
 */
#ifndef APOD_GPU_TIMING_CUH
#define APOD_GPU_TIMING_CUH

#include <algorithm>
#include <vector>

#include "apod/cuda.h"
#include "cpu/harness/trace.h"

/* Median of the recorded times. */
static inline double median_ms(std::vector<float> &v)
{
	std::sort(v.begin(), v.end());
	return v.empty() ? 0 : v[v.size() / 2];
}

/* The two events time_it records between, destroyed on every way out of it. */
struct time_it_events {
	cudaEvent_t a = nullptr, b = nullptr;

	time_it_events() = default;
	time_it_events(const time_it_events &) = delete;
	time_it_events &operator=(const time_it_events &) = delete;
	~time_it_events()
	{
		if (a)
			cudaEventDestroy(a);
		if (b)
			cudaEventDestroy(b);
	}
};

/* Keeps the device busy for ns nanoseconds of its global timer: whatever
 * the host launches behind it meanwhile is queued by the time it ends. */
static __global__ void apod_spacer_kernel(unsigned long long ns)
{
	unsigned long long t0, t;
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
	do {
		__nanosleep(1000);
		asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
	} while (t - t0 < ns);
}

/* How long the spacer runs: far more than the host takes to launch a few
 * kernels, far less than it takes to notice. */
#define APOD_SPACER_NS 200000ull

template <typename F> static inline int time_it_impl(int reps, F f, double *ms, cudaStream_t s,
                                                     bool queued, double *busy_ms);

/* Run f once to warm up, then `reps` times between events on stream s.
 * Each repetition starts on an idle device, so the first event fires at
 * once and the time includes the host's latency to launch f's first
 * kernel: what a caller that launches and waits sees. */
template <typename F> static inline int time_it(int reps, F f, double *ms, cudaStream_t s = 0)
{
	return time_it_impl(reps, f, ms, s, false, nullptr);
}

/* The same, with f's work queued behind a spacer kernel before the first
 * event fires: the device's own time for f, without the launch latency;
 * what f costs inside a run whose device never waits for the host.  f
 * must not wait for the device (no synchronous copy), or it would wait
 * for the spacer.  Under `--trace` (trace.h) busy_ms, if given, receives
 * the mean of CUPTI's summed durations of f's work per run: like for like
 * with a traced run's busy time. */
template <typename F>
static inline int time_queued(int reps, F f, double *ms, cudaStream_t s = 0, double *busy_ms = nullptr)
{
	return time_it_impl(reps, f, ms, s, true, busy_ms);
}

template <typename F> static inline int time_it_impl(int reps, F f, double *ms, cudaStream_t s,
                                                     bool queued, double *busy_ms)
{
	double busy = 0, work = 0, other = 0;
	bool traced = busy_ms && apod_trace_on();
	time_it_events ev;
	cudaEvent_t &a = ev.a, &b = ev.b;
	std::vector<float> t;
	cudaError_t err;
	/* Null again after a failed create: the owner destroys only what was made. */
	if ((err = cudaEventCreate(&a)) != cudaSuccess) {
		a = nullptr;
		return apod_cuda_failed(err, "cudaEventCreate(&a)", __FILE__, __LINE__);
	}
	if ((err = cudaEventCreate(&b)) != cudaSuccess) {
		b = nullptr;
		return apod_cuda_failed(err, "cudaEventCreate(&b)", __FILE__, __LINE__);
	}
	if (f())
		return -1;
	APOD_CUDA_TRY(cudaDeviceSynchronize());
	/* The warm-up's records are not the runs'. */
	if (traced && apod_trace_collect(&busy, &work, 1, &other))
		return -1;
	busy = 0;
	for (int r = 0; r < reps; r++) {
		float x;
		if (queued)
			APOD_LAUNCH_TRY((apod_spacer_kernel<<<1, 1, 0, s>>>(APOD_SPACER_NS)));
		APOD_CUDA_TRY(cudaEventRecord(a, s));
		if (traced && apod_trace_enter(0))
			return -1;
		if (f()) {
			apod_trace_unwind();
			return -1;
		}
		if (traced && apod_trace_leave())
			return -1;
		APOD_CUDA_TRY(cudaEventRecord(b, s));
		APOD_CUDA_TRY(cudaEventSynchronize(b));
		APOD_CUDA_TRY(cudaEventElapsedTime(&x, a, b));
		t.push_back(x);
	}
	/* Destroyed here so that a failure is reported; the owner lets go of
	 * each event first, so that nothing is destroyed twice. */
	{
		cudaEvent_t ea = a, eb = b;
		a = b = nullptr;
		cudaError_t err_b;
		err = cudaEventDestroy(ea);
		err_b = cudaEventDestroy(eb);
		if (err != cudaSuccess)
			return apod_cuda_failed(err, "cudaEventDestroy(a)", __FILE__, __LINE__);
		if (err_b != cudaSuccess)
			return apod_cuda_failed(err_b, "cudaEventDestroy(b)", __FILE__, __LINE__);
	}
	*ms = median_ms(t);
	if (traced) {
		if (apod_trace_collect(&busy, &work, 1, &other))
			return -1;
		*busy_ms = 1e3 * busy / reps;
	}
	return 0;
}

#endif
