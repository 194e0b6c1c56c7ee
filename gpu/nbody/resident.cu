/*
 * resident.cu: the resident n-body stages' engine (gpu2, gpu3, gpu4): the
 * state lives on the device from create to destroy; a step is
 *
 *     kick_drift (v += h a, x += dt v), forces (variant), kick (v += h a)
 *
 * (gpu4 fuses the last kick into its force kernel).  The statistics are
 * reduced on the device in double (a block tree, then one block over the
 * blocks: a fixed order, the same every run) and 7 doubles come back; the
 * energy's O(N^2) potential likewise, one thread a row i summing j > i in
 * index order.  Arrays cross to the host only when the harness fetches
 * them.  Every phase is marked with events for device time.
 */
#include <limits.h>
#include <stdlib.h>

#include "apod/cuda.h"
#include "apod/ready_made.h"
#include "gpu/device.h"
#include "forces.cuh"
#include "probes.cuh"
#include "cpu/nbody/nbody_workload.h"
#include "nbody_resident.h"

#define BLOCK NBODY_PROBE_BLOCK   /* kick, drift, simple and tiled forces, reductions */
#define SUMS NBODY_SUMS

int nbody_forces(const struct nbody_resident *g, int kick_too)
{
	const struct nbody_problem *p = g->p;
	int block = g->block, grid = (g->n + block - 1) / block;
	switch (g->variant) {
	case NBODY_SIMPLE:
		APOD_LAUNCH_TRY((forces_simple<<<grid, block, 0, g->stream>>>(g->d_pos, g->d_acc, g->n, p->eps2)));
		break;
	case NBODY_TILED:
		APOD_LAUNCH_TRY((forces_tiled<<<grid, block, block * sizeof(float4), g->stream>>>(
			g->d_pos, g->d_acc, g->n, p->eps2)));
		break;
	case NBODY_TUNED:
		return nbody_split_launch(g->split, g->equal, g->stream, g->d_pos, g->d_vel, g->d_acc, g->n,
		                          p->eps2, g->mass, p->h, kick_too);
	}
	return 0;
}

/* gpu4's shape for n bodies, and whether the masses are all equal (they
 * never change in a run). */
static int split_setup(struct nbody_resident *g, const struct nbody_problem *p)
{
	int dev, sms;
	APOD_CUDA_TRY(cudaGetDevice(&dev));
	APOD_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
	g->split = nbody_split_choose(g->n, sms);
	g->mass = p->pos[3];
	g->equal = 1;
	for (size_t i = 1; i < p->n && g->equal; i++)
		g->equal = p->pos[4 * i + 3] == g->mass;
	return 0;
}

extern "C" void nbody_unpack3(const float4 *src, size_t n, float *dst)
{
	for (size_t i = 0; i < n; i++) {
		dst[3 * i] = src[i].x;
		dst[3 * i + 1] = src[i].y;
		dst[3 * i + 2] = src[i].z;
	}
}

extern "C" void nbody_resident_destroy(void *ctx)
{
	struct nbody_resident *g = (struct nbody_resident *)ctx;
	/* Nothing to report from here: a failed free leaves nothing to undo. */
	apod_phase_events_free(g->events);
	apod_cuda_free(g->d_pos, g->d_vel, g->d_acc, g->d_part, g->d_total);
	cudaFreeHost(g->h_stage);
	if (g->stream)
		cudaStreamDestroy(g->stream);
	free(g);
}

static int setup(struct nbody_resident *g, const struct nbody_problem *p, enum nbody_variant v,
                 const char *stage)
{
	size_t n = p->n, state = n * sizeof(float4);
	size_t parts = (n + BLOCK - 1) / BLOCK;
	if (n > INT_MAX)
		return apod_fail("%s: %zu bodies: the kernels index bodies with int (at most %d)", stage,
		                 n, INT_MAX);
	if (parts < STATS_BLOCKS)
		parts = STATS_BLOCKS;
	g->p = p;
	g->variant = v;
	g->n = (int)n;
	g->block = BLOCK;
	if (apod_gpu_require(stage, 3 * state + (parts + 1) * SUMS * sizeof(double)))
		return -1;
	APOD_CUDA_TRY(cudaStreamCreateWithFlags(&g->stream, cudaStreamNonBlocking));
	if (!(g->events = apod_phase_events_new(g->stream, apod_phase_total(&nbody_workload))))
		return -1;
	APOD_CUDA_TRY(cudaMalloc((void **)&g->d_pos, state));
	APOD_CUDA_TRY(cudaMalloc((void **)&g->d_vel, state));
	APOD_CUDA_TRY(cudaMalloc((void **)&g->d_acc, state));
	APOD_CUDA_TRY(cudaMalloc((void **)&g->d_part, parts * SUMS * sizeof(double)));
	APOD_CUDA_TRY(cudaMalloc((void **)&g->d_total, SUMS * sizeof(double)));
	APOD_CUDA_TRY(cudaMallocHost((void **)&g->h_stage, state));
	if (v == NBODY_TUNED && split_setup(g, p))
		return -1;
	/* The problem's bits, the same every stage starts from. */
	APOD_CUDA_TRY(cudaMemcpyAsync(g->d_pos, p->pos, state, cudaMemcpyHostToDevice, g->stream));
	APOD_CUDA_TRY(cudaMemcpyAsync(g->d_vel, p->vel, state, cudaMemcpyHostToDevice, g->stream));
	/* The first accelerations (no kick). */
	if (nbody_forces(g, 0))
		return -1;
	APOD_CUDA_TRY(cudaStreamSynchronize(g->stream));
	return 0;
}

/* apod_state_create's shape, with the variant and the stage's name passed
 * to setup (the stages' create and bench.cu's). */
extern "C" void *nbody_resident_create(const void *problem, enum nbody_variant v, const char *stage)
{
	struct nbody_resident *g = (struct nbody_resident *)apod_state_alloc(sizeof *g, stage);
	if (g && setup(g, (const struct nbody_problem *)problem, v, stage)) {
		nbody_resident_destroy(g);
		return NULL;
	}
	return g;
}

/* gpu2, gpu3 and gpu4: the kernel their description's data names. */
static void *resident_create(const struct apod_stage *s, const void *problem)
{
	return nbody_resident_create(problem, *(const enum nbody_variant *)s->data, s->name);
}

static int resident_step(void *ctx, int phase, long step, long steps)
{
	struct nbody_resident *g = (struct nbody_resident *)ctx;
	(void)phase, (void)step, (void)steps;
	const struct nbody_problem *p = g->p;
	int grid = (g->n + BLOCK - 1) / BLOCK, fused = g->variant == NBODY_TUNED;
	APOD_LAUNCH_TRY((kick_drift<<<grid, BLOCK, 0, g->stream>>>(g->d_pos, g->d_vel, g->d_acc, g->n, p->h,
	                                                       p->dt)));
	if (nbody_forces(g, fused))
		return -1;
	if (!fused)
		APOD_LAUNCH_TRY((kick<<<grid, BLOCK, 0, g->stream>>>(g->d_vel, g->d_acc, g->n, p->h)));
	/* The step's time lands in its own phase, and a fault is reported at
	 * the step that made it. */
	APOD_CUDA_TRY(cudaStreamSynchronize(g->stream));
	return 0;
}

static int resident_probe(void *ctx, int k, long step, long row, void *const *rows)
{
	struct nbody_resident *g = (struct nbody_resident *)ctx;
	int blocks = (g->n + BLOCK - 1) / BLOCK;
	double sums[SUMS], potential = 0;
	(void)step, (void)row;
	if (blocks > STATS_BLOCKS)
		blocks = STATS_BLOCKS;
	APOD_LAUNCH_TRY((stats_kernel<<<blocks, BLOCK, 0, g->stream>>>(g->d_pos, g->d_vel, g->n, g->d_part)));
	APOD_LAUNCH_TRY((total_kernel<SUMS><<<1, BLOCK, 0, g->stream>>>(g->d_part, blocks, g->d_total)));
	APOD_CUDA_TRY(cudaMemcpyAsync(sums, g->d_total, sizeof sums, cudaMemcpyDeviceToHost, g->stream));
	if (k == NBODY_PROBE_ENERGY) {
		int rows_blocks = (g->n + BLOCK - 1) / BLOCK;
		APOD_CUDA_TRY(cudaStreamSynchronize(g->stream));   /* d_part is reused below */
		APOD_LAUNCH_TRY((potential_kernel<<<rows_blocks, BLOCK, 0, g->stream>>>(g->d_pos, g->n, 0, g->n,
		                                                                   g->p->eps2, g->d_part)));
		APOD_LAUNCH_TRY((total_kernel<1><<<1, BLOCK, 0, g->stream>>>(g->d_part, rows_blocks, g->d_total)));
		APOD_CUDA_TRY(cudaMemcpyAsync(&potential, g->d_total, sizeof potential, cudaMemcpyDeviceToHost,
		                         g->stream));
	}
	APOD_CUDA_TRY(cudaStreamSynchronize(g->stream));
	nbody_rows(k, sums, g->p->mass, potential, rows);
	return 0;
}

static int resident_fetch(void *ctx, int a, void *dst)
{
	struct nbody_resident *g = (struct nbody_resident *)ctx;
	const float4 *src = a == NBODY_ARRAY_POS ? g->d_pos : g->d_vel;
	APOD_CUDA_TRY(cudaMemcpyAsync(g->h_stage, src, (size_t)g->n * sizeof(float4), cudaMemcpyDeviceToHost,
	                         g->stream));
	APOD_CUDA_TRY(cudaStreamSynchronize(g->stream));
	nbody_unpack3(g->h_stage, (size_t)g->n, (float *)dst);
	return 0;
}

/* gpu2, gpu3 and gpu4, described in cpu/nbody/stages.c.  Snapshots go
 * through fetch.  In the order the members are declared (C++). */
extern "C" const struct apod_stage_ops nbody_resident_ops = {
	.available = apod_gpu_stage_available,
	.width = NULL,
	.create = resident_create,
	.step = resident_step,
	.probe = resident_probe,
	.fetch = resident_fetch,
	.destroy = nbody_resident_destroy,
	.defer_rows = 0,
	.collect = NULL,
	.snapshot_begin = NULL,
	.snapshot_stream = NULL,
	.mark = apod_phase_events_mark_op<struct nbody_resident>,
	.device_seconds = apod_phase_events_seconds_op<struct nbody_resident>,
};
