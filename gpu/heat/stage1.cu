/*
 * stage1.cu: gpu1, the first port.  Only the hotspot moves.
 *
 * What changed from serial: genTimeStep's loop became sweep_kernel.
 * Everything else (calcStats, calcSummaryData, snapshots) still runs on the
 * host, on the same functions serial uses, so the field must cross PCIe
 * twice every step, through ordinary pageable memory.  The kernel itself is
 * fast; the copies are not, and Amdahl's bound for porting genTimeStep alone
 * is modest anyway.  Both lessons are the point of this stage.
 */
#include <stdlib.h>
#include <string.h>

#include "apod/cuda.h"
#include "apod/ready_made.h"
#include "gpu/device.h"
#include "cpu/heat/heat_stage.h"
#include "kernels.cuh"
#include "heat_resident.h"
#include "gpu/phase_events.h"

struct gpu1 {
	const struct heat_problem *p;
	heat_real *host;            /* the field the host phases read */
	unsigned *hist;             /* calcStats's counts, p->nbins */
	heat_real *d_cur, *d_next;
	size_t *d_src_idx;
	heat_real *d_src_temp;
	struct apod_phase_events *events;   /* device time per phase, on the legacy stream */
};

static void gpu1_destroy(void *ctx)
{
	struct gpu1 *g = (struct gpu1 *)ctx;
	if (!g)
		return;
	cudaFree(g->d_cur);
	cudaFree(g->d_next);
	cudaFree(g->d_src_idx);
	cudaFree(g->d_src_temp);
	apod_phase_events_free(g->events);
	free(g->host);
	free(g->hist);
	free(g);
}

static int gpu1_setup(void *state, const void *problem)
{
	struct gpu1 *g = (struct gpu1 *)state;
	const struct heat_problem *p = (const struct heat_problem *)problem;
	size_t bytes = p->n * sizeof(heat_real);
	g->p = p;
	if (apod_gpu_require("gpu1", 2 * bytes + (64u << 20)))
		return -1;
	if (!(g->host = (heat_real *)malloc(bytes)))
		return apod_fail("gpu1: cannot allocate the host field (%zu bytes)", bytes);
	memcpy(g->host, p->init, bytes);
	if (!(g->hist = (unsigned *)malloc((size_t)p->nbins * sizeof *g->hist)))
		return apod_fail("gpu1: out of memory");
	APOD_CUDA_TRY(cudaMalloc(&g->d_cur, bytes));
	APOD_CUDA_TRY(cudaMalloc(&g->d_next, bytes));
	if (heat_sources_upload(p, &g->d_src_idx, &g->d_src_temp))
		return -1;
	/* d_next keeps the fixed edges for the whole run; the sweep never writes them. */
	APOD_CUDA_TRY(cudaMemcpy(g->d_next, p->init, bytes, cudaMemcpyHostToDevice));
	if (!(g->events = apod_phase_events_new(0, apod_phase_total(&heat_workload))))
		return -1;
	return 0;
}

static void *gpu1_create(const struct apod_stage *s, const void *problem)
{
	(void)s;
	return apod_state_create(problem, sizeof(struct gpu1), "gpu1", gpu1_setup, gpu1_destroy);
}

/* Heat's one step phase, genTimeStep. */
static int gpu1_step(void *ctx, int phase, long step, long steps)
{
	struct gpu1 *g = (struct gpu1 *)ctx;
	const struct heat_problem *p = g->p;
	size_t bytes = p->n * sizeof(heat_real);
	dim3 block(SWEEP_BX, SWEEP_BY);
	dim3 grid = sweep_grid(p->nx, p->ny - 2);
	(void)phase, (void)step, (void)steps;
	APOD_CUDA_TRY(cudaMemcpy(g->d_cur, g->host, bytes, cudaMemcpyHostToDevice));
	APOD_LAUNCH_TRY((sweep_kernel<<<grid, block>>>(g->d_cur, g->d_next, p->nx, p->ny, p->alpha)));
	if (p->nsrc)
		APOD_LAUNCH_TRY((pin_kernel<<<(unsigned)((p->nsrc + 255) / 256), 256>>>(g->d_next, g->d_src_idx,
		                                                                    g->d_src_temp, p->nsrc)));
	APOD_CUDA_TRY(cudaMemcpy(g->host, g->d_next, bytes, cudaMemcpyDeviceToHost));
	return 0;
}

/* calcStats and calcSummaryData: serial's own, on the field copied back. */
static int gpu1_probe(void *ctx, int k, long step, long row, void *const *rows)
{
	struct gpu1 *g = (struct gpu1 *)ctx;
	(void)step, (void)row;
	heat_host_probe(g->p, g->host, g->hist, k, rows);
	return 0;
}

static int gpu1_fetch(void *ctx, int array, void *dst)
{
	struct gpu1 *g = (struct gpu1 *)ctx;
	(void)array;   /* heat has one array, the field */
	memcpy(dst, g->host, g->p->n * sizeof *g->host);
	return 0;
}

/* Described in cpu/heat/stages.c. */
extern "C" const struct apod_stage_ops heat_gpu1_ops = {
	.available = apod_gpu_stage_available,
	.create = gpu1_create,
	.step = gpu1_step,
	.probe = gpu1_probe,
	.fetch = gpu1_fetch,
	.destroy = gpu1_destroy,
	.mark = apod_phase_events_mark_op<struct gpu1>,
	.device_seconds = apod_phase_events_seconds_op<struct gpu1>,
};
