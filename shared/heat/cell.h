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

#include "apod_hd.h"

APOD_HD apod_real apod_cell_update(apod_real c, apod_real n, apod_real s,
                                   apod_real e, apod_real w, apod_real alpha)
{
	return c + alpha * (((n + s) + (e + w)) - (apod_real)4 * c);
}

#endif
