/*
 * main.c: the lookup example as a program of its own, built against the
 * installed apod library (see the Makefile beside it).  apod_main() gives
 * it the whole apod command line; try ./lookup --help.
 */
#include <stddef.h>

#include <apod/apod.h>

#include "lookup.h"

static const struct apod_workload *const workloads[] = { &lookup_workload, NULL };

static const struct apod_program program = {
	.name = "lookup",
	.about = "The apod example of a one-shot reduction: table lookups folded into a checksum.",
	.workloads = workloads,
};

int main(int argc, char **argv)
{
	return apod_main(argc, argv, &program);
}
