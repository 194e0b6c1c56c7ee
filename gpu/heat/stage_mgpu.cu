/*
 * stage_mgpu.cu: heat on several GPUs, one MPI rank per GPU.
 *
 * The rows are split as in the mpi stage (cpu/heat/stage_mpi.c,
 * doc/multigpu.md): each rank holds a block of interior rows and a halo row
 * above and below, on its own GPU.  Each step the block's two boundary rows
 * are swept first, on the edge stream, and handed to the neighbours with
 * ncclSend/ncclRecv in one group on that stream, while the interior rows are
 * swept on the inner stream; each stream waits for the other at the end of
 * the step, since the next step reads rows both wrote.
 *
 * Statistics: each GPU reduces its held rows (per-block Welford, Chan merges
 * of the blocks: kernels.cuh), and the ranks' partial results meet on rank 0
 * over MPI: the moments merged in rank order with Chan's formula, the
 * histograms summed exactly, the zones' partial sums reduced in double.  The
 * order differs from serial's, so the gate holds mgpu to its tolerances, as
 * it does gpu2-gpu4.
 *
 * Failures: before the NCCL communicator exists every rank agrees on
 * failure (heat_mpi_agree), so all stop together.  Once ranks wait on each
 * other's NCCL transfers a failure on one cannot be agreed on (its peers may
 * be blocked on a transfer that will never come): the failing rank prints
 * why and MPI_Abort ends every rank.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nccl.h>

#include "apod/cuda.h"
#include "gpu/device.h"
#include "cpu/heat/heat_stage.h"
#include "kernels.cuh"
#include "cpu/heat/mpi_comm.h"
#include "gpu/mgpu.cuh"


#define MGPU_PARTS 4096

struct mgpu {
	const struct heat_problem *p;
	size_t lo, hi;               /* interior rows swept here: [lo, hi) */
	size_t own0, own1;           /* rows held for statistics and the result */
	size_t nloc;                 /* local rows: global lo-1 .. hi */
	int up, down;                /* neighbour ranks, or -1 at an edge */
	int device;
	cudaStream_t edge, inner;
	cudaEvent_t edge_done, inner_done;
	ncclComm_t comm;
	int have_comm;
	heat_real *d_cur, *d_next;
	size_t *d_src_edge, *d_src_inner;   /* local cell indices of the heaters */
	heat_real *d_temp_edge, *d_temp_inner;
	size_t nsrc_edge, nsrc_inner;
	int stats_blocks;
	struct apod_moments *d_parts, *d_total, *h_total;
	unsigned *d_hist, *h_hist;
	double *d_zsum, *h_zsum;
	heat_real *h_rows;           /* the held rows, for the gather */
	struct apod_moments *all_m;  /* rank 0: every rank's moments */
	unsigned *hist;              /* rank 0: every rank's counts, summed */
	MPI_Datatype row;
	int *counts, *displs;
};

/* After the communicator is up: a failure on one rank ends them all. */
static int must(int rc)
{
	return apod_mgpu_must("mgpu", rc);
}

/* Rows [r0, r1) of the local block, interior columns. */
static __global__ void sweep_rows_kernel(const heat_real *__restrict__ cur,
                                         heat_real *__restrict__ next, size_t nx, size_t r0,
                                         size_t r1, heat_real alpha)
{
	size_t j = (size_t)blockIdx.x * SWEEP_BX + threadIdx.x + 1;
	if (j + 1 >= nx)
		return;
	/* Past SWEEP_MAX_GRID_Y blocks down, strided as sweep_kernel. */
	for (size_t i = r0 + (size_t)blockIdx.y * SWEEP_BY + threadIdx.y; i < r1;
	     i += (size_t)gridDim.y * SWEEP_BY) {
		size_t c = i * nx + j;
		next[c] = heat_cell_update(cur[c], cur[c - nx], cur[c + nx], cur[c + 1], cur[c - 1], alpha);
	}
}

/* Each zone's sum over the rows of it that this rank holds, [own0, own1);
 * first is the first held row. */
static __global__ void zone_sums_kernel(const heat_real *__restrict__ first, size_t nx, size_t ny,
                                        int zones_x, int zones_y, size_t own0, size_t own1,
                                        double *__restrict__ sums)
{
	int zr = blockIdx.x / zones_x, zc = blockIdx.x % zones_x;
	size_t r0 = (size_t)zr * ny / zones_y, r1 = (size_t)(zr + 1) * ny / zones_y;
	size_t c0 = (size_t)zc * nx / zones_x, c1 = (size_t)(zc + 1) * nx / zones_x;
	size_t w = c1 - c0, cells;
	double s = 0.0;
	r0 = r0 > own0 ? r0 : own0;
	r1 = r1 < own1 ? r1 : own1;
	cells = r1 > r0 ? (r1 - r0) * w : 0;
	for (size_t k = threadIdx.x; k < cells; k += blockDim.x)
		s += (double)first[(r0 - own0 + k / w) * nx + c0 + k % w];
	s = block_sum(s);
	if (threadIdx.x == 0)
		sums[blockIdx.x] = s;
}

static void mgpu_destroy(void *ctx)
{
	struct mgpu *g = (struct mgpu *)ctx;
	if (!g)
		return;
	/* Teardown: nothing useful to do with a failure but go on freeing. */
	if (g->have_comm)
		ncclCommDestroy(g->comm);
	if (g->edge)
		cudaStreamDestroy(g->edge);
	if (g->inner)
		cudaStreamDestroy(g->inner);
	if (g->edge_done)
		cudaEventDestroy(g->edge_done);
	if (g->inner_done)
		cudaEventDestroy(g->inner_done);
	cudaFree(g->d_cur);
	cudaFree(g->d_next);
	cudaFree(g->d_src_edge);
	cudaFree(g->d_src_inner);
	cudaFree(g->d_temp_edge);
	cudaFree(g->d_temp_inner);
	cudaFree(g->d_parts);
	cudaFree(g->d_total);
	cudaFree(g->d_hist);
	cudaFree(g->d_zsum);
	cudaFreeHost(g->h_total);
	cudaFreeHost(g->h_hist);
	cudaFreeHost(g->h_zsum);
	cudaFreeHost(g->h_rows);
	if (g->row != MPI_DATATYPE_NULL)
		MPI_Type_free(&g->row);
	free(g->all_m);
	free(g->hist);
	free(g->counts);
	free(g->displs);
	free(g);
}

/* The heaters on this rank's local rows, split by the stream that pins
 * them: the boundary rows and halos on the edge stream, the rest inner. */
static int upload_sources(struct mgpu *g)
{
	const struct heat_problem *p = g->p;
	size_t rows = g->hi - g->lo, ne = 0, ni = 0;
	size_t *idx = (size_t *)malloc((p->nsrc ? p->nsrc : 1) * 2 * sizeof *idx);
	heat_real *temp = (heat_real *)malloc((p->nsrc ? p->nsrc : 1) * 2 * sizeof *temp);
	size_t *ie = idx, *ii = idx + p->nsrc;
	heat_real *te = temp, *ti = temp + p->nsrc;
	int rc = -1;
	if (!idx || !temp) {
		apod_fail("mgpu: out of memory");
		goto out;
	}
	for (size_t k = 0; k < p->nsrc; k++) {
		size_t gr = p->src_idx[k] / p->nx, l;
		if (gr + 1 < g->lo || gr > g->hi)
			continue;
		l = gr - (g->lo - 1);
		if (l <= 1 || l >= rows) {
			ie[ne] = l * p->nx + p->src_idx[k] % p->nx;
			te[ne++] = p->src_temp[k];
		} else {
			ii[ni] = l * p->nx + p->src_idx[k] % p->nx;
			ti[ni++] = p->src_temp[k];
		}
	}
	g->nsrc_edge = ne;
	g->nsrc_inner = ni;
	if (cudaMalloc(&g->d_src_edge, (ne ? ne : 1) * sizeof(size_t)) != cudaSuccess ||
	    cudaMalloc(&g->d_src_inner, (ni ? ni : 1) * sizeof(size_t)) != cudaSuccess ||
	    cudaMalloc(&g->d_temp_edge, (ne ? ne : 1) * sizeof(heat_real)) != cudaSuccess ||
	    cudaMalloc(&g->d_temp_inner, (ni ? ni : 1) * sizeof(heat_real)) != cudaSuccess) {
		apod_fail("mgpu: cannot allocate the heaters on the device");
		goto out;
	}
	if ((ne && (cudaMemcpy(g->d_src_edge, ie, ne * sizeof *ie, cudaMemcpyHostToDevice) != cudaSuccess ||
	            cudaMemcpy(g->d_temp_edge, te, ne * sizeof *te, cudaMemcpyHostToDevice) != cudaSuccess)) ||
	    (ni && (cudaMemcpy(g->d_src_inner, ii, ni * sizeof *ii, cudaMemcpyHostToDevice) != cudaSuccess ||
	            cudaMemcpy(g->d_temp_inner, ti, ni * sizeof *ti, cudaMemcpyHostToDevice) != cudaSuccess))) {
		apod_fail("mgpu: cannot upload the heaters");
		goto out;
	}
	rc = 0;
out:
	free(idx);
	free(temp);
	return rc;
}

/* Everything a rank can do before the ranks are linked by NCCL. */
static int setup_local(struct mgpu *g)
{
	const struct heat_problem *p = g->p;
	size_t nheld = g->own1 - g->own0, field = g->nloc * p->nx * sizeof(heat_real);
	size_t need = 2 * field + nheld * p->nx * sizeof(heat_real) + (64u << 20);
	int sms = 0;

	if (apod_mgpu_device(&g->device))
		return -1;
	if (apod_gpu_require("mgpu", need))
		return -1;
	APOD_CUDA_TRY(cudaStreamCreateWithFlags(&g->edge, cudaStreamNonBlocking));
	APOD_CUDA_TRY(cudaStreamCreateWithFlags(&g->inner, cudaStreamNonBlocking));
	APOD_CUDA_TRY(cudaEventCreateWithFlags(&g->edge_done, cudaEventDisableTiming));
	APOD_CUDA_TRY(cudaEventCreateWithFlags(&g->inner_done, cudaEventDisableTiming));
	APOD_CUDA_TRY(cudaMalloc(&g->d_cur, field));
	APOD_CUDA_TRY(cudaMalloc(&g->d_next, field));
	APOD_CUDA_TRY(cudaMalloc(&g->d_parts, MGPU_PARTS * sizeof(struct apod_moments)));
	APOD_CUDA_TRY(cudaMalloc(&g->d_total, sizeof(struct apod_moments)));
	APOD_CUDA_TRY(cudaMalloc(&g->d_hist, (size_t)p->nbins * sizeof(unsigned)));
	APOD_CUDA_TRY(cudaMalloc(&g->d_zsum, (size_t)p->nzones * sizeof(double)));
	APOD_CUDA_TRY(cudaMallocHost(&g->h_total, sizeof(struct apod_moments)));
	APOD_CUDA_TRY(cudaMallocHost(&g->h_hist, (size_t)p->nbins * sizeof(unsigned)));
	APOD_CUDA_TRY(cudaMallocHost(&g->h_zsum, (size_t)p->nzones * sizeof(double)));
	APOD_CUDA_TRY(cudaMallocHost(&g->h_rows, nheld * p->nx * sizeof(heat_real)));
	/* Both buffers start whole: the sweep never writes the fixed edges. */
	APOD_CUDA_TRY(cudaMemcpy(g->d_cur, p->init + (g->lo - 1) * p->nx, field, cudaMemcpyHostToDevice));
	APOD_CUDA_TRY(cudaMemcpy(g->d_next, p->init + (g->lo - 1) * p->nx, field, cudaMemcpyHostToDevice));
	if (upload_sources(g))
		return -1;
	/* cudaMemcpy from pageable memory may return before its DMA is done,
	 * and the non-blocking streams do not wait for the legacy stream. */
	APOD_CUDA_TRY(cudaDeviceSynchronize());
	APOD_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, g->device));
	g->stats_blocks = 8 * sms < MGPU_PARTS ? 8 * sms : MGPU_PARTS;
	if (!(g->all_m = (struct apod_moments *)malloc((size_t)heat_mpi_size * sizeof *g->all_m)) ||
	    !(g->counts = (int *)malloc((size_t)heat_mpi_size * sizeof(int))) ||
	    !(g->displs = (int *)malloc((size_t)heat_mpi_size * sizeof(int))) ||
	    !(g->hist = (unsigned *)malloc((size_t)p->nbins * sizeof *g->hist)))
		return apod_fail("mgpu: out of memory");
	heat_mpi_gather_plan(p->nx, p->ny, g->counts, g->displs, &g->row);
	return 0;
}

static int link_ranks(struct mgpu *g)
{
	if (apod_mgpu_link(&g->comm))
		return -1;
	g->have_comm = 1;
	return 0;
}

/* Each boundary row of buf to the neighbour's halo and the neighbour's
 * into ours, on the edge stream. */
static int exchange_halos(struct mgpu *g, heat_real *buf)
{
	size_t nx = g->p->nx, rows = g->hi - g->lo;
	NCCL_TRY(ncclGroupStart());
	if (g->up >= 0) {
		NCCL_TRY(ncclSend(buf + nx, nx * sizeof(heat_real), ncclUint8, g->up, g->comm, g->edge));
		NCCL_TRY(ncclRecv(buf, nx * sizeof(heat_real), ncclUint8, g->up, g->comm, g->edge));
	}
	if (g->down >= 0) {
		NCCL_TRY(ncclSend(buf + rows * nx, nx * sizeof(heat_real), ncclUint8, g->down, g->comm, g->edge));
		NCCL_TRY(ncclRecv(buf + (rows + 1) * nx, nx * sizeof(heat_real), ncclUint8, g->down, g->comm,
		                  g->edge));
	}
	NCCL_TRY(ncclGroupEnd());
	return 0;
}

/* NCCL connects two ranks at their first send and receive, not at
 * ncclCommInitRank: done in the first step, that cost (about 190 ms on the
 * two H200s, 2026-11-28) was charged to genTimeStep, 630 of the 660 us a
 * step measured over 300 steps of 2048^2 (doc/multigpu.md).  One exchange
 * here puts it in setup.  Both fields hold the initial field, so the rows
 * received are the ones already there. */
static int connect_halos(struct mgpu *g)
{
	if (exchange_halos(g, g->d_next))
		return -1;
	APOD_CUDA_TRY(cudaStreamSynchronize(g->edge));
	return 0;
}

static void *mgpu_create(const struct apod_stage *s, const void *problem)
{
	const struct heat_problem *p = (const struct heat_problem *)problem;
	struct mgpu *g;
	int failed = 0;
	(void)s;

	if (heat_mpi_open(p, "mgpu"))
		return NULL;
	g = (struct mgpu *)calloc(1, sizeof *g);
	if (!g) {
		apod_fail("mgpu: out of memory");
		failed = 1;
	} else {
		g->p = p;
		g->row = MPI_DATATYPE_NULL;
		heat_mpi_split(p->ny, heat_mpi_rank, heat_mpi_size, &g->lo, &g->hi);
		heat_mpi_held(p->ny, heat_mpi_rank, heat_mpi_size, &g->own0, &g->own1);
		g->nloc = g->hi - g->lo + 2;
		g->up = heat_mpi_rank > 0 ? heat_mpi_rank - 1 : -1;
		g->down = heat_mpi_rank < heat_mpi_size - 1 ? heat_mpi_rank + 1 : -1;
		failed = setup_local(g) != 0;
	}
	if (heat_mpi_agree(failed)) {
		mgpu_destroy(g);
		return NULL;
	}
	/* Every rank joins ncclCommInitRank or none waits in it: a failure past
	 * here ends every rank (must). */
	must(link_ranks(g));
	must(connect_halos(g));
	return g;
}

static int step_on_streams(struct mgpu *g)
{
	const struct heat_problem *p = g->p;
	size_t nx = p->nx, rows = g->hi - g->lo;
	dim3 block(SWEEP_BX, SWEEP_BY), row = sweep_grid(nx, 1);
	heat_real *t;

	/* The boundary rows first, on the edge stream: local row 1 and row
	 * `rows` (the same row when the block is one row thick). */
	APOD_LAUNCH_TRY((sweep_rows_kernel<<<row, block, 0, g->edge>>>(g->d_cur, g->d_next, nx, 1, 2,
	                                                              p->alpha)));
	if (rows > 1)
		APOD_LAUNCH_TRY((sweep_rows_kernel<<<row, block, 0, g->edge>>>(
			g->d_cur, g->d_next, nx, rows, rows + 1, p->alpha)));
	if (g->nsrc_edge)
		APOD_LAUNCH_TRY((pin_kernel<<<(unsigned)((g->nsrc_edge + 255) / 256), 256, 0, g->edge>>>(
			g->d_next, g->d_src_edge, g->d_temp_edge, g->nsrc_edge)));
	/* The halos, while the interior is swept. */
	if (exchange_halos(g, g->d_next))
		return -1;
	if (rows > 2)
		APOD_LAUNCH_TRY((sweep_rows_kernel<<<sweep_grid(nx, rows - 2), block, 0, g->inner>>>(
			g->d_cur, g->d_next, nx, 2, rows, p->alpha)));
	if (g->nsrc_inner)
		APOD_LAUNCH_TRY((pin_kernel<<<(unsigned)((g->nsrc_inner + 255) / 256), 256, 0, g->inner>>>(
			g->d_next, g->d_src_inner, g->d_temp_inner, g->nsrc_inner)));
	/* The next step reads rows both streams wrote, and writes rows both read. */
	APOD_CUDA_TRY(cudaEventRecord(g->edge_done, g->edge));
	APOD_CUDA_TRY(cudaEventRecord(g->inner_done, g->inner));
	APOD_CUDA_TRY(cudaStreamWaitEvent(g->edge, g->inner_done, 0));
	APOD_CUDA_TRY(cudaStreamWaitEvent(g->inner, g->edge_done, 0));
	t = g->d_cur;
	g->d_cur = g->d_next;
	g->d_next = t;
	return 0;
}

/* Heat's one step phase, genTimeStep. */
static int mgpu_step(void *ctx, int phase, long step, long steps)
{
	(void)phase, (void)step, (void)steps;
	return must(step_on_streams((struct mgpu *)ctx));
}

static const heat_real *held_rows(const struct mgpu *g)
{
	return g->d_cur + (g->own0 - (g->lo - 1)) * g->p->nx;
}

static int stats_here(struct mgpu *g)
{
	const struct heat_problem *p = g->p;
	size_t n = (g->own1 - g->own0) * p->nx;
	APOD_CUDA_TRY(cudaMemsetAsync(g->d_hist, 0, (size_t)p->nbins * sizeof(unsigned), g->edge));
	APOD_LAUNCH_TRY((stats_kernel<<<g->stats_blocks, 256, (size_t)p->nbins * sizeof(unsigned), g->edge>>>(
		held_rows(g), n, p->hist_lo, p->hist_inv_width, p->nbins, g->d_parts, g->d_hist)));
	APOD_LAUNCH_TRY((merge_kernel<<<1, 256, 0, g->edge>>>(g->d_parts, g->stats_blocks, g->d_total)));
	APOD_CUDA_TRY(cudaMemcpyAsync(g->h_total, g->d_total, sizeof *g->h_total, cudaMemcpyDeviceToHost,
	                         g->edge));
	APOD_CUDA_TRY(cudaMemcpyAsync(g->h_hist, g->d_hist, (size_t)p->nbins * sizeof(unsigned),
	                         cudaMemcpyDeviceToHost, g->edge));
	APOD_CUDA_TRY(cudaStreamSynchronize(g->edge));
	return 0;
}

static void mgpu_stats(void *ctx, struct apod_moments *m, unsigned *hist)
{
	struct mgpu *g = (struct mgpu *)ctx;
	const struct heat_problem *p = g->p;
	must(stats_here(g));
	/* Every rank's moments to rank 0, merged there in rank order. */
	MPI_TRY(MPI_Gather(g->h_total, 5, MPI_DOUBLE, g->all_m, 5, MPI_DOUBLE, 0, heat_mpi_comm));
	apod_moments_init(m);
	if (heat_mpi_rank == 0)
		for (int r = 0; r < heat_mpi_size; r++)
			apod_moments_merge(m, &g->all_m[r]);
	MPI_TRY(MPI_Reduce(g->h_hist, hist, p->nbins, MPI_UNSIGNED, MPI_SUM, 0, heat_mpi_comm));
}

static int zones_here(struct mgpu *g)
{
	const struct heat_problem *p = g->p;
	APOD_LAUNCH_TRY((zone_sums_kernel<<<p->nzones, 256, 0, g->edge>>>(held_rows(g), p->nx, p->ny, p->zones_x,
	                                                             p->zones_y, g->own0, g->own1,
	                                                             g->d_zsum)));
	APOD_CUDA_TRY(cudaMemcpyAsync(g->h_zsum, g->d_zsum, (size_t)p->nzones * sizeof(double),
	                         cudaMemcpyDeviceToHost, g->edge));
	APOD_CUDA_TRY(cudaStreamSynchronize(g->edge));
	return 0;
}

static void mgpu_summary(void *ctx, double *zone_means)
{
	struct mgpu *g = (struct mgpu *)ctx;
	const struct heat_problem *p = g->p;
	must(zones_here(g));
	MPI_TRY(MPI_Reduce(g->h_zsum, zone_means, p->nzones, MPI_DOUBLE, MPI_SUM, 0, heat_mpi_comm));
	if (heat_mpi_rank == 0)
		for (int zr = 0; zr < p->zones_y; zr++)
			for (int zc = 0; zc < p->zones_x; zc++) {
				size_t r0 = heat_zone_row0(p, zr), r1 = heat_zone_row0(p, zr + 1);
				size_t c0 = heat_zone_col0(p, zc), c1 = heat_zone_col0(p, zc + 1);
				zone_means[zr * p->zones_x + zc] /= (double)((r1 - r0) * (c1 - c0));
			}
}

static int mgpu_probe(void *ctx, int k, long step, long row, void *const *rows)
{
	struct mgpu *g = (struct mgpu *)ctx;
	(void)step, (void)row;
	heat_phases_probe(g, g->p, g->hist, k, rows, mgpu_stats, mgpu_summary);
	return 0;
}

static int download_held(struct mgpu *g)
{
	APOD_CUDA_TRY(cudaStreamSynchronize(g->inner));
	APOD_CUDA_TRY(cudaMemcpyAsync(g->h_rows, held_rows(g), (g->own1 - g->own0) * g->p->nx * sizeof(heat_real),
	                         cudaMemcpyDeviceToHost, g->edge));
	APOD_CUDA_TRY(cudaStreamSynchronize(g->edge));
	return 0;
}

/* The held rows of every GPU, gathered on rank 0 (the reporter). */
static int mgpu_fetch(void *ctx, int array, void *dst)
{
	struct mgpu *g = (struct mgpu *)ctx;
	(void)array;   /* heat has one array, the field */
	must(download_held(g));
	MPI_TRY(MPI_Gatherv(g->h_rows, (int)(g->own1 - g->own0), g->row, dst, g->counts, g->displs,
	                    g->row, 0, heat_mpi_comm));
	return 0;
}

/* Described in cpu/heat/stages.c, which leaves it out of a build without
 * CUDA, MPI or NCCL. */
extern "C" const struct apod_stage_ops heat_mgpu_ops = {
	.available = apod_gpu_stage_available,
	.create = mgpu_create,
	.step = mgpu_step,
	.probe = mgpu_probe,
	.fetch = mgpu_fetch,
	.destroy = mgpu_destroy,
	.reporter = heat_mpi_reporter,
	.agree = heat_mpi_stage_agree,
};
