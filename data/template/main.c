/*
 * main.c: the @NAME@ program.  apod_main() gives it the whole apod command
 * line for the workloads listed here: the APOD table (no arguments), run,
 * verify, stages, bench, assess, workloads; try ./@NAME@ --help.
 */
#include <stddef.h>

#include <apod/apod.h>

extern const struct apod_workload @NAME@_workload;

static const struct apod_workload *const workloads[] = { &@NAME@_workload, NULL };

static const struct apod_program program = {
	.name = "@NAME@",
	.about = "@NAME@, ported stage by stage with apod.",
	.workloads = workloads,
};

int main(int argc, char **argv)
{
	return apod_main(argc, argv, &program);
}
