/*
 * montecarlo_workload.h: the Monte Carlo workload, for the program that lists it.
 */
#ifndef APOD_MONTECARLO_WORKLOAD_H
#define APOD_MONTECARLO_WORKLOAD_H

#include "apod/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const struct apod_workload montecarlo_workload;

#ifdef __cplusplus
}
#endif

#endif
