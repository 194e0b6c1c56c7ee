/*
 * registry.h: a program's workloads, checked once before anything runs, so
 * that a workload declaring nonsense is refused with a message naming it
 * and what is wrong, rather than failing half-way through a run.
 */
#ifndef APOD_REGISTRY_H
#define APOD_REGISTRY_H

#include "apod/apod.h"

/* One workload's declarations, in whichever revision it was compiled
 * against.  taken(key), where not NULL, says whether a key would clash with
 * an option of the command line: the harness knows no options; the command
 * line passes its own (apod_option_taken, cli). */
int apod_workload_valid(const struct apod_workload *w, int (*taken)(const char *key));
/* Every workload of prog checked (apod_workload_valid), no two with one
 * name: the program as the harness then uses it.  NULL after apod_fail. */
const struct apod_program *apod_registry_load(const struct apod_program *prog,
                                              int (*taken)(const char *key));

#endif
