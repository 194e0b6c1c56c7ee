/*
 * nbody_workload.h: the n-body workload, for the program that lists it.
 */
#ifndef APOD_NBODY_WORKLOAD_H
#define APOD_NBODY_WORKLOAD_H

#include "apod/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const struct apod_workload nbody_workload;

#ifdef __cplusplus
}
#endif

#endif
