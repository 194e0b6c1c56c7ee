/*
 * kernels.c: `apod bench --kernels` for montecarlo: its GPU kernels, one row
 * each (the workload's kernel_rows member; cpu/kernels_hook.h).
 */
#include "cpu/kernels_hook.h"
#include "montecarlo.h"
#if defined(HAVE_CUDA) && !defined(APOD_NO_GPU_STAGES)
#include "gpu/montecarlo/montecarlo_bench.h"
#endif

APOD_KERNELS_HOOK(mc_kernels, "montecarlo", montecarlo_gpu_bench)
