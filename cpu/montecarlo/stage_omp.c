/*
 * stage_omp.c: the batch on every core with OpenMP.
 *
 * Paths are independent and counter-based draws need no generator state,
 * so the path loop is one `parallel for`: every path's payoffs are bit for
 * bit serial's (the same function, no contraction on the host).  Only the
 * sums' order changes (each thread sums its own paths, then OpenMP adds
 * the partial sums), which workload.c bounds by the (P - 1) u of any
 * summation order; the histogram's counts are integers and equal exactly.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "apod/apod.h"
#include "apod/stock.h"
#include "montecarlo.h"

struct omp {
	struct mc_host h;
};

static void omp_destroy(void *ctx)
{
	struct omp *s = ctx;
	if (!s)
		return;
	mc_host_free(&s->h);
	free(s);
}

static void *omp_create(const void *problem)
{
	struct omp *s = calloc(1, sizeof *s);
	if (!s) {
		apod_fail("omp: out of memory");
		return NULL;
	}
	if (mc_host_init(&s->h, problem, "omp")) {
		free(s);
		return NULL;
	}
	return s;
}

static int omp_step(void *ctx)
{
	struct omp *s = ctx;
	const struct mc_problem *p = s->h.p;
	const struct mc_model *m = &p->model;
	double *sums = s->h.sums + s->h.done * MC_SUMS;
	unsigned long long *hist = s->h.hist;
	uint64_t first = (uint64_t)s->h.done * p->paths;
	size_t n = p->paths;
	int bins = p->bins;
	double acc[MC_SUMS] = { 0 };
	memset(hist, 0, (size_t)bins * sizeof *hist);
	#pragma omp parallel reduction(+ : acc[:MC_SUMS])
	{
		/* Each thread counts into its own histogram, added once at the end. */
		unsigned long long *mine = calloc((size_t)bins, sizeof *mine);
		#pragma omp for schedule(static)
		for (size_t i = 0; i < n; i++) {
			struct mc_outcome o = mc_path(m, first + i);
			double v[MC_NEST];
			int b = mc_bin(o.st, p->hist_lo, p->hist_inv_width, bins);
			mc_payoffs(m, &o, v);
			for (int e = 0; e < MC_NEST; e++) {
				double d = v[e] - p->shift[e];
				acc[2 * e] += d;
				acc[2 * e + 1] += d * d;
			}
			if (mine)
				mine[b]++;
			else {
				#pragma omp atomic
				hist[b]++;
			}
		}
		if (mine) {
			for (int b = 0; b < bins; b++) {
				#pragma omp atomic
				hist[b] += mine[b];
			}
			free(mine);
		}
	}
	memcpy(sums, acc, sizeof acc);
	s->h.done++;
	return 0;
}

static int omp_probe(void *ctx, int k, double *const *rows)
{
	struct omp *s = ctx;
	(void)k;
	mc_host_probe(&s->h, rows);
	return 0;
}

static int omp_fetch(void *ctx, int a, void *dst)
{
	struct omp *s = ctx;
	(void)a;
	mc_host_batch_means(&s->h, dst);
	return 0;
}

const struct apod_stage mc_stage_omp = {
	.name = "omp",
	.about = "the paths on every core with OpenMP, sums by reduction",
	.ports = MC_OMP_PORTS,
	.available = apod_omp_available,
	.width = apod_omp_width,
	.create = omp_create,
	.step = omp_step,
	.probe = omp_probe,
	.fetch = omp_fetch,
	.destroy = omp_destroy,
	.role = APOD_ROLE_HOST_BASELINE,
	.runs_on = APOD_RUNS_HOST_CORES,
};
