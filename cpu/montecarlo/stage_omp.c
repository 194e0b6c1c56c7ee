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
#ifdef _OPENMP
#include <omp.h>
#endif

#include "apod/apod.h"
#include "apod/ready_made.h"
#include "montecarlo.h"

static void *omp_create(const struct apod_stage *s, const void *problem)
{
	return mc_host_create(problem, s->name);
}

static int omp_step(void *ctx, int phase, long step, long steps)
{
	struct mc_host *h = ctx;
	const struct mc_problem *p = h->p;
	unsigned long long *hist = h->hist;
	uint64_t first = mc_host_batch_begin(h);
	size_t n = p->paths;
	int bins = p->bins;
	double acc[MC_SUMS] = { 0 };
	(void)phase, (void)step, (void)steps;
	#pragma omp parallel reduction(+ : acc[:MC_SUMS])
	{
		/* Each thread counts into its own histogram, added once at the end. */
		unsigned long long *mine = calloc((size_t)bins, sizeof *mine);
		#pragma omp for schedule(static)
		for (size_t i = 0; i < n; i++) {
			int b = mc_path_add(p, first + i, acc);
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
	mc_host_batch_end(h, acc);
	return 0;
}

/* Described in stages.c. */
const struct apod_stage_ops mc_omp_ops = {
	APOD_OPS_OMP,
	.create = omp_create,
	.step = omp_step,
	.probe = mc_host_stage_probe,
	.fetch = mc_host_stage_fetch,
	.destroy = mc_host_destroy,
};
