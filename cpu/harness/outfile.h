/*
 * outfile.h: output files that appear whole or not at all.
 *
 * Everything apod writes goes to a temporary file in the destination's own
 * directory and is renamed over the final name only after every byte was
 * written and flushed; a crash, a full disk or a verification failure
 * leaves the user's previous file, never half of a new one.
 */
#ifndef APOD_OUTFILE_H
#define APOD_OUTFILE_H

#include <stdio.h>

struct apod_outfile {
	FILE *f;
	char path[4096];
	char tmp[4096];
};

int apod_outfile_open(struct apod_outfile *o, const char *path);
/* Flush, close and rename into place; on failure the temporary is removed. */
int apod_outfile_commit(struct apod_outfile *o);
/* Close and remove the temporary (safe to call after a failed commit). */
void apod_outfile_abort(struct apod_outfile *o);

/* fn(path, arg) runs in apod_outfile_commit just before a file is renamed
 * into place (from any thread; fn serialises itself), and a non-zero return
 * (errno set) fails that commit; NULL stops it.  The results directory
 * records what a run wrote with it (outdir.h). */
void apod_outfile_on_commit(int (*fn)(const char *path, void *arg), void *arg);

/* Create dir and its parents as needed; fail if it exists as a non-directory. */
int apod_mkdirs(const char *dir);

#endif
