/*
 * hist.h: the bin of one cell in heat's histogram (calcStats), the same
 * function on the host and on the device.
 */
#ifndef APOD_HEAT_HIST_H
#define APOD_HEAT_HIST_H

#include "apod_hd.h"
#include "heat/real.h"

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

#endif
