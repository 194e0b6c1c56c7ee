/*
 * main.c: the srad example as a program of its own, built against the
 * installed apod library (see the Makefile beside it).  apod_main() gives
 * it the whole apod command line; try ./srad --help.
 */
#include <stddef.h>
#include <stdio.h>

#include <apod/apod.h>

#include "srad.h"

#ifdef SRAD_GPU
/* stage_gpu.cu: the GPU for `info`, and its measured ceilings for the
 * speed of light (<apod/cuda_ceilings.cuh>). */
struct apod_ceilings;
int srad_device_info(FILE *f);
int srad_ceilings(struct apod_ceilings *c, int measure);
#endif

static const struct apod_workload *const workloads[] = { &srad_workload, NULL };

static const struct apod_program program = {
	.name = "srad",
	.about = "The apod example of a real multi-phase program: Rodinia's SRAD, ported.",
	.workloads = workloads,
#ifdef SRAD_GPU
	.device_info = srad_device_info,
	.ceilings = srad_ceilings,
#endif
};

int main(int argc, char **argv)
{
	return apod_main(argc, argv, &program);
}
