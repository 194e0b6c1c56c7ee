/*
 * cli.h: what the subcommands of `apod` share: the deck options, and the
 * runner that turns a deck into a problem and a problem into a run.
 */
#ifndef APOD_CLI_H
#define APOD_CLI_H

#include <getopt.h>
#include <stdio.h>

#include "deck.h"
#include "engine.h"
#include "problem.h"
#include "sim.h"

/* The options every command that runs the application accepts. */
struct apod_deck_opts {
	const char *deck;   /* --deck FILE */
	const char *size;   /* --size NXxNY */
	const char *steps;  /* --steps N */
};

enum { OPT_DECK = 1000, OPT_SIZE, OPT_STEPS, OPT_OUT, OPT_JSON, OPT_STAGE, OPT_HELP, OPT_REPS, OPT_KERNELS };

#define APOD_DECK_LONGOPTS                                   \
	{ "deck", required_argument, NULL, OPT_DECK },          \
	{ "size", required_argument, NULL, OPT_SIZE },          \
	{ "steps", required_argument, NULL, OPT_STEPS }

/* Handle a deck option; 1 if c was one, 0 if not. */
int apod_deck_opt(struct apod_deck_opts *o, int c, const char *arg);
/* Defaults, then the deck file, then --size and --steps; validated. */
int apod_deck_resolve(struct apod_deck *d, const struct apod_deck_opts *o);

/* The arguments of `apod run`. */
struct apod_run_args {
	struct apod_deck_opts deck;
	const char *stage, *out, *json;
};
/* Parse `apod run`'s arguments: 0 parsed, 1 help asked for, -1 a usage
 * error (recorded with apod_usage_fail).  Runs nothing. */
int apod_run_parse(int argc, char **argv, struct apod_run_args *a);

/* After getopt_long returned c, ':' (a value missing) or anything unknown:
 * record the usage error (apod_option_fail), or also print it and return
 * APOD_EXIT_USAGE (apod_option_error). */
int apod_option_fail(int c, char **argv);
int apod_option_error(const char *cmd, int c, char **argv);

/* Print "apod: message" for the last failure and return its exit status. */
int apod_report_failure(void);
/* Print a usage error with a hint, return APOD_EXIT_USAGE. */
int apod_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Run one stage, with the reason on failure; prints nothing. */
int apod_run_stage(const struct apod_engine *e, const struct apod_problem *p, const char *outdir,
                   struct apod_run *r);

/* The APOD table: every stage on p, verified against serial (cmd_table.c). */
#include <json-c/json.h>
int apod_ladder(const struct apod_deck *d, const struct apod_problem *p, const char *out,
                json_object **json_rows, double *serial_total);

int apod_cmd_run(int argc, char **argv);
int apod_cmd_bench(int argc, char **argv);
int apod_cmd_lab(int argc, char **argv);
int apod_cmd_table(int argc, char **argv);
int apod_cmd_verify(int argc, char **argv);
int apod_cmd_assess(int argc, char **argv);
int apod_cmd_info(int argc, char **argv);
int apod_cmd_stages(int argc, char **argv);

#endif
