/*
 * cli.h: what the subcommands of the apod command share: the program
 * (its workloads and hooks), the deck options every command that runs a
 * workload accepts, and the helpers that print usage errors.
 */
#ifndef APOD_CLI_H
#define APOD_CLI_H

#include <getopt.h>
#include <json-c/json.h>
#include <stdio.h>

#include "apod/apod.h"
#include "apod/command.h"
#include "cpu/harness/json_file.h"
#include "cpu/harness/run.h"

/* The program apod_main was called for: set once, before any command runs
 * (common.c says why it is not passed). */
extern const struct apod_program *apod_prog;

/* The most --KEY=VALUE options one command line may give. */
#define APOD_MAX_SETS 64

/* The deck options: --workload=NAME, --deck=FILE, and --KEY=VALUE for every
 * key of the workload, applied in the order given after the deck; and
 * --trace, which a command that runs stages may take. */
struct apod_deck_opts {
	const struct apod_workload *w;
	const char *deck;
	int nsets;
	const char *key[APOD_MAX_SETS];
	const char *value[APOD_MAX_SETS];
	int trace;
};

enum {
	OPT_DECK = 1000, OPT_WORKLOAD, OPT_OUT, OPT_JSON, OPT_STAGE, OPT_HELP, OPT_REPS,
	OPT_KERNELS, OPT_TRACE,
	OPT_CEILINGS,               /* --ceilings=FILE: table, run, bench and `apod ceilings` */
	OPT_ANY_DECK,
	OPT_NO_SNAPSHOTS,           /* run: the table's own runs, in a process each */
	OPT_ABBREV,                 /* apod_getopt: an option given by a prefix of its name */
	OPT_REVERSE,                /* table: the stages run in reverse order, serial last */
	OPT_RUNS, OPT_BUDGET, OPT_STAGES,   /* table, bench, report: how the stages run */
	OPT_PARAM = 2000            /* + the key's index in the workload's table */
};

/* The long options several commands take, each said once (its name, its
 * value, its code), so that a command's table is the list of their names:
 * `{ APOD_OPT_JSON, APOD_OPT_HELP, APOD_OPT_END }`. */
#define APOD_OPT_OUT       { "out", required_argument, NULL, OPT_OUT }
#define APOD_OPT_JSON      { "json", required_argument, NULL, OPT_JSON }
#define APOD_OPT_STAGE     { "stage", required_argument, NULL, OPT_STAGE }
#define APOD_OPT_REPS      { "reps", required_argument, NULL, OPT_REPS }
#define APOD_OPT_KERNELS   { "kernels", no_argument, NULL, OPT_KERNELS }
#define APOD_OPT_CEILINGS  { "ceilings", required_argument, NULL, OPT_CEILINGS }
#define APOD_OPT_TRACE     { "trace", no_argument, NULL, OPT_TRACE }
#define APOD_OPT_WORKLOAD  { "workload", required_argument, NULL, OPT_WORKLOAD }
#define APOD_OPT_HELP      { "help", no_argument, NULL, OPT_HELP }
#define APOD_OPT_END       { NULL, 0, NULL, 0 }

/* apod_getopt (apod/command.h) returns OPT_ABBREV for a refused prefix. */

/* The workload named by --workload in argv (either form), else the
 * program's default; NULL after a usage failure (unknown workload). */
const struct apod_workload *apod_cli_workload(int argc, char **argv);
/* A getopt_long table: the command's own options, then --workload, --deck
 * and every key of w, ended by a zero entry.  Free it with free(). */
struct option *apod_longopts(const struct apod_workload *w, const struct option *own);
/* Handle a deck option; 1 if c was one, 0 if not, -1 on a usage error. */
int apod_deck_opt(struct apod_deck_opts *o, int c, const char *arg);
/* Defaults, then the deck file, then the --KEY options; checked.  *params
 * is the workload's parameter struct (free with free()). */
int apod_deck_resolve(void **params, const struct apod_deck_opts *o);
/* The options as arguments to pass on to another apod (assess's profiling
 * build): --workload, --deck (absolute), each --KEY=VALUE.  Returns how
 * many were written to args (each to free). */
int apod_deck_args(const struct apod_deck_opts *o, char **args, int max);
/* The heading of a run on params, resolved from o: the workload's title
 * ("medium: 2048x2048 ..."), and what the command line changed. */
void apod_deck_title(const struct apod_deck_opts *o, const void *params, char *buf, size_t len);

/* Parse a command's arguments: --workload, --deck, every --KEY=VALUE,
 * --trace (into dopt->trace) and the command's own options (own, handled
 * by own_opt, which returns 0 or -1 after apod_usage_fail).  0 parsed, 1 help asked for, -1 a failure
 * recorded (apod_command_error prints it).  Runs nothing. */
int apod_deck_command(int argc, char **argv, const struct option *own,
                      struct apod_deck_opts *dopt,
                      int (*own_opt)(int c, const char *arg, void *ctx), void *ctx);
/* Print the failure a command's parse recorded, as a usage error where it
 * was the user's; return its exit status. */
int apod_command_error(const char *cmd);

/* What every run of one command takes from its command line.  The command
 * owns it (in its options) and hands it to what runs its stages and finds
 * the ceilings their speed of light is held to. */
struct apod_run_opts {
	const char *ceilings;   /* --ceilings=FILE; NULL: APOD_CEILINGS, else this machine's */
	unsigned flags;         /* APOD_SIM_ flags of every run: --trace, run's --no-snapshots */
};

/* The arguments of `apod run`. */
struct apod_run_args {
	struct apod_deck_opts deck;
	const char *stage, *out, *json;
	struct apod_run_opts run;   /* --ceilings=FILE; --no-snapshots: results only, as the
	                               table runs */
};
/* `apod run`'s own options (its entry, cmd_run.c, names them). */
extern const struct option apod_run_options[];
/* Parse `apod run`'s arguments: 0 parsed, 1 help asked for, -1 a usage
 * error (recorded with apod_usage_fail).  Runs nothing. */
int apod_run_parse(int argc, char **argv, struct apod_run_args *a);

/* After getopt_long returned c, ':' (a value missing), OPT_ABBREV or anything unknown:
 * record the usage error (apod_option_fail), or also print it and return
 * APOD_EXIT_USAGE (apod_option_error). */
int apod_option_fail(int c, char **argv);
/* apod_option_error: apod/command.h. */

/* --OPT=ARG, a whole number from lo to hi (within int), into *v; 0, or -1
 * after a usage failure naming the option. */
int apod_opt_count(const char *opt, const char *arg, long lo, long hi, int *v);

/* apod_report_failure and apod_usage_error: apod/command.h. */

/* --trace (run, the table, bench): load CUPTI now, before the first CUDA
 * call, so that every run given APOD_SIM_TRACE is traced (trace.h); 0, or
 * -1 with the reason. */
int apod_cli_trace_begin(void);

/* The ceilings for the speed of light (machine.c): ceilings is the file
 * --ceilings named (NULL: none).  0; -1 with why where there are none (no
 * device measured, say); -2 where the file the user named is unreadable, a
 * usage failure recorded. */
struct apod_sol_machine;
int apod_cli_machine(const char *ceilings, struct apod_sol_machine *m, char *why, size_t len);
struct apod_ceilings;
/* The same, and the ceilings themselves into c (when it returns 0). */
int apod_cli_machine_ceilings(const char *ceilings, struct apod_sol_machine *m,
                              struct apod_ceilings *c, char *why, size_t len);

/* Run one stage (it must be available) with the APOD_SIM_ flags, writing
 * its results into out (a results directory swapped in whole) when out is
 * not NULL.  *reports (where not NULL): 1 unless this process only takes
 * part in a stage of several processes (apod/workload.h), where it prints
 * nothing, its failures included: every process learns the same one. */
int apod_run_stage(const struct apod_workload *w, const struct apod_stage *e, const void *params,
                   const void *problem, const char *out, unsigned flags, struct apod_run *r,
                   int *reports);

/* How the table runs its stages: the options table, bench and report share. */
struct apod_ladder_opts {
	int reverse;        /* --reverse: serial last (their order must not change their times:
	                       each runs in a process of its own) */
	int ranks;          /* --ranks=N: under each row of a stage that runs across ranks, its
	                       weak scaling at N ranks under mpirun (table_ranks.h); 0: none */
	const struct apod_mpirun *mpirun;
	int runs;           /* --runs=N: the most runs of each stage (0: the default) */
	double budget;      /* --budget=SECONDS: the most the runs after the first may add
	                       (< 0: the default) */
	const char *stages; /* --stages=LIST: the stages to run (serial always); NULL: all */
	struct apod_run_opts run;   /* --ceilings=FILE, --trace */
	const char *title;  /* the deck's heading (apod_deck_title); NULL: the workload's own */
};
/* Defaults: every stage, APOD_SPREAD_RUNS runs, the default budget. */
void apod_ladder_opts_init(struct apod_ladder_opts *o);
/* --runs, --budget, --stages and --ceilings into o: 0, -1 after a usage failure, 1 when
 * c is none of them. */
int apod_ladder_opt(struct apod_ladder_opts *o, int c, const char *arg);
/* Whether --stages's list names stage e (NULL: none), every name in it
 * being a stage of w: 0 or 1; -1 after a usage failure that names w's
 * stages.  apod_cmd_open checks the list so, before a command starts. */
int apod_ladder_stages_named(const struct apod_workload *w, const char *list,
                             const struct apod_stage *e);
#define APOD_OPT_LADDER \
	{ "runs", required_argument, NULL, OPT_RUNS }, \
	{ "budget", required_argument, NULL, OPT_BUDGET }, \
	{ "stages", required_argument, NULL, OPT_STAGES }

/* The APOD table: every stage on the problem (those of o->stages), verified
 * against serial, each against its bound and its speed of light
 * (cmd_table.c).  Rows go to *json_rows if not NULL.  0 if every stage that
 * ran passed; -1 if one did not; -2 before anything ran, where the ceilings
 * file the user named cannot be read or --stages names no stage (a usage
 * failure recorded, for the caller to report). */
int apod_ladder(const struct apod_workload *w, const void *params, const void *problem,
                const char *out, const struct apod_ladder_opts *o, json_object **json_rows,
                double *serial_total);

void apod_print_phases(FILE *f, const struct apod_run *r);

/* `apod run`'s speed of light (run_sol.c): stage e's run r, as
 * apod_sol_eval gave it with no serial run beside it; printed after its
 * phases, and in its report as "speed_of_light" (why_not where none). */
struct apod_sol;
void apod_run_sol_print(FILE *f, const struct apod_run *r, const struct apod_stage *e,
                        const struct apod_sol *sol);
/* The speed of light as JSON, the same for `run`'s report and the
 * table's rows: the bound, the share reached, the step loop's, and each
 * phase's (why_not where there is none). */
json_object *apod_sol_json(const struct apod_run *r, const struct apod_sol *sol);

/* A JSON report's head, as table, bench and scale write it: the workload,
 * its params and the host's cores. */
json_object *apod_json_head(const struct apod_workload *w, const void *params);


/* apod_main's end: stdout flushed and checked, so that output lost to a
 * full disk or a closed pipe is a failure (exit 1), not a silent success. */
int apod_close_stdout(int status);

#endif
