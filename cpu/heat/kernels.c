/*
 * kernels.c: `apod bench --kernels` for heat in a build without its GPU
 * stages (cpu/kernels_hook.h); with them, gpu/heat/bench.cu defines the
 * workload's kernel_rows member.
 */
#include "cpu/kernels_hook.h"
#include "heat_stage.h"

APOD_KERNELS_HOOK(heat_kernels, "heat")
