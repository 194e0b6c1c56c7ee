/*
 * kernels.c: `apod bench --kernels` for nbody in a build without its GPU
 * stages (cpu/kernels_hook.h); with them, gpu/nbody/bench.cu defines the
 * workload's kernel_rows member.
 */
#include "cpu/kernels_hook.h"
#include "nbody.h"

APOD_KERNELS_HOOK(nbody_kernels, "nbody")
