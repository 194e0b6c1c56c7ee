/*
 * stage4.cu: gpu4: tuned (forces_tuned): float4 tiles, NBODY_TUNED_P
 * bodies a thread (one: nbody_resident.h says why), the inner loop
 * unrolled, the reciprocal square root of the hardware (nbody_rsqrt), the
 * last kick fused in, the block size from the occupancy API.  Never bit
 * for bit (the rsqrt is 2 ulp): held to the designed tolerances alone.
 */
#include "device.h"
#include "nbody_resident.h"

static void *create(const void *problem)
{
	return nbody_resident_create(problem, NBODY_TUNED, "gpu4");
}

static int width(void)
{
	return 0;   /* no thread count for Amdahl's N on a GPU */
}

extern "C" const struct apod_stage nbody_stage_gpu4 = {
	.name = "gpu4",
	.about = NBODY_GPU4_ABOUT,
	.ports = NBODY_GPU_PORTS,
	.available = apod_gpu_available,
	.width = width,
	.create = create,
	.step = nbody_resident_step,
	.probe = nbody_resident_probe,
	.fetch = nbody_resident_fetch,
	.destroy = nbody_resident_destroy,
	.snapshot_begin = NULL,   /* snapshots go through fetch */
	.snapshot_stream = NULL,
	.mark = nbody_resident_mark,
	.device_seconds = nbody_resident_device_seconds,
};
