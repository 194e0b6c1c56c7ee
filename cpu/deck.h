/*
 * deck.h: the input deck, a small "key = value" text file describing one run.
 *
 * Every key has a default (together they are the default deck, which is
 * also data/medium.deck), so a deck only names what it changes.  The same
 * setter serves the file parser and the command line's --size and --steps,
 * so both reject a bad value with the same message.
 */
#ifndef APOD_DECK_H
#define APOD_DECK_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define APOD_MAX_SOURCES 16
#define APOD_MAX_DIM     1048576   /* per side: keeps nx*ny*8 far from overflow */
#define APOD_MAX_STEPS   100000000L
#define APOD_MAX_BINS    4096
#define APOD_MAX_ZONES   256       /* per side */
#define APOD_MAX_TEMP    1e6

/* A heater: a disc of cells held at a fixed temperature.  Position and
 * radius are fractions of the grid, so a deck scales with --size. */
struct apod_source {
	double x, y, r, temp;
};

struct apod_deck {
	char name[64];
	size_t nx, ny;            /* columns, rows */
	long steps;
	double alpha;             /* diffusion number k*dt/h^2, stable up to 1/4 */
	double t_init;            /* interior at step 0 */
	double t_hot;             /* top edge, held fixed */
	double t_cold;            /* other three edges, held fixed */
	long summary_every;       /* calcSummaryData every K steps (0: never) */
	long snapshot_every;      /* snapshot every M steps (0: never) */
	int zones_x, zones_y;
	int hist_bins;
	int hist_range_set;       /* 0: the range is [lowest, highest temperature] */
	double hist_lo, hist_hi;
	int nsources;
	struct apod_source sources[APOD_MAX_SOURCES];
};

/* Fill d with the default deck. */
void apod_deck_defaults(struct apod_deck *d);

/* Set one key from its text value; on error records a usage failure that
 * starts with `where` (e.g. "deck.txt:12" or "--size") and returns -1. */
int apod_deck_set(struct apod_deck *d, const char *key, const char *value,
                  const char *where);

/* Read a deck file over the defaults already in d. */
int apod_deck_load(struct apod_deck *d, const char *path);

/* Cross-field checks (zones fit the grid, histogram range, memory). */
int apod_deck_validate(const struct apod_deck *d);

/* Largest |temperature| the run can reach (the maximum principle): the
 * scale of every absolute tolerance. */
double apod_deck_scale(const struct apod_deck *d);
double apod_deck_tmin(const struct apod_deck *d);
double apod_deck_tmax(const struct apod_deck *d);

/* Host bytes a run needs (fields and per-step statistics), or 0 on overflow. */
size_t apod_deck_run_bytes(const struct apod_deck *d);

#ifdef __cplusplus
}
#endif

#endif
