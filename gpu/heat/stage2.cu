/*
 * stage2.cu: gpu2, the data stays on the device.
 *
 * What changed from gpu1: the field is uploaded once and never crosses PCIe
 * again except for a snapshot.  That forces calcStats and calcSummaryData
 * onto the device too (resident.cu: a Welford-per-thread statistics kernel,
 * a one-block-per-zone summary kernel), even though on their own they would
 * not be worth porting: the guide's advice to minimise transfers even at
 * the cost of running unremarkable kernels on the device.  Each step's 40
 * bytes of moments and its histogram stay in a ring on the device until
 * the harness collects a batch of rows (deferred probes): no step waits.
 */
#include <stdlib.h>

#include "apod/cuda.h"
#include "gpu/device.h"
#include "cpu/heat/heat_stage.h"
#include "heat_resident.h"
#include "resident_stage.cuh"

#define GPU2_PARTS 4096

struct gpu2 {
	struct heat_resident r;
};

static void gpu2_destroy(void *ctx)
{
	struct gpu2 *g = (struct gpu2 *)ctx;
	if (!g)
		return;
	resident_free(&g->r);
	free(g);
}

static int gpu2_setup(struct gpu2 *g, const struct heat_problem *p)
{
	/* Stream 0: the legacy default stream, every call in order. */
	return resident_init(&g->r, p, "gpu2", 0, GPU2_PARTS, 0);
}

/* Described in cpu/heat/stages.c. */
extern "C" const struct apod_stage_ops heat_gpu2_ops = {
	.available = apod_gpu_stage_available,
	.create = resident_create<gpu2, gpu2_setup, gpu2_destroy>,
	.step = resident_step<gpu2>,
	.probe = resident_probe<gpu2>,
	.fetch = resident_fetch_op<gpu2>,
	.destroy = gpu2_destroy,
	.defer_rows = RESIDENT_DEFER_ROWS,
	.collect = resident_collect_op<gpu2>,
	.mark = resident_mark_op<gpu2>,
	.device_seconds = resident_device_op<gpu2>,
};
