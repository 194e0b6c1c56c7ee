/*
 * stage_mgpu.cu: n-body on several GPUs, one MPI rank per GPU (rank r
 * drives GPU r), gpu4's force kernel on each.
 *
 * Every rank holds all the positions and masses (and a velocity array of
 * the same length), but integrates only its share of the bodies: [i0, i1),
 * n / ranks bodies each, the last rank the remainder too.  A step is gpu4's
 * on the share:
 *
 *     kick_drift of the share, the positions gathered (NCCL), then
 *     forces_split for the share against every body, the last kick fused
 *
 * The gather is an in-place ncclAllGather of the first n / ranks bodies of
 * every share and, where n is not a multiple of the ranks, an ncclBroadcast
 * of the remainder from the last rank, in one group: after it every rank
 * holds every body's position (the masses ride along in w), which is all
 * the next force evaluation reads.
 *
 * Probes: each rank reduces its share on its device (the statistics' 7
 * sums, and for the energy the potential of its rows i, j > i), the
 * partial sums meet with one ncclAllReduce of 8 doubles, and the reporter
 * (rank 0) writes the rows.  The order of the sums differs from gpu4's
 * (per rank, then across ranks), within the designed tolerances like
 * gpu4's own.  Fetch: the positions are whole on every rank; the
 * velocities are gathered like the positions, then rank 0 copies them.
 *
 * Failures: before the NCCL communicator exists every rank agrees on
 * failure (apod_ranks_agree, apod/ranks.h), so all stop together; after,
 * a failing rank prints why and MPI_Abort ends every rank (heat's mgpu does
 * the same).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nccl.h>

#include "apod/cuda.h"
#include "apod/ready_made.h"
#include "gpu/device.h"
#include "forces.cuh"
#include "probes.cuh"
#include "cpu/nbody/nbody.h"
#include "nbody_resident.h"
#include "apod/ranks_mpi.h"
#include "gpu/mgpu.cuh"

#define BLOCK NBODY_PROBE_BLOCK
/* The 7 statistics sums, then the potential: one reduction across ranks. */
#define TOTALS (NBODY_SUMS + 1)


struct nbody_mgpu {
	const struct nbody_problem *p;
	int n, i0, i1;               /* all bodies; this rank's share [i0, i1) */
	int q;                       /* n / ranks: each share's part in the all-gather */
	int device;
	cudaStream_t stream;
	ncclComm_t comm;
	int have_comm;
	float4 *d_pos, *d_vel, *d_acc;   /* n each; vel and acc current on the share only */
	double *d_part, *d_total;        /* partial sums; TOTALS doubles */
	double *h_total;                 /* pinned: the reduced totals */
	float4 *h_stage;                 /* pinned: an array on its way to rank 0's host */
	int split, equal;                /* gpu4's shape for the share, equal masses */
	float mass;
};

/* After the communicator is up: a failure on one rank ends them all. */
static int must(int rc)
{
	return apod_mgpu_must("nbody mgpu", rc);
}

static void mgpu_destroy(void *ctx)
{
	struct nbody_mgpu *g = (struct nbody_mgpu *)ctx;
	if (!g)
		return;
	/* Teardown: nothing useful to do with a failure but go on freeing. */
	apod_mgpu_unlink(g->comm, g->have_comm);
	apod_cuda_free(g->d_pos, g->d_vel, g->d_acc, g->d_part, g->d_total);
	cudaFreeHost(g->h_total);
	cudaFreeHost(g->h_stage);
	if (g->stream)
		cudaStreamDestroy(g->stream);
	free(g);
}

/* Collective, before anything whose shape the deck decides: MPI started,
 * the same deck on every rank, at least one body a rank.  0, or -1 on
 * every rank with the failure recorded. */
static int mgpu_open(const struct nbody_problem *p)
{
	struct apod_workload keys = {};   /* the key table is all the comparison reads */
	keys.name = "nbody";
	keys.params = nbody_params_table;
	if (apod_ranks_start() || apod_ranks_same_params(&keys, p->prm))
		return -1;
	/* Every rank finds this alike; agreeing still gives one message. */
	if (p->n < (size_t)apod_ranks_size()) {
		apod_usage_fail("mgpu: %d ranks but n = %zu bodies: each rank integrates n / ranks "
		                "bodies, so give at least one body a rank (n >= %d), or fewer ranks",
		                apod_ranks_size(), p->n, apod_ranks_size());
		apod_ranks_agree(1);
		return -1;
	}
	return apod_ranks_agree(0);
}

/* Everything a rank can do before the ranks are linked by NCCL. */
static int setup_local(struct nbody_mgpu *g)
{
	const struct nbody_problem *p = g->p;
	size_t n = p->n, state = n * sizeof(float4);
	size_t parts = (n + BLOCK - 1) / BLOCK;
	int sms = 0;

	if (n > INT_MAX)
		return apod_fail("mgpu: %zu bodies: the kernels index bodies with int (at most %d)", n,
		                 INT_MAX);
	if (parts < STATS_BLOCKS)
		parts = STATS_BLOCKS;
	g->n = (int)n;
	g->q = g->n / apod_ranks_size();
	g->i0 = apod_ranks_rank() * g->q;
	g->i1 = apod_ranks_rank() == apod_ranks_size() - 1 ? g->n : g->i0 + g->q;

	if (apod_mgpu_device(&g->device))
		return -1;
	if (apod_gpu_require("mgpu", 3 * state + (parts + 1) * TOTALS * sizeof(double)))
		return -1;
	APOD_CUDA_TRY(cudaStreamCreateWithFlags(&g->stream, cudaStreamNonBlocking));
	APOD_CUDA_TRY(cudaMalloc((void **)&g->d_pos, state));
	APOD_CUDA_TRY(cudaMalloc((void **)&g->d_vel, state));
	APOD_CUDA_TRY(cudaMalloc((void **)&g->d_acc, state));
	APOD_CUDA_TRY(cudaMalloc((void **)&g->d_part, parts * NBODY_SUMS * sizeof(double)));
	APOD_CUDA_TRY(cudaMalloc((void **)&g->d_total, TOTALS * sizeof(double)));
	APOD_CUDA_TRY(cudaMallocHost((void **)&g->h_total, TOTALS * sizeof(double)));
	APOD_CUDA_TRY(cudaMallocHost((void **)&g->h_stage, state));
	APOD_CUDA_TRY(cudaMemsetAsync(g->d_total, 0, TOTALS * sizeof(double), g->stream));
	/* gpu4's shape, chosen for the bodies this rank computes. */
	APOD_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, g->device));
	g->split = nbody_split_choose(g->i1 - g->i0, sms);
	g->mass = p->pos[3];
	g->equal = 1;
	for (size_t i = 1; i < n && g->equal; i++)
		g->equal = p->pos[4 * i + 3] == g->mass;
	/* The problem's bits, the same every stage starts from: all of it. */
	APOD_CUDA_TRY(cudaMemcpyAsync(g->d_pos, p->pos, state, cudaMemcpyHostToDevice, g->stream));
	APOD_CUDA_TRY(cudaMemcpyAsync(g->d_vel, p->vel, state, cudaMemcpyHostToDevice, g->stream));
	APOD_CUDA_TRY(cudaStreamSynchronize(g->stream));
	return 0;
}

/* Every rank's share of buf (n float4) to every rank, in place, on the
 * stream: the first q bodies of each share by all-gather, the last rank's
 * remainder by broadcast. */
static int gather_all(struct nbody_mgpu *g, float4 *buf)
{
	size_t q = (size_t)g->q, rem = (size_t)g->n - q * (size_t)apod_ranks_size();
	NCCL_TRY(ncclGroupStart());
	NCCL_TRY(ncclAllGather(buf + (size_t)g->i0, buf, 4 * q, ncclFloat, g->comm, g->stream));
	if (rem)
		NCCL_TRY(ncclBroadcast(buf + q * apod_ranks_size(), buf + q * apod_ranks_size(), 4 * rem, ncclFloat,
		                       apod_ranks_size() - 1, g->comm, g->stream));
	NCCL_TRY(ncclGroupEnd());
	return 0;
}

/* gpu4's force kernel for the share against every body (and the fused
 * kick of the share's velocities where kick != 0). */
static int share_forces(struct nbody_mgpu *g, int kick)
{
	const struct nbody_problem *p = g->p;
	return nbody_split_launch_range(g->split, g->equal, g->stream, g->d_pos, g->d_vel, g->d_acc, g->n,
	                                g->i0, g->i1, p->eps2, g->mass, p->h, kick);
}

/* After the link: the first accelerations (no kick), and one gather of the
 * unchanged positions so that NCCL's connections are made in setup, not in
 * the first step (heat's mgpu, connect_halos). */
static int first_forces(struct nbody_mgpu *g)
{
	if (gather_all(g, g->d_pos) || share_forces(g, 0))
		return -1;
	APOD_CUDA_TRY(cudaStreamSynchronize(g->stream));
	return 0;
}

static void *mgpu_create(const struct apod_stage *s, const void *problem)
{
	const struct nbody_problem *p = (const struct nbody_problem *)problem;
	(void)s;
	if (mgpu_open(p))
		return NULL;
	return apod_mgpu_create<struct nbody_mgpu>("nbody mgpu", p, setup_local, first_forces,
	                                           mgpu_destroy);
}

static int step_share(struct nbody_mgpu *g)
{
	const struct nbody_problem *p = g->p;
	int count = g->i1 - g->i0, grid = (count + BLOCK - 1) / BLOCK;
	APOD_LAUNCH_TRY((kick_drift<<<grid, BLOCK, 0, g->stream>>>(g->d_pos + g->i0, g->d_vel + g->i0,
	                                                       g->d_acc + g->i0, count, p->h, p->dt)));
	if (gather_all(g, g->d_pos) || share_forces(g, 1))
		return -1;
	/* The step's time lands in its own phase, and a fault is reported at
	 * the step that made it. */
	APOD_CUDA_TRY(cudaStreamSynchronize(g->stream));
	return 0;
}

/* n-body's one step phase, computeForces. */
static int mgpu_step(void *ctx, int phase, long step, long steps)
{
	(void)phase, (void)step, (void)steps;
	return must(step_share((struct nbody_mgpu *)ctx));
}

/* Probe k's partial sums over the share, reduced across the ranks into
 * h_total on every rank. */
static int probe_share(struct nbody_mgpu *g, int k)
{
	int count = g->i1 - g->i0, blocks = (count + BLOCK - 1) / BLOCK;
	int rows_blocks = blocks;
	if (blocks > STATS_BLOCKS)
		blocks = STATS_BLOCKS;
	APOD_LAUNCH_TRY((stats_kernel<<<blocks, BLOCK, 0, g->stream>>>(g->d_pos + g->i0, g->d_vel + g->i0,
	                                                           count, g->d_part)));
	APOD_LAUNCH_TRY((total_kernel<NBODY_SUMS><<<1, BLOCK, 0, g->stream>>>(g->d_part, blocks, g->d_total)));
	if (k == NBODY_PROBE_ENERGY) {
		/* d_part is read by the total above before this writes it: one stream. */
		APOD_LAUNCH_TRY((potential_kernel<<<rows_blocks, BLOCK, 0, g->stream>>>(
			g->d_pos, g->n, g->i0, g->i1, g->p->eps2, g->d_part)));
		APOD_LAUNCH_TRY((total_kernel<1><<<1, BLOCK, 0, g->stream>>>(g->d_part, rows_blocks,
		                                                          g->d_total + NBODY_SUMS)));
	}
	/* The statistics' sums alone, or the potential too. */
	NCCL_TRY(ncclAllReduce(g->d_total, g->d_total, k == NBODY_PROBE_ENERGY ? TOTALS : NBODY_SUMS,
	                       ncclDouble, ncclSum, g->comm, g->stream));
	APOD_CUDA_TRY(cudaMemcpyAsync(g->h_total, g->d_total, TOTALS * sizeof(double), cudaMemcpyDeviceToHost,
	                         g->stream));
	APOD_CUDA_TRY(cudaStreamSynchronize(g->stream));
	return 0;
}

static int mgpu_probe(void *ctx, int k, long step, long row, void *const *rows)
{
	struct nbody_mgpu *g = (struct nbody_mgpu *)ctx;
	(void)step, (void)row;
	must(probe_share(g, k));
	nbody_rows(k, g->h_total, g->p->mass, k == NBODY_PROBE_ENERGY ? g->h_total[NBODY_SUMS] : 0, rows);
	return 0;
}

/* Array a, whole, to rank 0's host: the positions are whole on every rank
 * after each step; the velocities are gathered first (each rank's kernels
 * read and write only its share's, so the others may be overwritten). */
static int fetch_array(struct nbody_mgpu *g, int a, void *dst)
{
	float4 *src = a == NBODY_ARRAY_POS ? g->d_pos : g->d_vel;
	if (a != NBODY_ARRAY_POS && gather_all(g, g->d_vel))
		return -1;
	if (apod_ranks_rank() == 0)
		APOD_CUDA_TRY(cudaMemcpyAsync(g->h_stage, src, (size_t)g->n * sizeof(float4),
		                         cudaMemcpyDeviceToHost, g->stream));
	APOD_CUDA_TRY(cudaStreamSynchronize(g->stream));
	if (apod_ranks_rank() == 0)
		nbody_unpack3(g->h_stage, (size_t)g->n, (float *)dst);
	return 0;
}

static int mgpu_fetch(void *ctx, int a, void *dst)
{
	return must(fetch_array((struct nbody_mgpu *)ctx, a, dst));
}

/* Described in cpu/nbody/stages.c, which leaves it out of a build without
 * CUDA, MPI or NCCL.  Snapshots go through fetch. */
extern "C" const struct apod_stage_ops nbody_mgpu_ops = {
	.available = apod_gpu_stage_available,
	.create = mgpu_create,
	.step = mgpu_step,
	.probe = mgpu_probe,
	.fetch = mgpu_fetch,
	.destroy = mgpu_destroy,
	.reporter = apod_ranks_reporter,
	.agree = apod_ranks_stage_agree,
};
