/*
 * table_rows.h: the APOD table's rows, shared by the files that make it:
 * cmd_table.c runs the stages, table_judge.c holds each row to its bounds,
 * table_print.c prints the table and its verdicts, table_json.c writes them.
 */
#ifndef APOD_CLI_TABLE_ROWS_H
#define APOD_CLI_TABLE_ROWS_H

#include <json-c/json.h>

#include "cli.h"
#include "cpu/harness/bounds.h"
#include "cpu/harness/sol.h"
#include "cpu/harness/verify.h"
#include "spread.h"
#include "table_ranks.h"

#define APOD_TABLE_MAX_ROWS 32
/* The most runs of one stage --runs takes. */
#define APOD_TABLE_MAX_RUNS 50

/* Every timing of a stage's runs, the first the one verified. */
struct row_timings {
	int n;
	double total[APOD_TABLE_MAX_RUNS];
	double phase[APOD_TABLE_MAX_RUNS][APOD_MAX_PHASES];
	double device[APOD_TABLE_MAX_RUNS][APOD_MAX_PHASES];
};

struct row {
	const struct apod_stage *e;
	unsigned long long ports;  /* the phases it names in its ports, as bits */
	int chosen;                /* in --stages (the reference always is) */
	int ran;
	int available;             /* it could run here: its why says what became of it */
	char why[256];
	double cost;               /* wall seconds of its first run, its process included */
	struct row_timings t;
	struct apod_spread total_s, phase_s[APOD_MAX_PHASES];
	double total;              /* the median of its runs; so are phase[] and device[] */
	struct apod_bound b;
	int has_width;            /* the stage runs on threads (Amdahl's N is its width) */
	int width;
	struct apod_verdict v;
	int nphases;
	double phase[APOD_MAX_PHASES];
	long calls[APOD_MAX_PHASES];  /* occurrences of each phase */
	int has_device;
	double device[APOD_MAX_PHASES];
	double unattributed;      /* the host launching and waiting (with device times) */
	double compute_per_step;  /* the step and the probes, per step (device time where timed) */
	int has_busy;             /* --trace: the device's busy time per phase */
	double busy[APOD_MAX_PHASES], work[APOD_MAX_PHASES], busy_unattributed;
	double busy_per_step, work_per_step;
	double background;
	long snapshots;
	struct apod_sol sol;
	double bound;             /* the one bound printed: Amdahl at N, SoL, or their lower */
	int bound_kind;           /* BOUND_* */
	int above_bound;
	/* The verdicts, each sure (the whole interval beyond the bound) or not:
	 * the median beyond it, the interval straddling it (too noisy to tell). */
	unsigned long long faster_sure;       /* of sol.faster */
	unsigned long long undeclared_sure;   /* of b.undeclared_faster */
	int beyond_sure;                      /* the speedup's, beyond its bound */
	double speedup_lo, speedup_hi;        /* serial's interval over the stage's */
	int has_weak;             /* --ranks: a stage that runs across ranks */
	struct apod_table_weak weak;
};

enum { BOUND_NONE, BOUND_AMDAHL, BOUND_SOL, BOUND_LIMIT };

/* One table in the making. */
struct ladder {
	const struct apod_workload *wl;
	const void *params, *problem;
	const char *out;
	const struct apod_ladder_opts *o;
	struct row *rows;           /* nrows, rows[0] the reference */
	struct apod_run *runs;      /* each row's first run, its medians written in */
	int nrows;
	struct apod_sol_machine machine;
	const struct apod_sol_machine *m;   /* NULL: no speed of light (no_machine says why) */
	char no_machine[512];
	struct apod_ceilings_note {
		int have;
		char measured_at[32];
		double load;            /* -1: not recorded */
		int cores;
		char file[4096];
	} ceilings;
	struct apod_noise noise;
	double omp_total;
	double load_start, load_end;   /* the 1-minute load average (-1: unknown) */
	long cores;
	double repeat_seconds;      /* what the repeats took */
	int failed;
};

/* table_judge.c */
int apod_table_is_algorithm(const struct row *w);
/* The noise of each phase, then every row's bounds and how sure each
 * verdict is. */
void apod_table_judge(struct ladder *l);
/* 1 where the row has a verdict to print: broken, or too noisy to tell. */
int apod_table_suspect(const struct row *w, int reference);
/* 1 where that verdict is sure. */
int apod_table_sure(const struct row *w, int reference);
/* The host was busy: load above its cores, or serial's runs spread wide. */
int apod_table_busy(const struct ladder *l);

/* table_print.c: the table on stdout; returns the lines under it (the
 * host's state, the verdicts) to free, or NULL where they could not be kept. */
char *apod_table_print(const struct ladder *l);

/* table_json.c: the rows; notes (the lines under the table) go on the
 * reference's row. */
json_object *apod_table_rows_json(const struct ladder *l, const char *notes);

#endif
