/*
 * stage1.cu: gpu1, the first port: only the forces move to the device.
 * The state stays in the host engine's arrays (host.c, as serial keeps it);
 * every step the positions and masses go up (16 bytes a body), the
 * accelerations come back (16 bytes a body), and the kicks, the drift, the
 * statistics and the energy run on the host, by serial's own code.  The
 * forces are forces_simple, j in order: bit for bit with serial under
 * --disable-fmad.  What it shows: O(N) bytes over PCIe against O(N^2)
 * work, so even this naive split pays off once n is large.
 */
#include <limits.h>
#include <stdlib.h>

#include "apod/cuda.h"
#include "apod/ready_made.h"
#include "gpu/device.h"
#include "forces.cuh"
#include "cpu/nbody/nbody.h"

#define BLOCK 256

struct gpu1 {
	const struct nbody_problem *p;
	struct nbody_soa s;
	float4 *h_pos, *h_acc;        /* pinned */
	float4 *d_pos, *d_acc;
	int n;
};

static void destroy(void *ctx)
{
	struct gpu1 *g = (struct gpu1 *)ctx;
	nbody_soa_free(&g->s);
	/* Nothing to report from here: a failed free leaves nothing to undo. */
	cudaFreeHost(g->h_pos);
	cudaFreeHost(g->h_acc);
	apod_cuda_free(g->d_pos, g->d_acc);
	free(g);
}

/* Positions up, forces on the device, accelerations down into the arrays. */
static int forces(struct gpu1 *g)
{
	size_t n = (size_t)g->n, bytes = n * sizeof(float4);
	for (size_t i = 0; i < n; i++)
		g->h_pos[i] = make_float4(g->s.x[i], g->s.y[i], g->s.z[i], g->s.m[i]);
	APOD_CUDA_TRY(cudaMemcpy(g->d_pos, g->h_pos, bytes, cudaMemcpyHostToDevice));
	APOD_LAUNCH_TRY((forces_simple<<<(g->n + BLOCK - 1) / BLOCK, BLOCK>>>(g->d_pos, g->d_acc, g->n,
	                                                                  g->p->eps2)));
	APOD_CUDA_TRY(cudaMemcpy(g->h_acc, g->d_acc, bytes, cudaMemcpyDeviceToHost));
	for (size_t i = 0; i < n; i++) {
		g->s.ax[i] = g->h_acc[i].x;
		g->s.ay[i] = g->h_acc[i].y;
		g->s.az[i] = g->h_acc[i].z;
	}
	return 0;
}

static int setup(void *ctx, const void *problem)
{
	struct gpu1 *g = (struct gpu1 *)ctx;
	const struct nbody_problem *p = (const struct nbody_problem *)problem;
	size_t bytes = p->n * sizeof(float4);
	if (p->n > INT_MAX)
		return apod_fail("gpu1: %zu bodies: the kernels index bodies with int (at most %d)", p->n,
		                 INT_MAX);
	g->p = p;
	g->n = (int)p->n;
	if (apod_gpu_require("gpu1", 2 * bytes) || nbody_soa_alloc(&g->s, p->n, "gpu1"))
		return -1;
	APOD_CUDA_TRY(cudaMallocHost((void **)&g->h_pos, bytes));
	APOD_CUDA_TRY(cudaMallocHost((void **)&g->h_acc, bytes));
	APOD_CUDA_TRY(cudaMalloc((void **)&g->d_pos, bytes));
	APOD_CUDA_TRY(cudaMalloc((void **)&g->d_acc, bytes));
	nbody_soa_load(&g->s, p, 0, p->n);
	return forces(g);
}

static void *create(const struct apod_stage *s, const void *problem)
{
	return apod_state_create(problem, sizeof(struct gpu1), s->name, setup, destroy);
}

/* One phase a step, the same every step: phase, step and steps unused. */
static int step(void *ctx, int, long, long)
{
	struct gpu1 *g = (struct gpu1 *)ctx;
	size_t n = g->p->n;
	nbody_host_kick(&g->s, g->p->h, 0, n);
	nbody_host_drift(&g->s, g->p->dt, 0, n);
	if (forces(g))
		return -1;
	nbody_host_kick(&g->s, g->p->h, 0, n);
	return 0;
}

/* The probes and the fetch are serial's, on the host's arrays. */
static int probe(void *ctx, int k, long step, long row, void *const *rows)
{
	struct gpu1 *g = (struct gpu1 *)ctx;
	(void)step, (void)row;
	return nbody_soa_probe(&g->s, g->p, k, rows);
}

static int fetch(void *ctx, int a, void *dst)
{
	nbody_soa_fetch(&((struct gpu1 *)ctx)->s, a, (float *)dst);
	return 0;
}

/* Described in cpu/nbody/stages.c.  In the order the members are
 * declared (C++). */
extern "C" const struct apod_stage_ops nbody_gpu1_ops = {
	.available = apod_gpu_stage_available,
	.width = NULL,
	.create = create,
	.step = step,
	.probe = probe,
	.fetch = fetch,
	.destroy = destroy,
};
