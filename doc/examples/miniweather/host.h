/*
 * host.h: the state of a host stage (serial, omp) and what the two share:
 * create with the clock, the probe, the fetch and destroy (stages.c), and
 * the step each runs (stage_serial.c, stage_omp.c, from timestep.h).
 */
#ifndef MINIWEATHER_HOST_H
#define MINIWEATHER_HOST_H

#include "miniweather.h"

struct apod_clock;

struct mw_host {
	const struct mw_problem *pb;
	double *state, *state_tmp, *flux, *tend;
	/* The program's globals that its loop changes: the elapsed model
	 * time, the time step (shortened for the last step) and which
	 * direction goes first. */
	double etime, dt;
	int direction_switch;
	struct apod_clock *clock;
	int phase[MW_PHASES];     /* the clock's handles, found at create */
};

void *mw_host_create(const struct apod_stage *s, const void *problem, struct apod_clock *clock);
void mw_host_destroy(void *ctx);
int mw_host_probe(void *ctx, int k, long step, long row, void *const *rows);
int mw_host_fetch(void *ctx, int a, void *dst);
int mw_serial_advance(void *ctx, long step, long steps);
int mw_omp_advance(void *ctx, long step, long steps);

#endif
