/*
 * cuda_check.h: the one mechanism every CUDA call and launch goes through.
 *
 * CUDA_TRY names the call, the file and the line in the failure message
 * and returns -1 from the enclosing function, which is how every engine
 * operation reports failure (see apod/apod.h).  A launch is checked twice:
 * cudaGetLastError() right after it catches a bad configuration, and the
 * next synchronising call catches what the kernel itself did wrong.
 */
#ifndef APOD_GPU_CHECK_H
#define APOD_GPU_CHECK_H

#include <cuda_runtime.h>

#include "fail.h"

/* Record "CALL failed at FILE:LINE: cudaErrorX: description"; returns -1. */
int apod_cuda_fail(cudaError_t err, const char *call, const char *file, int line);

#define CUDA_TRY(call)                                                        \
	do {                                                                  \
		cudaError_t apod_err_ = (call);                               \
		if (apod_err_ != cudaSuccess)                                 \
			return apod_cuda_fail(apod_err_, #call, __FILE__, __LINE__); \
	} while (0)

/* After a kernel launch: was the launch itself accepted? */
#define LAUNCH_TRY(what) CUDA_TRY((what, cudaGetLastError()))

#endif
