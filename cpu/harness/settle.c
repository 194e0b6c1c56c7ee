/*
 * settle.c: repeat best-of-N rounds until two agree (settle.h).
 */
#include <math.h>

#include "settle.h"

int apod_settle(double (*run)(void *ctx), void *ctx, int reps, int max_rounds, double agree,
                struct apod_settled *s)
{
	double prev = INFINITY;
	s->seconds = INFINITY;
	s->spread = INFINITY;
	s->rounds = 0;
	s->settled = 0;
	if (run(ctx) < 0)   /* the warm-up: caches, page faults, clocks */
		return -1;
	while (s->rounds < (max_rounds > 2 ? max_rounds : 2)) {
		double best = INFINITY;
		for (int r = 0; r < (reps > 0 ? reps : 1); r++) {
			double t = run(ctx);
			if (t < 0)
				return -1;
			if (t < best)
				best = t;
		}
		s->seconds = fmin(s->seconds, best);
		s->rounds++;
		if (s->rounds > 1) {
			s->spread = fabs(best - prev) / fmin(best, prev);
			/* A zero timing (a clock too coarse) agrees with nothing but itself. */
			if (s->spread <= agree || best == prev) {
				s->settled = 1;
				break;
			}
		}
		prev = best;
	}
	return 0;
}
