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
#include "montecarlo.h"

struct omp {
	struct mc_host h;
};

static int omp_available(char *why, size_t len)
{
#ifdef _OPENMP
	(void)why;
	(void)len;
	return 1;
#else
	snprintf(why, len, "built without OpenMP (the compiler did not support it)");
	return 0;
#endif
}

static int omp_width(void)
{
#ifdef _OPENMP
	return omp_get_max_threads();
#else
	return 1;
#endif
}

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
	double e0 = 0, e1 = 0, g0 = 0, g1 = 0, a0 = 0, a1 = 0;
	memset(hist, 0, (size_t)bins * sizeof *hist);
	#pragma omp parallel reduction(+ : e0, e1, g0, g1, a0, a1)
	{
		/* Each thread counts into its own histogram, added once at the end. */
		unsigned long long *mine = calloc((size_t)bins, sizeof *mine);
		#pragma omp for schedule(static)
		for (size_t i = 0; i < n; i++) {
			struct mc_outcome o = mc_path(m, first + i);
			double v[MC_NEST], d;
			int b = mc_bin(o.st, p->hist_lo, p->hist_inv_width, bins);
			mc_payoffs(m, &o, v);
			d = v[MC_EUROPEAN] - p->shift[MC_EUROPEAN];
			e0 += d;
			e1 += d * d;
			d = v[MC_GEOMETRIC] - p->shift[MC_GEOMETRIC];
			g0 += d;
			g1 += d * d;
			d = v[MC_ARITHMETIC] - p->shift[MC_ARITHMETIC];
			a0 += d;
			a1 += d * d;
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
	sums[2 * MC_EUROPEAN] = e0;
	sums[2 * MC_EUROPEAN + 1] = e1;
	sums[2 * MC_GEOMETRIC] = g0;
	sums[2 * MC_GEOMETRIC + 1] = g1;
	sums[2 * MC_ARITHMETIC] = a0;
	sums[2 * MC_ARITHMETIC + 1] = a1;
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
	.available = omp_available,
	.width = omp_width,
	.create = omp_create,
	.step = omp_step,
	.probe = omp_probe,
	.fetch = omp_fetch,
	.destroy = omp_destroy,
};
