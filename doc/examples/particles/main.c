/*
 * main.c: the particles example as a program of its own, built against the
 * installed apod library (see the Makefile beside it).
 *
 * The workload's sources are the ones the apod program is built from
 * (cpu/particles/, shared/particles/update.h); this file is all a program
 * of your own adds: a struct apod_program listing its workloads, handed to
 * apod_main(), which provides the whole command line (the table, run,
 * verify, stages, bench, workloads; try ./particles --help).
 */
#include <stddef.h>

#include <apod/apod.h>

#include "cpu/particles/particles_workload.h"

static const struct apod_workload *const workloads[] = { &particles_workload, NULL };

static const struct apod_program program = {
	.name = "particles",
	.about = "The apod example: particles in harmonic wells, ported serial -> OpenMP (-> GPU).",
	.workloads = workloads,
};

int main(int argc, char **argv)
{
	return apod_main(argc, argv, &program);
}
