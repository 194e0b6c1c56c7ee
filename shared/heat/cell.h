/*
 * cell.h: the explicit five-point update of one interior cell.
 *
 * new = c + alpha * (n + s + e + w - 4c).  With alpha <= 1/4 the new value
 * is a convex combination of the five old ones, so the update can neither
 * create a new extreme nor amplify an old rounding error; doc/verification.md
 * builds the tolerances on exactly that property.
 */
#ifndef APOD_CELL_H
#define APOD_CELL_H

#include "shared/apod_hd.h"
#include "real.h"

APOD_HD heat_real heat_cell_update(heat_real c, heat_real n, heat_real s,
                                   heat_real e, heat_real w, heat_real alpha)
{
	return c + alpha * (((n + s) + (e + w)) - (heat_real)4 * c);
}

#endif
