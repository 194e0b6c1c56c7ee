#include <string.h>

#include "hostphases.h"
#include "rowops.h"

void calcStats(const struct heat_problem *p, const heat_real *field, struct apod_moments *m,
               unsigned *hist)
{
	apod_moments_init(m);
	memset(hist, 0, (size_t)p->nbins * sizeof *hist);
	for (size_t i = 0; i < p->ny; i++) {
		const heat_real *row = field + i * p->nx;
		struct apod_moments r;
		heat_row_moments(row, p->nx, &r);
		apod_moments_merge(m, &r);
		heat_row_hist(row, p->nx, p->hist_lo, p->hist_inv_width, p->nbins, hist);
	}
}

double heat_zone_mean(const struct heat_problem *p, const heat_real *field, int zr, int zc)
{
	size_t r0 = heat_zone_row0(p, zr), r1 = heat_zone_row0(p, zr + 1);
	size_t c0 = heat_zone_col0(p, zc), c1 = heat_zone_col0(p, zc + 1);
	double sum = 0.0;
	for (size_t i = r0; i < r1; i++)
		sum += heat_row_sum(field + i * p->nx + c0, c1 - c0);
	return sum / (double)((r1 - r0) * (c1 - c0));
}

void calcSummaryData(const struct heat_problem *p, const heat_real *field, double *zone_means)
{
	for (int zr = 0; zr < p->zones_y; zr++)
		for (int zc = 0; zc < p->zones_x; zc++)
			zone_means[zr * p->zones_x + zc] = heat_zone_mean(p, field, zr, zc);
}
