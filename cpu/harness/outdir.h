/*
 * outdir.h: a results directory holds one run, whole.
 *
 * A run is written into a new directory beside the target
 * (TARGET.apod-PID.new) and swapped into place only when it succeeded, so
 * a failed or killed run leaves the previous results as they were, and a
 * finished run never leaves an older run's snapshots beside its own.  A
 * target that holds anything but apod results (report.json, *.npy, *.csv)
 * is refused rather than replaced.  Staging directories left by a killed
 * run are removed by the next run into the same target.
 */
#ifndef APOD_OUTDIR_H
#define APOD_OUTDIR_H

struct apod_outdir {
	char target[4096];
	char staging[4096 + 64];
	int active;
};

/* Check the target, create its parents, and make the staging directory
 * (o->staging is where the run writes). */
int apod_outdir_begin(struct apod_outdir *o, const char *target);
/* Swap the staging directory in for the target. */
int apod_outdir_commit(struct apod_outdir *o);
/* Remove the staging directory; the target is left as it was. */
void apod_outdir_abort(struct apod_outdir *o);

#endif
