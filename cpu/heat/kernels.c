/*
 * kernels.c: `apod bench --kernels` for heat: its GPU kernels, one row
 * each (the workload's kernel_rows member; cpu/kernels_hook.h).
 */
#include "cpu/kernels_hook.h"
#include "heat_stage.h"
#if defined(HAVE_CUDA) && !defined(APOD_NO_GPU_STAGES)
#include "gpu/heat/heat_bench.h"
#endif

APOD_KERNELS_HOOK(heat_kernels, "heat", heat_gpu_bench)
