/*
 * rowops.c: row loops written so that gcc vectorises them without
 * -ffast-math.
 *
 * A plain "s += x[j]" in double cannot be vectorised: reordering the sum
 * changes its rounding and gcc will not do that unasked.  Keeping LANES
 * independent partial sums, combined in a fixed order at the end, gives the
 * compiler independent lanes to put in one vector register, and keeps the
 * result reproducible from run to run and machine to machine.  See
 * doc/assess.md for the -fopt-info-vec output that confirms it.
 */
#include "rowops.h"
#include "shared/heat/cell.h"
#include "shared/heat/hist.h"

#define LANES 8

void heat_sweep_row(const heat_real *restrict up, const heat_real *restrict c,
                    const heat_real *restrict dn, heat_real *restrict out,
                    size_t nx, heat_real alpha)
{
	for (size_t j = 1; j + 1 < nx; j++)
		out[j] = heat_cell_update(c[j], up[j], dn[j], c[j + 1], c[j - 1], alpha);
}

double heat_row_sum(const heat_real *restrict x, size_t n)
{
	double lane[LANES] = { 0 }, s = 0.0;
	size_t j, nv = n - n % LANES;
	for (j = 0; j < nv; j += LANES)
		for (int k = 0; k < LANES; k++)
			lane[k] += (double)x[j + k];
	for (int k = 0; k < LANES; k++)
		s += lane[k];
	for (; j < n; j++)
		s += (double)x[j];
	return s;
}

void heat_row_moments(const heat_real *restrict x, size_t n, struct apod_moments *m)
{
	double dev[LANES] = { 0 }, m2 = 0.0, sum, mean;
	heat_real lo[LANES], hi[LANES], mn, mx;
	size_t j, nv = n - n % LANES;

	if (n == 0) {
		apod_moments_init(m);
		return;
	}
	sum = heat_row_sum(x, n);
	mean = sum / (double)n;
	/* Deviations and extremes in separate loops: gcc 12 vectorises the
	 * deviations in a loop of their own (not folded with the extremes); the
	 * min/max selects it leaves scalar, not treating x < lo ? x : lo as a
	 * min reduction without -ffast-math.  See doc/assess.md. */
	for (j = 0; j < nv; j += LANES)
		for (int k = 0; k < LANES; k++) {
			double d = (double)x[j + k] - mean;
			dev[k] += d * d;
		}
	for (int k = 0; k < LANES; k++)
		lo[k] = hi[k] = x[0];
	for (j = 0; j < nv; j += LANES)
		for (int k = 0; k < LANES; k++) {
			lo[k] = x[j + k] < lo[k] ? x[j + k] : lo[k];
			hi[k] = x[j + k] > hi[k] ? x[j + k] : hi[k];
		}
	mn = lo[0];
	mx = hi[0];
	for (int k = 0; k < LANES; k++) {
		m2 += dev[k];
		mn = lo[k] < mn ? lo[k] : mn;
		mx = hi[k] > mx ? hi[k] : mx;
	}
	for (; j < n; j++) {
		double d = (double)x[j] - mean;
		m2 += d * d;
		mn = x[j] < mn ? x[j] : mn;
		mx = x[j] > mx ? x[j] : mx;
	}
	apod_moments_from_block(m, (double)n, sum, m2, (double)mn, (double)mx);
}

void heat_row_hist(const heat_real *restrict x, size_t n, heat_real lo, heat_real inv_width,
                   int nbins, unsigned *restrict hist)
{
	for (size_t j = 0; j < n; j++)
		hist[heat_hist_bin(x[j], lo, inv_width, nbins)]++;
}
