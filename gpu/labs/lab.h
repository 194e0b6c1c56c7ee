/*
 * lab.h: the guide's experiments, runnable on the user's own GPU.
 *
 * Every lab checks each of its kernel versions against a CPU reference
 * before it prints a single time; a version that fails is reported as
 * failed and the lab returns -1.  Times are CUDA-event medians after a
 * warm-up (gpu/timing.cuh).  Each lab adds its table to `out` as "rows".
 */
#ifndef APOD_LAB_H
#define APOD_LAB_H

#include <stddef.h>

#include <json-c/json.h>

#ifdef __cplusplus
extern "C" {
#endif

struct apod_lab_opts {
	size_t size;        /* the problem size, in the lab's own unit (0: its default) */
	int reps;           /* timed repetitions after the warm-up */
	int check;          /* verify every version on a small size, time nothing */
};

int apod_lab_devices(const struct apod_lab_opts *o, json_object *out);
int apod_lab_transfers(const struct apod_lab_opts *o, json_object *out);
int apod_lab_reduction(const struct apod_lab_opts *o, json_object *out);
int apod_lab_matmul(const struct apod_lab_opts *o, json_object *out);
int apod_lab_overlap(const struct apod_lab_opts *o, json_object *out);
int apod_lab_coalescing(const struct apod_lab_opts *o, json_object *out);
int apod_lab_transpose(const struct apod_lab_opts *o, json_object *out);
int apod_lab_occupancy(const struct apod_lab_opts *o, json_object *out);
int apod_lab_banks(const struct apod_lab_opts *o, json_object *out);
int apod_lab_instructions(const struct apod_lab_opts *o, json_object *out);
int apod_lab_divergence(const struct apod_lab_opts *o, json_object *out);
int apod_lab_ilp(const struct apod_lab_opts *o, json_object *out);
int apod_lab_l2persist(const struct apod_lab_opts *o, json_object *out);
int apod_lab_asynccopy(const struct apod_lab_opts *o, json_object *out);

#ifdef __cplusplus
}
#endif

#endif
