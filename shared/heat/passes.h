/*
 * passes.h: which steps one temporally blocked pass of gpu5 fuses
 * (gpu/heat/temporal.cu), kept free of CUDA so that a host test can run
 * the plan over whole runs.
 */
#ifndef APOD_HEAT_PASSES_H
#define APOD_HEAT_PASSES_H

#include <limits.h>

/*
 * The next pass of a run whose field is at step `done`: returns its depth
 * and sets *stats to whether it computes the statistics, or returns 0 if
 * no step is left before `until`.
 *
 * It ends no later than step `until` (the next step that wants the field).
 * Every step that is a multiple of stats_every (0: none) falls in a pass
 * with statistics: such a pass starts on a statistics step and ends on the
 * last statistics step within stats_depth steps, so with statistics every
 * step each pass is stats_depth deep.  Between statistics steps the sweep
 * alone fuses up to sweep_depth steps, up to the step before the next one.
 */
static inline int heat_next_pass(int stats_depth, int sweep_depth, long done, long until,
                                 long stats_every, int *stats)
{
	long room = until - done, next_stats, d;
	if (room < 1)
		return 0;
	next_stats = stats_every > 0 ? (done / stats_every + 1) * stats_every : LONG_MAX;
	if (next_stats == done + 1) {
		d = room < stats_depth ? room : stats_depth;
		*stats = 1;
		return (int)(1 + (d - 1) / stats_every * stats_every);
	}
	d = room < sweep_depth ? room : sweep_depth;
	if (next_stats - 1 - done < d)
		d = next_stats - 1 - done;
	*stats = 0;
	return (int)d;
}

#endif
