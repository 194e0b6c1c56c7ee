/*
 * stage3.cu: gpu3, snapshots overlap the steps.
 *
 * What changed from gpu2: the kernels are the same, but they run on a
 * stream of their own, and a snapshot no longer stops the run.  The field
 * is copied to a staging buffer on the device (a fraction of a step); the
 * harness's writer thread (cpu/harness/run.c) then downloads it on a second stream,
 * in chunks through two small pinned buffers used in turn, writing each
 * chunk to the file while the next one travels.  PCIe, the disk and the
 * device's steps all run at once.
 */
#include <stdlib.h>

#include "apod/cuda.h"
#include "gpu/device.h"
#include "cpu/heat/heat_stage.h"
#include "heat_resident.h"
#include "resident_stage.cuh"

#define GPU3_PARTS 4096

struct gpu3 {
	struct heat_resident r;
	struct snapshots s;
	cudaStream_t compute;
};

static void gpu3_destroy(void *ctx)
{
	struct gpu3 *g = (struct gpu3 *)ctx;
	if (!g)
		return;
	snapshots_free(&g->s);
	resident_free(&g->r);
	if (g->compute)
		cudaStreamDestroy(g->compute);
	free(g);
}

static int gpu3_setup(struct gpu3 *g, const struct heat_problem *p)
{
	/* Non-blocking: no implicit ordering against the legacy stream. */
	APOD_CUDA_TRY(cudaStreamCreateWithFlags(&g->compute, cudaStreamNonBlocking));
	/* One more field's worth is counted for the snapshot staging buffer. */
	return resident_init(&g->r, p, "gpu3", g->compute, GPU3_PARTS, 1);
}

/* Described in cpu/heat/stages.c. */
extern "C" const struct apod_stage_ops heat_gpu3_ops = {
	.available = apod_gpu_stage_available,
	.create = resident_create<gpu3, gpu3_setup, gpu3_destroy>,
	.step = resident_step<gpu3>,
	.probe = resident_probe<gpu3>,
	.fetch = resident_fetch_op<gpu3>,
	.destroy = gpu3_destroy,
	.defer_rows = RESIDENT_DEFER_ROWS,
	.collect = resident_collect_op<gpu3>,
	.snapshot_begin = resident_snapshot_begin<gpu3>,
	.snapshot_stream = resident_snapshot_stream<gpu3>,
	.mark = resident_mark_op<gpu3>,
	.device_seconds = resident_device_op<gpu3>,
};
