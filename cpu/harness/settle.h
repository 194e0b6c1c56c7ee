/*
 * settle.h: a ceiling timed until it stops moving.
 *
 * A ceiling is what the machine can do, so each round keeps its fastest
 * timing (load only ever slows a run down), and rounds go on until two in a
 * row agree: one round on a machine that is busy for a moment would
 * otherwise be cached for good as what it can do.
 */
#ifndef APOD_SETTLE_H
#define APOD_SETTLE_H

/* Timings per round, most rounds, and how near two rounds must come. */
#define APOD_SETTLE_REPS 5
#define APOD_SETTLE_ROUNDS 4
#define APOD_SETTLE_AGREE 0.03

struct apod_settled {
	double seconds;   /* the fastest timing of every round */
	double spread;    /* |a - b| / min(a, b) of those two rounds */
	int rounds;       /* how many ran */
	int settled;      /* 1: the last two agreed within `agree` */
};

/* Time run(ctx) `reps` times a round (after one warm-up run, not kept),
 * at least two rounds and at most `max_rounds`, until two rounds in a row
 * agree within `agree`.  run returns its seconds, or < 0 on failure (its
 * reason already said by apod_fail).  Returns 0, or -1 if a run failed. */
int apod_settle(double (*run)(void *ctx), void *ctx, int reps, int max_rounds, double agree,
                struct apod_settled *s);

#endif
