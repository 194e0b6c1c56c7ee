/*
 * hostfield.h: what heat's host stages (serial, omp, mpi) hold alike: the
 * field and the buffer the next step is swept into, and calcStats's counts.
 * Each of those stages' states begins with a struct heat_host, so that one
 * allocation, one teardown, one step's end and (for the stages holding the
 * whole field) one fetch serve them all.
 */
#ifndef APOD_HEAT_HOSTFIELD_H
#define APOD_HEAT_HOSTFIELD_H

#include <stddef.h>

#include "problem.h"
#include "shared/heat/real.h"

struct heat_host {
	const struct heat_problem *p;
	heat_real *cur, *next;      /* the field and the next step: rows x nx each */
	unsigned *hist;             /* calcStats's counts, p->nbins */
};

/* cur and next of `rows` whole rows each, and hist, left uninitialised: the
 * stage fills them (omp and mpi by the threads that will use each row).
 * -1 if any could not be allocated; heat_host_free frees what was. */
int heat_host_alloc(struct heat_host *h, const struct heat_problem *p, size_t rows);
void heat_host_free(struct heat_host *h);
/* The end of a step swept into next: next becomes the field. */
void heat_host_swap(struct heat_host *h);
/* The same, on the whole field, with the heaters pinned in next first. */
void heat_host_pin_swap(struct heat_host *h);
/* A stage's fetch, for a state that begins with a struct heat_host holding
 * the whole field. */
int heat_host_fetch(void *ctx, int array, void *dst);

#endif
