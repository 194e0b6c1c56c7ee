/*
 * lab.h: the guide's experiments, runnable on the user's own GPU.
 *
 * Every lab checks each of its kernel versions against a CPU reference
 * before it prints a single time; a version that fails is reported as
 * failed and the lab returns -1.  Times are CUDA-event medians after a
 * warm-up (gpu/timing.cuh).  Each lab adds its table to `out` as "rows".
 * The labs are listed once, in labs.def, and built from kit.cuh.
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

/* apod_lab_NAME for every lab in labs.def, the one list of them. */
#define LAB(name, about, size_means) \
	int apod_lab_##name(const struct apod_lab_opts *o, json_object *out);
#include "labs.def"
#undef LAB

#ifdef __cplusplus
}
#endif

#endif
