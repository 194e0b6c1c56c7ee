/*
 * timing.cuh: how every GPU figure in apod is taken (apod bench and the
 * labs): CUDA events around the work on the stream it runs on (the legacy
 * stream unless a caller names another), one warm-up run first, then the
 * median of `reps` runs (the upper middle one for an even count), so that
 * a stray slow run (a clock ramping up, another process) moves nothing.
 */
#ifndef APOD_GPU_TIMING_CUH
#define APOD_GPU_TIMING_CUH

#include <algorithm>
#include <vector>

#include "cuda_check.h"

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

/* Run f once to warm up, then `reps` times between events on stream s. */
template <typename F> static inline int time_it(int reps, F f, double *ms, cudaStream_t s = 0)
{
	time_it_events ev;
	cudaEvent_t &a = ev.a, &b = ev.b;
	std::vector<float> t;
	cudaError_t err;
	/* Null again after a failed create: the owner destroys only what was made. */
	if ((err = cudaEventCreate(&a)) != cudaSuccess) {
		a = nullptr;
		return apod_cuda_fail(err, "cudaEventCreate(&a)", __FILE__, __LINE__);
	}
	if ((err = cudaEventCreate(&b)) != cudaSuccess) {
		b = nullptr;
		return apod_cuda_fail(err, "cudaEventCreate(&b)", __FILE__, __LINE__);
	}
	if (f())
		return -1;
	CUDA_TRY(cudaDeviceSynchronize());
	for (int r = 0; r < reps; r++) {
		float x;
		CUDA_TRY(cudaEventRecord(a, s));
		if (f())
			return -1;
		CUDA_TRY(cudaEventRecord(b, s));
		CUDA_TRY(cudaEventSynchronize(b));
		CUDA_TRY(cudaEventElapsedTime(&x, a, b));
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
			return apod_cuda_fail(err, "cudaEventDestroy(a)", __FILE__, __LINE__);
		if (err_b != cudaSuccess)
			return apod_cuda_fail(err_b, "cudaEventDestroy(b)", __FILE__, __LINE__);
	}
	*ms = median_ms(t);
	return 0;
}

#endif
