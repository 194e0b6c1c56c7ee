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

/* Run f once to warm up, then `reps` times between events on stream s. */
template <typename F> static inline int time_it(int reps, F f, double *ms, cudaStream_t s = 0)
{
	cudaEvent_t a, b;
	std::vector<float> t;
	CUDA_TRY(cudaEventCreate(&a));
	CUDA_TRY(cudaEventCreate(&b));
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
	CUDA_TRY(cudaEventDestroy(a));
	CUDA_TRY(cudaEventDestroy(b));
	*ms = median_ms(t);
	return 0;
}

#endif
