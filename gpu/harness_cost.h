/*
 * harness_cost.h: the device side of profiles/harness_cost, what timing a
 * GPU stage's phases costs the host and the device a step.
 */
#ifndef APOD_GPU_HARNESS_COST_H
#define APOD_GPU_HARNESS_COST_H

#include <json-c/json.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Print the table and add it to o as "gpu" (or "gpu_skipped": why, where
 * no CUDA device can be used, which is no failure); 0, or -1 after
 * apod_fail. */
int harness_cost_gpu(json_object *o);

#ifdef __cplusplus
}
#endif

#endif
