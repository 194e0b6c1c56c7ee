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

#include "cuda_check.h"
#include "device.h"
#include "engine.h"
#include "resident.h"

#define GPU3_PARTS 4096

struct gpu3 {
	struct resident r;
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
	CUDA_TRY(cudaStreamCreateWithFlags(&g->compute, cudaStreamNonBlocking));
	/* One more field's worth is counted for the snapshot staging buffer. */
	return resident_init(&g->r, p, "gpu3", g->compute, GPU3_PARTS, 1);
}

static void *gpu3_create(const struct heat_problem *p)
{
	struct gpu3 *g = (struct gpu3 *)calloc(1, sizeof *g);
	if (!g) {
		apod_fail("gpu3: out of memory");
		return NULL;
	}
	if (gpu3_setup(g, p)) {
		gpu3_destroy(g);
		return NULL;
	}
	return g;
}

static int gpu3_step(void *ctx)
{
	return resident_sweep(&((struct gpu3 *)ctx)->r);
}

static int gpu3_stats(void *ctx, struct apod_moments *m, unsigned *hist)
{
	return resident_stats(&((struct gpu3 *)ctx)->r, m, hist);
}

static int gpu3_summary(void *ctx, double *zone_means)
{
	return resident_zones(&((struct gpu3 *)ctx)->r, zone_means);
}

static int gpu3_fetch(void *ctx, apod_real *dst)
{
	return resident_fetch(&((struct gpu3 *)ctx)->r, dst);
}

static int gpu3_snapshot_begin(void *ctx)
{
	struct gpu3 *g = (struct gpu3 *)ctx;
	return snapshots_begin(&g->s, &g->r);
}

static int gpu3_snapshot_stream(void *ctx, int (*sink)(const apod_real *, size_t, void *), void *arg)
{
	return snapshots_stream(&((struct gpu3 *)ctx)->s, sink, arg);
}

static int gpu_width(void)
{
	return 0;
}

static int gpu3_mark(void *ctx, int phase, int end)
{
	return resident_mark(&((struct gpu3 *)ctx)->r, phase, end);
}

static int gpu3_device_seconds(void *ctx, double *seconds, int nphases)
{
	return resident_device_seconds(&((struct gpu3 *)ctx)->r, seconds, nphases);
}

/* Named and placed in the ladder in cpu/heat/stages.c. */
extern "C" const struct heat_engine heat_engine_gpu3 = {
	.available = apod_gpu_available,
	.width = gpu_width,
	.create = gpu3_create,
	.step = gpu3_step,
	.stats = gpu3_stats,
	.summary = gpu3_summary,
	.fetch = gpu3_fetch,
	.destroy = gpu3_destroy,
	.snapshot_begin = gpu3_snapshot_begin,
	.snapshot_stream = gpu3_snapshot_stream,
	.mark = gpu3_mark,
	.device_seconds = gpu3_device_seconds,
};
