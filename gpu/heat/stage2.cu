/*
 * stage2.cu: gpu2, the data stays on the device.
 *
 * What changed from gpu1: the field is uploaded once and never crosses PCIe
 * again except for a snapshot.  That forces calcStats and calcSummaryData
 * onto the device too (resident.cu: a Welford-per-thread statistics kernel,
 * a one-block-per-zone summary kernel), even though on their own they would
 * not be worth porting: the guide's advice to minimise transfers even at
 * the cost of running unremarkable kernels on the device.  Each step now
 * brings back 40 bytes of moments and a histogram.
 */
#include <stdlib.h>

#include "cuda_check.h"
#include "device.h"
#include "engine.h"
#include "resident.h"

#define GPU2_PARTS 4096

struct gpu2 {
	struct resident r;
};

static void gpu2_destroy(void *ctx)
{
	struct gpu2 *g = (struct gpu2 *)ctx;
	if (!g)
		return;
	resident_free(&g->r);
	free(g);
}

static void *gpu2_create(const struct heat_problem *p)
{
	struct gpu2 *g = (struct gpu2 *)calloc(1, sizeof *g);
	if (!g) {
		apod_fail("gpu2: out of memory");
		return NULL;
	}
	/* Stream 0: the legacy default stream, every call in order. */
	if (resident_init(&g->r, p, "gpu2", 0, GPU2_PARTS, 0)) {
		gpu2_destroy(g);
		return NULL;
	}
	return g;
}

static int gpu2_step(void *ctx)
{
	return resident_sweep(&((struct gpu2 *)ctx)->r);
}

static int gpu2_stats(void *ctx, struct apod_moments *m, unsigned *hist)
{
	return resident_stats(&((struct gpu2 *)ctx)->r, m, hist);
}

static int gpu2_summary(void *ctx, double *zone_means)
{
	return resident_zones(&((struct gpu2 *)ctx)->r, zone_means);
}

static int gpu2_fetch(void *ctx, apod_real *dst)
{
	return resident_fetch(&((struct gpu2 *)ctx)->r, dst);
}

static int gpu_width(void)
{
	return 0;
}

static int gpu2_mark(void *ctx, int phase, int end)
{
	return resident_mark(&((struct gpu2 *)ctx)->r, phase, end);
}

static int gpu2_device_seconds(void *ctx, double *seconds, int nphases)
{
	return resident_device_seconds(&((struct gpu2 *)ctx)->r, seconds, nphases);
}

/* Named and placed in the ladder in cpu/heat/stages.c. */
extern "C" const struct heat_engine heat_engine_gpu2 = {
	.available = apod_gpu_available,
	.width = gpu_width,
	.create = gpu2_create,
	.step = gpu2_step,
	.stats = gpu2_stats,
	.summary = gpu2_summary,
	.fetch = gpu2_fetch,
	.destroy = gpu2_destroy,
	.mark = gpu2_mark,
	.device_seconds = gpu2_device_seconds,
};
