/*
 * registry.h: a program's workloads, checked once before anything runs, so
 * that a workload declaring nonsense is refused with a message naming it
 * and what is wrong, rather than failing half-way through a run.
 */
#ifndef APOD_REGISTRY_H
#define APOD_REGISTRY_H

#include "apod/apod.h"

/* One workload's declarations.  taken(key), where not NULL, says whether a
 * key would clash with an option of the command line: the harness knows no
 * options; the command line passes its own (apod_option_taken, cli). */
int apod_workload_valid(const struct apod_workload *w, int (*taken)(const char *key));
/* Every workload of prog (apod_workload_valid), and no two with one name. */
int apod_registry_check(const struct apod_program *prog, int (*taken)(const char *key));

#endif
