/*
 * main.c: the lookup example as a program of its own, built against the
 * installed apod library (see the Makefile beside it).  apod_main() gives
 * it the whole apod command line; try ./lookup --help.
 */
#include <stddef.h>
#include <stdio.h>

#include <apod/apod.h>

#include "lookup.h"

#ifdef LOOKUP_GPU
/* stage_gpu.cu: the GPU for `info`, and its measured ceilings for the
 * speed of light (<apod/cuda_ceilings.cuh>). */
struct apod_ceilings;
int lookup_device_info(FILE *f);
int lookup_ceilings(struct apod_ceilings *c, int measure);
#endif

static const struct apod_workload *const workloads[] = { &lookup_workload, NULL };

static const struct apod_program program = {
	.name = "lookup",
	.about = "The apod example of a one-shot reduction: table lookups folded into a checksum.",
	.workloads = workloads,
#ifdef LOOKUP_GPU
	.device_info = lookup_device_info,
	.ceilings = lookup_ceilings,
#endif
};

int main(int argc, char **argv)
{
	return apod_main(argc, argv, &program);
}
