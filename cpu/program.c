/*
 * program.c: the apod program.  The harness's command line (apod_main) with
 * the workloads built into this tree, the labs, and the GPU's facts and
 * kernel measurements where CUDA was built in.  This is the one file that
 * names them all: everything below it is a layer that knows only its own.
 * The workloads are those of cpu/workloads.def, in its order.
 */
#include <stddef.h>
#include <stdio.h>

#include "apod/apod.h"
#include "cpu/labs/lab_cmd.h"
#if defined(HAVE_CUDA) && !defined(APOD_NO_GPU_STAGES)
#include "gpu/gpu_ceilings.h"
#include "gpu/gpu_info.h"
#endif

#if defined(HAVE_CUDA) && !defined(APOD_NO_GPU_STAGES)
static int device_info(FILE *f)
{
	return apod_gpu_print_info(f);
}
#define CEILINGS apod_gpu_ceilings
#else
static int device_info(FILE *f)
{
	fprintf(f, "CUDA: not in this build (configure --with-cuda)\n");
	return 0;
}
#define CEILINGS NULL
#endif

#define APOD_WORKLOAD(name) extern const struct apod_workload name##_workload;
#include "cpu/workloads.def"
#undef APOD_WORKLOAD

static const struct apod_workload *const workloads[] = {
#define APOD_WORKLOAD(name) &name##_workload,
#include "cpu/workloads.def"
#undef APOD_WORKLOAD
	NULL,
};

static const struct apod_command commands[] = {
	{ "lab", "the guide's experiments on this GPU, each verified then timed (lab lists them)",
	  apod_cmd_lab },
	{ NULL, NULL, NULL },
};

static const struct apod_program apod = {
	.name = "apod",
	.about = "The APOD porting workbench: serial programs ported to the GPU stage by stage,\n"
	         "verified and measured.",
	.workloads = workloads,
	.commands = commands,
	.device_info = device_info,
	.ceilings = CEILINGS,
};

int main(int argc, char **argv)
{
	return apod_main(argc, argv, &apod);
}
