/*
 * hist.h: the bin of one cell in heat's histogram (calcStats), the same
 * function on the host and on the device.
 */
#ifndef APOD_HEAT_HIST_H
#define APOD_HEAT_HIST_H

#include <string.h>

#include "shared/apod_hd.h"
#include "real.h"

/*
 * The histogram bin of x: nbins equal bins over [lo, lo + nbins/inv_width),
 * values outside clamped into the first or last bin so that every cell is
 * counted once.  The arithmetic is a subtraction then a multiplication,
 * which no compiler can contract into an FMA, so host and device agree
 * whenever they agree on x.
 */
APOD_HD int heat_hist_bin(heat_real x, heat_real lo, heat_real inv_width, int nbins)
{
	heat_real t = (x - lo) * inv_width;
	int b;
	if (!(t > (heat_real)0))  /* also catches NaN */
		return 0;
	if (t >= (heat_real)nbins)
		return nbins - 1;
	b = (int)t;
	return b < nbins ? b : nbins - 1;
}

/* The reals in order as unsigned integers (-inf lowest, +inf highest). */
APOD_HD unsigned long long heat_real_key(heat_real x)
{
	if (sizeof(heat_real) == sizeof(float)) {
		float f = (float)x;
		unsigned u;
		memcpy(&u, &f, sizeof u);
		return (u & 0x80000000u) ? (unsigned)~u : u | 0x80000000u;
	} else {
		double d = (double)x;
		unsigned long long u;
		memcpy(&u, &d, sizeof u);
		return (u >> 63) ? ~u : u | (1ull << 63);
	}
}

APOD_HD heat_real heat_key_real(unsigned long long k)
{
	if (sizeof(heat_real) == sizeof(float)) {
		unsigned u = (k & 0x80000000u) ? (unsigned)(k & 0x7fffffffu) : (unsigned)~k;
		float f;
		memcpy(&f, &u, sizeof f);
		return (heat_real)f;
	} else {
		unsigned long long u = (k >> 63) ? k & ~(1ull << 63) : ~k;
		double d;
		memcpy(&d, &u, sizeof d);
		return (heat_real)d;
	}
}

/*
 * The bins as intervals: x (not NaN) falls in bin b exactly when
 * edges[b] <= x < edges[b + 1], with edges[0] = -inf and edges[nbins] =
 * +inf (nbins + 1 entries).  heat_hist_bin is monotone in x (a rounded
 * subtraction, a rounded product with a positive factor, a truncation and
 * clamps), so each bin is an interval; its lowest value is found by
 * bisection over the reals in order, with heat_hist_bin itself, so the
 * table agrees with it exactly.  gpu5 checks a run of values against one
 * interval with two compares instead of binning each value.
 */
APOD_HD void heat_hist_edges(heat_real lo, heat_real inv_width, int nbins, heat_real *edges)
{
	edges[0] = -(heat_real)(1.0 / 0.0);
	edges[nbins] = (heat_real)(1.0 / 0.0);
	for (int b = 1; b < nbins; b++) {
		/* bin(below) < b <= bin(at) */
		unsigned long long below = heat_real_key(edges[0]), at = heat_real_key(edges[nbins]);
		while (at - below > 1) {
			unsigned long long mid = below + (at - below) / 2;
			if (heat_hist_bin(heat_key_real(mid), lo, inv_width, nbins) >= b)
				at = mid;
			else
				below = mid;
		}
		edges[b] = heat_key_real(at);
	}
}

#endif
