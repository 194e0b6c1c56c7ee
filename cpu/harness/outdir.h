/*
 * outdir.h: a results directory holds one run, whole (doc/results-dir.md).
 *
 * A run is written into a staging directory beside the target, made with
 * an unpredictable name (.DIR.apod-XXXXXX, mode 0700) and locked (flock)
 * for as long as the run lives.  Each file the run writes there is added to
 * the staging directory's manifest (manifest.h).  The commit seals the
 * manifest, checks the target again, and swaps the two directories in one
 * step (renameat2 RENAME_EXCHANGE) under a lock on the parent, then deletes
 * the previous run's files by the previous manifest, by file descriptor.
 * A target holding anything its manifest does not name is refused; what a
 * dead run left beside the target is finished or removed by the next run.
 */
#ifndef APOD_OUTDIR_H
#define APOD_OUTDIR_H

#include "manifest.h"

struct apod_outdir {
	char target[4096];            /* DIR, a symbolic link to it resolved */
	char parent[4096];            /* the directory that holds it */
	char staging[4096 + 64];      /* where the run writes */
	const char *base;             /* DIR's last component, within target */
	char stage_name[300];         /* staging's name within the parent */
	int parentfd, stagefd, manifestfd;
	struct apod_manifest written; /* what the run wrote into staging */
	int failed_note;              /* a file could not be recorded */
	int active;
};

/* Check the target, create its parents, finish what dead runs left beside
 * it, and make the staging directory (o->staging is where the run writes). */
int apod_outdir_begin(struct apod_outdir *o, const char *target);
/* Swap the staging directory in for the target. */
int apod_outdir_commit(struct apod_outdir *o);
/* Remove the staging directory; the target is left as it was. */
void apod_outdir_abort(struct apod_outdir *o);
/* Remove the results directory `name` within dirfd by its record: the
 * files its manifest names, the manifest, then the directory once empty;
 * never a link, another user's file, or anything the record does not name
 * (then -1, and it is left). 0 also where there is no such directory. */
int apod_outdir_remove(int dirfd, const char *name);

#endif
