/*
 * main.c: the miniweather example as a program of its own, built against
 * the installed apod library (see the Makefile beside it).  apod_main()
 * gives it the whole apod command line; try ./miniweather --help.
 */
#include <stddef.h>
#include <stdio.h>

#include <apod/apod.h>

#include "miniweather.h"

#ifdef MW_GPU
/* stage_gpu.cu: the GPU for `info`, and its measured ceilings for the
 * speed of light (<apod/cuda_ceilings.cuh>). */
struct apod_ceilings;
int mw_device_info(FILE *f);
int mw_ceilings(struct apod_ceilings *c, int measure);
#endif

static const struct apod_workload *const workloads[] = { &mw_workload, NULL };

static const struct apod_program program = {
	.name = "miniweather",
	.about = "The apod example of a program whose step runs its phases in an order of its "
	         "own: miniWeather, ported.",
	.workloads = workloads,
#ifdef MW_GPU
	.device_info = mw_device_info,
	.ceilings = mw_ceilings,
#endif
};

int main(int argc, char **argv)
{
	return apod_main(argc, argv, &program);
}
