/*
 * spin.h: device work of a known length, a fixture for the tests of the
 * device timers (tests/check_gpu.c) that profiles/harness_cost borrows to
 * give its device steps a known length; spin.cu is linked into those two
 * alone, never into apod or its library.
 */
#ifndef APOD_GPU_SPIN_H
#define APOD_GPU_SPIN_H

#include <cuda_runtime.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Enqueue on stream a kernel that runs for `seconds` of the device's
 * clock; 0, or -1 after apod_fail. */
int apod_gpu_spin(cudaStream_t stream, double seconds);

#ifdef __cplusplus
}
#endif

#endif
