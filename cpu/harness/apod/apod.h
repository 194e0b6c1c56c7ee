/*
 * apod/apod.h: the apod harness as a library.
 *
 * A program that ports its own serial code declares a workload
 * (apod/workload.h) and hands it to apod_main(), which gives that program
 * the whole `apod` command: the APOD table, run, verify, stages, bench,
 * assess, workloads, info.  Build against it with
 *
 *     cc -o myport main.c mywork.c $(pkg-config --cflags --libs apod)
 *
 * Library code never prints and never exits: a function that fails records
 * why with apod_fail() (a failure of the run: exit status 1) or
 * apod_usage_fail() (the user's mistake: exit status 2) and returns -1.
 */
#ifndef APOD_APOD_H
#define APOD_APOD_H

#include <stdio.h>

#include "workload.h"

#ifdef __cplusplus
extern "C" {
#endif

#define APOD_HARNESS_VERSION "0.2.0"

/* What libapod exports: the functions the installed headers declare with
 * APOD_API (defined in workload.h, which every installed header reaches
 * through this one), and nothing else: the library is built with hidden
 * visibility, so its internals can change without breaking a program
 * linked to it. */

enum {
	APOD_EXIT_OK = 0,
	APOD_EXIT_FAIL = 1,     /* the run failed: I/O, memory, verification */
	APOD_EXIT_USAGE = 2     /* the request was wrong: options, deck, sizes */
};

/* Record why something failed (printf-style); both return -1. */
APOD_API int apod_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
APOD_API int apod_usage_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The last message recorded, and the exit status it calls for. */
APOD_API const char *apod_failure(void);
APOD_API int apod_failure_status(void);

/* The shortest decimal text that reads back to v (for a custom parameter's
 * get(), so that report.json and the canonical deck stay readable). */
APOD_API int apod_format_real(char *buf, size_t len, double v);

/* The canonical deck of a parameter struct: every key of w's table, one
 * "key = value" line each, as a deck file would give them (caller frees;
 * NULL after apod_fail).  Two processes of one stage (MPI ranks) compare
 * theirs to check that they run the same deck. */
APOD_API char *apod_params_deck_text(const struct apod_workload *w, const void *params);

struct apod_ceilings;   /* apod/ceilings.h */

/* A subcommand a program adds to its apod command (e.g. `apod lab`). */
struct apod_command {
	const char *name;
	const char *help;                      /* one line for --help */
	int (*run)(int argc, char **argv);     /* argv[0] is the command's name; returns the exit status */
};

/* What a program built on the harness brings to it. */
struct apod_program {
	const char *name;                      /* the program, for messages ("apod") */
	const char *about;                     /* one line under --help's usage line */
	/* The workloads it knows, NULL-ended; the first is the default. */
	const struct apod_workload *const *workloads;
	/* Extra subcommands, ended by an entry whose name is NULL; may be NULL. */
	const struct apod_command *commands;
	/* Optional: `info`'s device section (returns 0; prints nothing where no
	 * device is).  A CUDA port's device_info and ceilings (below) come with
	 * apod/cuda_ceilings.cuh.  (A workload's own kernels for bench are its
	 * `kernels` member, apod/workload.h.) */
	int (*device_info)(FILE *f);
	/* Optional: the device's ceilings (apod/ceilings.h).  With measure 0,
	 * only name the device (c->device, c->device_id: the cache file is
	 * named by them); with 1, also measure c->r[APOD_CEIL_DEVICE], [H2D]
	 * and [D2H].  Where no device can be used: 0, with each of those
	 * resources' why.  -1 with apod_fail on a failure. */
	int (*ceilings)(struct apod_ceilings *c, int measure);
};

/* Check every workload of prog (a workload declaring nonsense is refused
 * here, with a message), then run the command line.  Returns the exit
 * status.  It and apod_workload_check are the command line's (defined in
 * cpu/cli/), declared here because every program's main() calls the one
 * and a workload's own tests the other. */
APOD_API int apod_main(int argc, char **argv, const struct apod_program *prog);

/* Validate one workload as apod_main does: 0, or -1 with the reason. */
APOD_API int apod_workload_check(const struct apod_workload *w);

/* The phases of w, numbered as a stage's mark() and device_seconds() see
 * them: how many there are, and the number of the phase called name (a
 * step phase, a probe, or one of the harness's APOD_PHASE_*_NAME), or -1.
 * For a stage whose device events treat some phases apart (those of the
 * step loop, say); the numbers are the harness's and may change between
 * revisions, the names do not. */
APOD_API int apod_phase_total(const struct apod_workload *w);
APOD_API int apod_phase_number(const struct apod_workload *w, const char *name);

#ifdef __cplusplus
}
#endif

#endif
