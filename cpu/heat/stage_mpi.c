/*
 * stage_mpi.c: the phases on several processes (MPI ranks), each with its
 * OpenMP threads.  The interior rows are split into one contiguous block
 * per rank; each step a rank sweeps its block and trades its first and last
 * rows with its neighbours (the halos).  doc/multigpu.md has the picture.
 *
 * Bit for bit with serial, the statistics included:
 * - the field: every cell is the same arithmetic on the same neighbours;
 * - the moments: serial folds per-row moments into one, row by row, with
 *   Chan's merge.  Here every rank computes its rows' moments in parallel,
 *   then the fold itself passes from rank to rank in row order (rank r
 *   receives the running moments from r-1, merges its rows in order and
 *   hands them to r+1), so the merges are serial's merges, in serial's
 *   order.  The price is P small messages in sequence per step: the rows'
 *   moments, the costly part, are still computed in parallel.
 * - the histogram: counts, summed exactly in any order (MPI_Reduce);
 * - the zone means: serial adds each zone's row segments in row order; the
 *   running zone sums pass from rank to rank as the moments do.
 * Merging per-rank partial results instead (a tree) would round differently
 * from serial and pass the gate only within its tolerance; this way the
 * gate can ask for equality.
 */
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "apod/apod.h"
#include "heat_stage.h"
#include "hostfield.h"
#include "hostphases.h"
#include "mpi_comm.h"
#include "rowops.h"

_Static_assert(sizeof(struct apod_moments) == 5 * sizeof(double),
               "moments are sent as five doubles");

enum { TAG_UP = 1, TAG_DOWN, TAG_MOMENTS, TAG_ZONES };

struct mpi {
	struct heat_host h;         /* nloc rows; h.hist: the threads' counts summed, then
	                             * (on rank 0) every rank's */
	size_t lo, hi;              /* the interior rows this rank sweeps: [lo, hi) */
	size_t own0, own1;          /* rows it holds for statistics and the result */
	size_t nloc;                /* local rows: global lo-1 .. hi (halos or edges) */
	int up, down;               /* neighbour ranks, or MPI_PROC_NULL at an edge */
	int nthreads;
	struct apod_moments *rowm;  /* one per held row */
	unsigned *thread_hist;      /* nthreads x nbins */
	double *seg;                /* held rows x zones_x: each row's zone segments' sums */
	int *zone_row;              /* zone row of each held row */
	double *zone_acc;           /* running zone sums, nzones */
	MPI_Datatype row;
	int *counts, *displs;       /* rank 0: held rows of every rank, for the gather */
};

static int mpi_width(const struct apod_stage *stage)
{
	(void)stage;
#ifdef _OPENMP
	int threads = omp_get_max_threads();
#else
	int threads = 1;
#endif
	return apod_ranks_size() * threads;
}

static heat_real *local_row(const struct mpi *s, heat_real *field, size_t global)
{
	return field + (global - (s->lo - 1)) * s->h.p->nx;
}

static void mpi_destroy(void *ctx)
{
	struct mpi *s = ctx;
	if (!s)
		return;
	/* Teardown: a local call, and nothing useful to do if it failed. */
	if (s->row != MPI_DATATYPE_NULL)
		MPI_Type_free(&s->row);
	heat_host_free(&s->h);
	free(s->rowm);
	free(s->thread_hist);
	free(s->seg);
	free(s->zone_row);
	free(s->zone_acc);
	free(s->counts);
	free(s->displs);
	free(s);
}

static void *mpi_create(const struct apod_stage *stage, const void *problem)
{
	const struct heat_problem *p = problem;
	struct mpi *s;
	size_t nheld;
	int failed = 0, fields = 0;
	(void)stage;

	if (heat_mpi_open(p, "mpi"))
		return NULL;

	s = calloc(1, sizeof *s);
	if (s) {
		s->row = MPI_DATATYPE_NULL;
		heat_mpi_split(p->ny, apod_ranks_rank(), apod_ranks_size(), &s->lo, &s->hi);
		heat_mpi_held(p->ny, apod_ranks_rank(), apod_ranks_size(), &s->own0, &s->own1);
		s->nloc = s->hi - s->lo + 2;
		s->up = apod_ranks_rank() > 0 ? apod_ranks_rank() - 1 : MPI_PROC_NULL;
		s->down = apod_ranks_rank() < apod_ranks_size() - 1 ? apod_ranks_rank() + 1 : MPI_PROC_NULL;
#ifdef _OPENMP
		s->nthreads = omp_get_max_threads();
#else
		s->nthreads = 1;
#endif
		nheld = s->own1 - s->own0;
		fields = heat_host_alloc(&s->h, p, s->nloc);
		s->rowm = malloc(nheld * sizeof *s->rowm);
		s->thread_hist = malloc((size_t)s->nthreads * (size_t)p->nbins * sizeof *s->thread_hist);
		s->seg = malloc(nheld * (size_t)p->zones_x * sizeof *s->seg);
		s->zone_row = malloc(nheld * sizeof *s->zone_row);
		s->zone_acc = malloc((size_t)p->nzones * sizeof *s->zone_acc);
		s->counts = malloc((size_t)apod_ranks_size() * sizeof *s->counts);
		s->displs = malloc((size_t)apod_ranks_size() * sizeof *s->displs);
	}
	if (!s || fields || !s->rowm || !s->thread_hist || !s->seg || !s->zone_row || !s->zone_acc ||
	    !s->counts || !s->displs) {
		apod_fail("mpi: rank %d cannot allocate its %zu of %zu rows (%zu bytes a field)",
		          apod_ranks_rank(), s ? s->nloc : 0, p->ny, s ? s->nloc * p->nx * sizeof(heat_real) : 0);
		failed = 1;
	}
	if (apod_ranks_agree(failed)) {
		mpi_destroy(s);
		return NULL;
	}

	/* First touch by the threads that use each row; both buffers whole, as
	 * the sweep never writes the fixed edges. */
#pragma omp parallel for schedule(static)
	for (size_t l = 0; l < s->nloc; l++) {
		const heat_real *src = p->init + (s->lo - 1 + l) * p->nx;
		memcpy(s->h.cur + l * p->nx, src, p->nx * sizeof(heat_real));
		memcpy(s->h.next + l * p->nx, src, p->nx * sizeof(heat_real));
	}
	for (size_t g = s->own0; g < s->own1; g++) {
		int zr = 0;
		while (zr + 1 < p->zones_y && heat_zone_row0(p, zr + 1) <= g)
			zr++;
		s->zone_row[g - s->own0] = zr;
	}
	heat_mpi_gather_plan(p->nx, p->ny, s->counts, s->displs, &s->row);
	return s;
}

static int mpi_step(void *ctx, int phase, long step, long steps)
{
	struct mpi *s = ctx;
	const struct heat_problem *p = s->h.p;
	size_t nx = p->nx, rows = s->hi - s->lo;
	heat_real *cur = s->h.cur, *next = s->h.next;
	(void)phase, (void)step, (void)steps;

#pragma omp parallel for schedule(static)
	for (size_t l = 1; l <= rows; l++)
		heat_sweep_row(cur + (l - 1) * nx, cur + l * nx, cur + (l + 1) * nx, next + l * nx, nx,
		               p->alpha);
	/* Heaters on this rank's rows, halos included: a halo's is overwritten
	 * by the neighbour's own pinned value below. */
	for (size_t k = 0; k < p->nsrc; k++) {
		size_t g = p->src_idx[k] / nx;
		if (g + 1 >= s->lo && g <= s->hi)
			local_row(s, next, g)[p->src_idx[k] % nx] = p->src_temp[k];
	}
	heat_host_swap(&s->h);
	/* The halos: my first row up in exchange for the row below my last,
	 * then my last row down for the row above my first.  At an edge the
	 * neighbour is MPI_PROC_NULL and the fixed edge row stays. */
	APOD_MPI_TRY(MPI_Sendrecv(s->h.cur + nx, 1, s->row, s->up, TAG_UP, s->h.cur + (s->nloc - 1) * nx, 1,
	                          s->row, s->down, TAG_UP, apod_ranks_comm(), MPI_STATUS_IGNORE));
	APOD_MPI_TRY(MPI_Sendrecv(s->h.cur + (s->nloc - 2) * nx, 1, s->row, s->down, TAG_DOWN, s->h.cur, 1,
	                          s->row, s->up, TAG_DOWN, apod_ranks_comm(), MPI_STATUS_IGNORE));
	return 0;
}

/* The fold handed from rank to rank in row order (see the top of the file):
 * count doubles, received from the rank before, folded by fold(), passed to
 * the next; the last rank sends the result to rank 0. */
static void relay_in(double *acc, int count, int tag)
{
	if (apod_ranks_rank() > 0)
		APOD_MPI_TRY(MPI_Recv(acc, count, MPI_DOUBLE, apod_ranks_rank() - 1, tag, apod_ranks_comm(),
		                      MPI_STATUS_IGNORE));
}

static void relay_out(double *acc, int count, int tag)
{
	int last = apod_ranks_size() - 1;
	if (apod_ranks_rank() < last)
		APOD_MPI_TRY(MPI_Send(acc, count, MPI_DOUBLE, apod_ranks_rank() + 1, tag, apod_ranks_comm()));
	else if (last > 0)
		APOD_MPI_TRY(MPI_Send(acc, count, MPI_DOUBLE, 0, tag, apod_ranks_comm()));
	if (apod_ranks_rank() == 0 && last > 0)
		APOD_MPI_TRY(MPI_Recv(acc, count, MPI_DOUBLE, last, tag, apod_ranks_comm(), MPI_STATUS_IGNORE));
}

static void mpi_calcStats(void *ctx, struct apod_moments *m, unsigned *hist)
{
	struct mpi *s = ctx;
	const struct heat_problem *p = s->h.p;
	size_t nb = (size_t)p->nbins, nheld = s->own1 - s->own0;
	const heat_real *first = local_row(s, s->h.cur, s->own0);

	memset(s->thread_hist, 0, (size_t)s->nthreads * nb * sizeof *s->thread_hist);
#pragma omp parallel
	{
#ifdef _OPENMP
		unsigned *h = s->thread_hist + (size_t)omp_get_thread_num() * nb;
#else
		unsigned *h = s->thread_hist;
#endif
#pragma omp for schedule(static)
		for (size_t i = 0; i < nheld; i++) {
			const heat_real *row = first + i * p->nx;
			heat_row_moments(row, p->nx, &s->rowm[i]);
			heat_row_hist(row, p->nx, p->hist_lo, p->hist_inv_width, p->nbins, h);
		}
	}
	apod_moments_init(m);
	relay_in((double *)m, 5, TAG_MOMENTS);
	for (size_t i = 0; i < nheld; i++)
		apod_moments_merge(m, &s->rowm[i]);
	relay_out((double *)m, 5, TAG_MOMENTS);

	memset(hist, 0, nb * sizeof *hist);
	for (int t = 0; t < s->nthreads; t++)
		for (size_t b = 0; b < nb; b++)
			hist[b] += s->thread_hist[(size_t)t * nb + b];
	APOD_MPI_TRY(MPI_Reduce(apod_ranks_rank() == 0 ? MPI_IN_PLACE : hist, hist, p->nbins, MPI_UNSIGNED,
	                        MPI_SUM, 0, apod_ranks_comm()));
}

static void mpi_calcSummaryData(void *ctx, double *zone_means)
{
	struct mpi *s = ctx;
	const struct heat_problem *p = s->h.p;
	size_t zx = (size_t)p->zones_x, nheld = s->own1 - s->own0;
	const heat_real *first = local_row(s, s->h.cur, s->own0);

#pragma omp parallel for schedule(static)
	for (size_t i = 0; i < nheld; i++)
		for (size_t zc = 0; zc < zx; zc++) {
			size_t c0 = heat_zone_col0(p, (int)zc), c1 = heat_zone_col0(p, (int)zc + 1);
			s->seg[i * zx + zc] = heat_row_sum(first + i * p->nx + c0, c1 - c0);
		}
	/* Each zone's sum starts at 0.0 and takes its rows in order, as in
	 * heat_zone_mean. */
	for (int z = 0; z < p->nzones; z++)
		s->zone_acc[z] = 0.0;
	relay_in(s->zone_acc, p->nzones, TAG_ZONES);
	for (size_t i = 0; i < nheld; i++)
		for (size_t zc = 0; zc < zx; zc++)
			s->zone_acc[(size_t)s->zone_row[i] * zx + zc] += s->seg[i * zx + zc];
	relay_out(s->zone_acc, p->nzones, TAG_ZONES);

	for (int zr = 0; zr < p->zones_y; zr++)
		for (int zc = 0; zc < p->zones_x; zc++) {
			size_t r0 = heat_zone_row0(p, zr), r1 = heat_zone_row0(p, zr + 1);
			size_t c0 = heat_zone_col0(p, zc), c1 = heat_zone_col0(p, zc + 1);
			zone_means[zr * p->zones_x + zc] =
				s->zone_acc[zr * p->zones_x + zc] / (double)((r1 - r0) * (c1 - c0));
		}
}

static int mpi_probe(void *ctx, int k, long step, long row, void *const *rows)
{
	struct mpi *s = ctx;
	(void)step, (void)row;
	heat_phases_probe(s, s->h.p, s->h.hist, k, rows, mpi_calcStats, mpi_calcSummaryData);
	return 0;
}

/* The held rows of every rank, gathered on rank 0 (the reporter). */
static int mpi_fetch(void *ctx, int array, void *dst)
{
	struct mpi *s = ctx;
	(void)array;   /* heat has one array, the field */
	APOD_MPI_TRY(MPI_Gatherv(local_row(s, s->h.cur, s->own0), (int)(s->own1 - s->own0), s->row, dst,
	                         s->counts, s->displs, s->row, 0, apod_ranks_comm()));
	return 0;
}

/* Described in stages.c, which leaves it out of a build without MPI. */
const struct apod_stage_ops heat_mpi_ops = {
	.width = mpi_width,
	.create = mpi_create,
	.step = mpi_step,
	.probe = mpi_probe,
	.fetch = mpi_fetch,
	.destroy = mpi_destroy,
	.reporter = apod_ranks_reporter,
	.agree = apod_ranks_stage_agree,
};
