/*
 * registry.h: a program's workloads, checked once before anything runs, so
 * that a workload declaring nonsense is refused with a message naming it
 * and what is wrong, rather than failing half-way through a run.
 */
#ifndef APOD_REGISTRY_H
#define APOD_REGISTRY_H

#include "apod/apod.h"

/* Every workload of prog (apod_workload_check), and no two with one name. */
int apod_registry_check(const struct apod_program *prog);

#endif
