/*
 * gpu_ceilings.h: the device's side of `apod ceilings` (apod/ceilings.h),
 * the program's `ceilings` hook (apod/apod.h).
 */
#ifndef APOD_GPU_CEILINGS_H
#define APOD_GPU_CEILINGS_H

#ifdef __cplusplus
extern "C" {
#endif

struct apod_ceilings;

/* Name the current device in c (measure 0), or also measure its copy
 * bandwidth, FP32 and FP64 FMA, rsqrt and launch latency, and pinned
 * copies both ways (measure 1).  No usable device: 0, every device
 * resource's why set.  -1 with apod_fail on a CUDA error. */
int apod_gpu_ceilings(struct apod_ceilings *c, int measure);

#ifdef __cplusplus
}
#endif

#endif
