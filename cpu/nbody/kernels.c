/*
 * kernels.c: `apod bench --kernels` for nbody: its GPU kernels, one row
 * each (the workload's kernel_rows member; cpu/kernels_hook.h).
 */
#include "cpu/kernels_hook.h"
#include "nbody.h"
#if defined(HAVE_CUDA) && !defined(APOD_NO_GPU_STAGES)
#include "gpu/nbody/nbody_bench.h"
#endif

APOD_KERNELS_HOOK(nbody_kernels, "nbody", nbody_gpu_bench)
