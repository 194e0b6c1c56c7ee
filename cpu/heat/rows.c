/*
 * rows.c: heat's probe results into the harness's rows, for every stage.
 *
 * Kept apart from hostphases.c so that calcStats and calcSummaryData are
 * still called from another file, out of the inliner's reach: gprof's
 * profile then shows them as the guide's profiling example does.
 */
#include "heat_stage.h"
#include "hostphases.h"

void heat_stats_rows(const struct heat_problem *p, const struct apod_moments *m,
                     const unsigned *hist, double *const *rows)
{
	double *r = rows[HEAT_SERIES_STATS];
	if (r) {
		r[0] = m->mean;
		r[1] = m->min;
		r[2] = m->max;
		r[3] = apod_moments_variance(m);
	}
	if (rows[HEAT_SERIES_HIST])
		for (int b = 0; b < p->nbins; b++)
			rows[HEAT_SERIES_HIST][b] = hist[b];
}

void heat_host_probe(const struct heat_problem *p, const heat_real *field, unsigned *hist, int k,
                     double *const *rows)
{
	struct apod_moments m;
	if (k == HEAT_PROBE_SUMMARY) {
		if (rows[HEAT_SERIES_ZONES])
			calcSummaryData(p, field, rows[HEAT_SERIES_ZONES]);
		return;
	}
	calcStats(p, field, &m, hist);
	heat_stats_rows(p, &m, hist, rows);
}
