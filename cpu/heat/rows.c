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
                     const unsigned *hist, void *const *rows)
{
	double *r = rows[HEAT_SERIES_STATS], *h = rows[HEAT_SERIES_HIST];
	if (r) {
		r[0] = m->mean;
		r[1] = m->min;
		r[2] = m->max;
		r[3] = apod_moments_variance(m);
	}
	if (h)
		for (int b = 0; b < p->nbins; b++)
			h[b] = hist[b];
}

void heat_phases_probe(void *stage, const struct heat_problem *p, unsigned *hist, int k,
                       void *const *rows, heat_stats_fn *stats, heat_summary_fn *summary)
{
	struct apod_moments m;
	if (k == HEAT_PROBE_SUMMARY) {
		if (rows[HEAT_SERIES_ZONES])
			summary(stage, rows[HEAT_SERIES_ZONES]);
		return;
	}
	stats(stage, &m, hist);
	heat_stats_rows(p, &m, hist, rows);
}

/* serial's phases on a host field, as heat_phases_probe calls them. */
struct host_field {
	const struct heat_problem *p;
	const heat_real *field;
};

static void host_stats(void *stage, struct apod_moments *m, unsigned *hist)
{
	const struct host_field *h = stage;
	calcStats(h->p, h->field, m, hist);
}

static void host_summary(void *stage, double *zone_means)
{
	const struct host_field *h = stage;
	calcSummaryData(h->p, h->field, zone_means);
}

void heat_host_probe(const struct heat_problem *p, const heat_real *field, unsigned *hist, int k,
                     void *const *rows)
{
	struct host_field h = { p, field };
	heat_phases_probe(&h, p, hist, k, rows, host_stats, host_summary);
}
