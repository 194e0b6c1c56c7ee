/*
 * main.c: the @NAME@ program.  apod_main() gives it the whole apod command
 * line for the workloads listed here: the APOD table (no arguments), run,
 * verify, stages, bench, assess, workloads; try ./@NAME@ --help.
 */
#include <stddef.h>

#include <apod/apod.h>

extern const struct apod_workload @NAME@_workload;
@GPU@/* stage_gpu.cu: the GPU for `info`, and its measured ceilings, which the
@GPU@ * table holds the gpu stage against (its speed of light). */
@GPU@int @NAME@_device_info(FILE *f);
@GPU@int @NAME@_ceilings(struct apod_ceilings *c, int measure);

static const struct apod_workload *const workloads[] = { &@NAME@_workload, NULL };

static const struct apod_program program = {
	.name = "@NAME@",
	.about = "@NAME@, ported stage by stage with apod.",
	.workloads = workloads,
@GPU@	.device_info = @NAME@_device_info,
@GPU@	.ceilings = @NAME@_ceilings,
};

int main(int argc, char **argv)
{
	return apod_main(argc, argv, &program);
}
