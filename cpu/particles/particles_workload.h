/*
 * particles_workload.h: the particles workload, for the program that lists it.
 */
#ifndef APOD_PARTICLES_WORKLOAD_H
#define APOD_PARTICLES_WORKLOAD_H

#include "apod/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const struct apod_workload particles_workload;

#ifdef __cplusplus
}
#endif

#endif
