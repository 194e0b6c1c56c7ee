/*
 * real.h: the precision of heat's field, chosen at configure time
 * (--enable-double defines APOD_REAL as double; float otherwise).
 *
 * Every file of heat, host or device, holds cells as heat_real, so that
 * one build computes every stage in the same precision.
 */
#ifndef APOD_HEAT_REAL_H
#define APOD_HEAT_REAL_H

#ifndef APOD_REAL
#define APOD_REAL float
#endif
typedef APOD_REAL heat_real;

#endif
