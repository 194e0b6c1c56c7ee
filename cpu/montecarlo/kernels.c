/*
 * kernels.c: `apod bench --kernels` for montecarlo in a build without its GPU
 * stages (cpu/kernels_hook.h); with them, gpu/montecarlo/bench.cu defines the
 * workload's kernel_rows member.
 */
#include "cpu/kernels_hook.h"
#include "montecarlo.h"

APOD_KERNELS_HOOK(mc_kernels, "montecarlo")
