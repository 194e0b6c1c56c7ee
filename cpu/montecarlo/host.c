/*
 * host.c: per-batch sums to estimates, the same code for every stage.
 *
 * A batch's sums become its moments (apod_moments_from_block: mean
 * c + S1/P, squared deviations S2 - S1^2/P), and batches are merged in
 * batch order with Chan's formula.  The merge order is therefore the same
 * in every stage, whatever order each summed its batch in.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "apod/apod.h"
#include "apod/ready_made.h"
#include "montecarlo.h"

int mc_host_init(struct mc_host *h, const struct mc_problem *p, const char *stage)
{
	memset(h, 0, sizeof *h);
	h->p = p;
	h->sums = calloc(p->batches * MC_SUMS, sizeof *h->sums);
	h->hist = calloc((size_t)p->bins, sizeof *h->hist);
	if (!h->sums || !h->hist) {
		mc_host_free(h);
		return apod_fail("%s: cannot allocate the sums of %zu batches", stage, p->batches);
	}
	for (int e = 0; e < MC_NEST; e++)
		apod_moments_init(&h->run[e]);
	return 0;
}

void mc_host_free(struct mc_host *h)
{
	free(h->sums);
	free(h->hist);
	h->sums = NULL;
	h->hist = NULL;
}

static void batch_moments(const struct mc_problem *p, const double *s, int e,
                          struct apod_moments *m)
{
	double n = (double)p->paths, s1 = s[2 * e], s2 = s[2 * e + 1];
	double m2 = s2 - s1 * s1 / n;
	/* min and max are not tracked; cancellation cannot make m2 negative by
	 * more than its rounding, which is clamped. */
	apod_moments_from_block(m, n, p->shift[e] * n + s1, m2 > 0 ? m2 : 0, 0, 0);
}

void mc_host_probe(struct mc_host *h, void *const *rows)
{
	const struct mc_problem *p = h->p;
	double *mean_row = rows[MC_SERIES_MEAN], *var_row = rows[MC_SERIES_VARIANCE];
	double *se_row = rows[MC_SERIES_STDERR], *ci_row = rows[MC_SERIES_CI95];
	double *exact_row = rows[MC_SERIES_EXACT];
	uint64_t *hist_row = rows[MC_SERIES_HIST];
	for (; h->merged < h->done; h->merged++)
		for (int e = 0; e < MC_NEST; e++) {
			struct apod_moments b;
			batch_moments(p, h->sums + h->merged * MC_SUMS, e, &b);
			apod_moments_merge(&h->run[e], &b);
		}
	for (int e = 0; e < MC_NEST; e++) {
		const struct apod_moments *m = &h->run[e];
		/* The sample variance (n - 1) of the payoffs, and the standard
		 * error of their mean. */
		double var = m->n > 1 ? m->m2 / (m->n - 1) : 0;
		double se = m->n > 0 ? sqrt(var / m->n) : 0;
		if (mean_row)
			mean_row[e] = m->mean;
		if (var_row)
			var_row[e] = var;
		if (se_row)
			se_row[e] = se;
		if (ci_row) {
			ci_row[2 * e] = m->mean - MC_Z95 * se;
			ci_row[2 * e + 1] = m->mean + MC_Z95 * se;
		}
	}
	if (exact_row) {
		exact_row[0] = p->exact[0];
		exact_row[1] = p->exact[1];
	}
	if (hist_row)
		for (int b = 0; b < p->bins; b++)
			hist_row[b] = h->hist[b];
}

void mc_host_batch_means(const struct mc_host *h, double *dst)
{
	const struct mc_problem *p = h->p;
	memset(dst, 0, p->batches * MC_NEST * sizeof *dst);
	for (size_t b = 0; b < h->done; b++)
		for (int e = 0; e < MC_NEST; e++)
			dst[b * MC_NEST + (size_t)e] =
				p->shift[e] + h->sums[b * MC_SUMS + 2 * (size_t)e] / (double)p->paths;
}

void *mc_host_create(const void *problem, const char *stage)
{
	struct mc_host *h = apod_state_alloc(sizeof *h, stage);
	if (h && mc_host_init(h, problem, stage)) {
		free(h);
		return NULL;
	}
	return h;
}

void mc_host_destroy(void *ctx)
{
	if (ctx)
		mc_host_free(ctx);
	free(ctx);
}

int mc_host_stage_probe(void *ctx, int k, long step, long row, void *const *rows)
{
	(void)k;   /* one probe */
	(void)step, (void)row;
	mc_host_probe(ctx, rows);
	return 0;
}

int mc_host_stage_fetch(void *ctx, int a, void *dst)
{
	(void)a;   /* one array */
	mc_host_batch_means(ctx, dst);
	return 0;
}

uint64_t mc_host_batch_begin(struct mc_host *h)
{
	memset(h->hist, 0, (size_t)h->p->bins * sizeof *h->hist);
	return (uint64_t)h->done * h->p->paths;
}

void mc_host_batch_end(struct mc_host *h, const double acc[MC_SUMS])
{
	memcpy(h->sums + h->done * MC_SUMS, acc, MC_SUMS * sizeof *acc);
	h->done++;
}
