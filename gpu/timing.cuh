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

#include <vector>

#include "apod/cuda_ceilings.cuh"   /* apod_cuda_time, apod_cuda_events */
#include "apod/trace.h"

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

/* Run f once to warm up, then `reps` times between events on stream s.
 * Each repetition starts on an idle device, so the first event fires at
 * once and the time includes the host's latency to launch f's first
 * kernel: what a caller that launches and waits sees.  The installed
 * header's timer, the one a user's port measures its ceilings with. */
template <typename F> static inline int time_it(int reps, F f, double *ms, cudaStream_t s = 0)
{
	return apod_cuda_time(reps, f, ms, s);
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
	double busy = 0, work = 0, other = 0;
	bool traced = busy_ms && apod_trace_on();
	apod_cuda_events ev;
	cudaEvent_t &a = ev.a, &b = ev.b;
	std::vector<float> t;
	if (ev.create())
		return -1;
	if (f())
		return -1;
	APOD_CUDA_TRY(cudaDeviceSynchronize());
	/* The warm-up's records are not the runs'. */
	if (traced && apod_trace_collect(&busy, &work, 1, &other))
		return -1;
	busy = 0;
	for (int r = 0; r < reps; r++) {
		float x;
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
	if (ev.destroy())
		return -1;
	*ms = apod_cuda_median_ms(t);
	if (traced) {
		if (apod_trace_collect(&busy, &work, 1, &other))
			return -1;
		*busy_ms = 1e3 * busy / reps;
	}
	return 0;
}

#endif
