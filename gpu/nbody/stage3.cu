/*
 * stage3.cu: gpu3: gpu2 with the classic tiled force kernel
 * (forces_tiled): each block stages a tile of bodies in shared memory and
 * every thread reads them from there.  Still j in order, one accumulator:
 * bit for bit with serial under --disable-fmad.
 */
#include "device.h"
#include "nbody_resident.h"

static void *create(const void *problem)
{
	return nbody_resident_create(problem, NBODY_TILED, "gpu3");
}

static int width(void)
{
	return 0;   /* no thread count for Amdahl's N on a GPU */
}

extern "C" const struct apod_stage nbody_stage_gpu3 = {
	.name = "gpu3",
	.about = NBODY_GPU3_ABOUT,
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
