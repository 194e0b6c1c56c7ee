/*
 * tolerance.h: the tolerances of the n-body gate (tolerance.c).
 */
#ifndef APOD_NBODY_TOLERANCE_H
#define APOD_NBODY_TOLERANCE_H

#include "nbody.h"

struct nbody_tolerance {
	double pos, vel;              /* per component, absolute */
	double kinetic, momentum, centre, potential;
	double momentum_drift, energy_drift;   /* absolute, within one run */
};

void nbody_design(const struct nbody_params *p, struct nbody_tolerance *t);

#endif
