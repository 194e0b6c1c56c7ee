/*
 * stage2.cu: gpu2: the state resident on the device, one thread a body
 * reading every body j from global memory (forces_simple); the statistics
 * and the energy reduced there.  Bit for bit with serial under --disable-
 * fmad (the same interaction, j in order).
 */
#include "device.h"
#include "nbody_resident.h"

static void *create(const void *problem)
{
	return nbody_resident_create(problem, NBODY_SIMPLE, "gpu2");
}

static int width(void)
{
	return 0;   /* no thread count for Amdahl's N on a GPU */
}

extern "C" const struct apod_stage nbody_stage_gpu2 = {
	.name = "gpu2",
	.about = NBODY_GPU2_ABOUT,
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
