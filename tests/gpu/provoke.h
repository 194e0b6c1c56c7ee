/*
 * provoke.h: real CUDA failures on purpose, for tests/check_gpu.c only
 * (tests/gpu/provoke.cu is linked into that test, not into the library).
 */
#ifndef APOD_GPU_PROVOKE_H
#define APOD_GPU_PROVOKE_H

#ifdef __cplusplus
extern "C" {
#endif

/* Provoke a real failure (0: too many threads a block, 1: too much shared
 * memory, 2: a device that does not exist); -1 after apod_fail. */
int apod_gpu_provoke(int which);

#ifdef __cplusplus
}
#endif

#endif
