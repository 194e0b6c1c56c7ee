/*
 * manifest.h: the record of what a run wrote into its results directory.
 *
 * A results directory holds a file .apod-manifest: a first line
 * "apod-manifest 1", the name of each file the run wrote, one per line, and
 * a last line "end" once the run is complete.  The names it lists are the
 * only things apod will ever delete there; anything else makes apod refuse
 * or keep the directory.  It is a file of its own rather than a list in
 * report.json so that it can grow as each file lands (a killed run's
 * staging directory is then still provably apod's) and so that verify's
 * format stays as it was.
 */
#ifndef APOD_MANIFEST_H
#define APOD_MANIFEST_H

#include <stddef.h>

#define APOD_MANIFEST ".apod-manifest"
#define APOD_MANIFEST_HEAD "apod-manifest 1\n"
#define APOD_MANIFEST_END "end\n"

struct apod_manifest {
	char **names;                 /* sorted once read, for lookups */
	int n, cap;
	int sealed;                   /* the "end" line was there */
};

/* Read dirfd's manifest: 0, or -1 with errno ENOENT where there is none and
 * EINVAL where it is not one (not a regular file, a bad line). */
int apod_manifest_read(int dirfd, struct apod_manifest *m);
int apod_manifest_add(struct apod_manifest *m, const char *name);
void apod_manifest_sort(struct apod_manifest *m);
int apod_manifest_has(const struct apod_manifest *m, const char *name);
void apod_manifest_free(struct apod_manifest *m);

/* Create dirfd's manifest (its first line written) with the given mode:
 * the file descriptor, or -1 with errno set. */
int apod_manifest_create(int dirfd, unsigned mode);
/* Add a line (a file's name, or "end" to seal it) to an open manifest, in
 * one write so that a kill leaves whole lines. */
int apod_manifest_append(int fd, const char *line);

/* 1 if name is one that apod_outfile uses while a file is being written. */
int apod_manifest_is_temporary(const char *name);

/* The first entry of dirfd that m does not account for (the manifest
 * itself, or a regular file owned by this user that it names; with
 * temporaries, also a temporary of apod_outfile), copied to odd: 1 if there
 * is one, 0 if none, -1 if the directory cannot be read. */
int apod_manifest_stray(int dirfd, const struct apod_manifest *m, int temporaries, char *odd,
                        size_t len);

/* Unlink, within dirfd, the regular files owned by this user that m names
 * (with temporaries, also apod_outfile's temporaries), then the manifest
 * itself; never a directory, a link or another user's file.  after_first,
 * if not NULL, runs after the first file is gone (a test's fault hook).
 * 0 when dirfd is left empty, 1 when something apod did not write is left
 * (named in odd), -1 on an error. */
int apod_manifest_clear(int dirfd, const struct apod_manifest *m, int temporaries,
                        void (*after_first)(void), char *odd, size_t len);

#endif
