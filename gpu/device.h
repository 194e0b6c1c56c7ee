/*
 * device.h: finding, describing and sizing the GPU, shared by every stage.
 */
#ifndef APOD_GPU_DEVICE_H
#define APOD_GPU_DEVICE_H

#include <stddef.h>

/* apod's advice for a binary without code for the device (after "rebuild
 * it "), followed by the architecture's two digits. */
#define APOD_GPU_REBUILD "with configure --with-cuda-arch="

#ifdef __cplusplus
extern "C" {
#endif

/* 1 if a usable device is here (and its context is up), else 0 with the
 * reason: no device, a driver older than the runtime, no code in this
 * binary for the device's architecture. */
int apod_gpu_available(char *why, size_t len);
/* The same, as a GPU stage's `available` (struct apod_stage_ops). */
struct apod_stage;
int apod_gpu_stage_available(const struct apod_stage *s, char *why, size_t len);

/* Where a workload's kernel benchmark (its kernel_rows) starts: 0 where a
 * GPU is here; else 1 with "WORKLOAD's kernels need a GPU: why" recorded,
 * which `bench --kernels` reports and a whole `bench` notes. */
int apod_gpu_kernels_ready(const char *workload);

/* Fail with the bytes needed and free if `bytes` will not fit on the device. */
int apod_gpu_require(const char *stage, size_t bytes);

#ifdef __cplusplus
}
#endif

#endif
