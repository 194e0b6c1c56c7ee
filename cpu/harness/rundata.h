/*
 * rundata.h: what one run holds (its phase timers, its series and its
 * arrays) and the harness's numbering of a workload's phases, probes and
 * stages (rundata.c): shared by the loop (run.h), the results files, the
 * gate and the bounds, none of which needs the loop itself.
 */
#ifndef APOD_RUNDATA_H
#define APOD_RUNDATA_H

#include <stddef.h>

#include "apod/workload.h"

/* setup, the step's phases, the probes, writeSnapshot, fetchResults, writeReport */
#define APOD_MAX_PHASES (APOD_MAX_STEP_PHASES + APOD_MAX_PROBES + 4)

struct apod_series_data {
	int cols;
	long rows;
	long every;                   /* a row after every `every` steps */
	long *step;                   /* the step each row was taken after */
	/* The values, rows x cols in dtype (APOD_F64, or an integer type):
	 * one buffer, which v names as doubles where dtype is APOD_F64.
	 * apod_series_alloc_values chooses dtype; the harness reaches a value
	 * of either type through apod_series_row and apod_series_value. */
	enum apod_dtype dtype;
	union {
		void *values;
		double *v;
	};
};

struct apod_array_data {
	int ndim;
	size_t dims[2];
	size_t count;
	enum apod_dtype dtype;
	void *data;
};

struct apod_run {
	const struct apod_workload *w;
	char stage[32];
	int width;                    /* threads the stage used (Amdahl's N) */
	long steps;
	int nphases;
	double phase[APOD_MAX_PHASES];   /* wall-clock seconds per phase, over its occurrences */
	/* Occurrences per phase: what its declared work (per occurrence) is
	 * multiplied by.  A revision-4 stage's step phases run once a step; a
	 * stage with advance marks them as often as its step runs them. */
	long calls[APOD_MAX_PHASES];
	/* Seconds inside a stage's advance outside every region it marked
	 * (the step's own, unattributed); 0 for a stage without advance. */
	double unmarked;
	int has_device;               /* the stage timed its phases on the device too */
	double device[APOD_MAX_PHASES];  /* device seconds per phase (has_device) */
	/* With --trace (trace.h): per phase, the summed durations of the
	 * kernels, copies and memsets its calls issued (busy) and the time
	 * from the first of them starting to the last ending, summed over the
	 * phase's occurrences (work); and the durations of work issued outside
	 * every phase (the snapshot writer thread's downloads). */
	int has_busy;
	double busy[APOD_MAX_PHASES], work[APOD_MAX_PHASES];
	double busy_unattributed;
	double total;                 /* wall time, setup to report (the phases and the harness between them) */
	double background;            /* seconds the writer thread spent streaming
	                                 snapshots, overlapped with the phases */
	long snapshots;               /* snapshot files written */
	int nseries, narrays;
	struct apod_series_data *series;
	struct apod_array_data *arrays;
	/* The problem the run started from (apod_simulate's), for tolerances
	 * designed from it (apod_array.tolerance_of); NULL for a run read back
	 * from its files. */
	const void *problem;
};

/* The harness's table of w's phases (rundata.c), the only place that
 * numbers them: 0 setup, then the step's phases, the probes, writeSnapshot,
 * fetchResults and writeReport.  apod_phase_bit is phase i's bit in a
 * stage's ports mask (apod_stage_ports, parsed from its names). */
int apod_phase_count(const struct apod_workload *w);
int apod_step_phase_count(const struct apod_workload *w);
const char *apod_phase_name(const struct apod_workload *w, int i);
int apod_phase_of_step(const struct apod_workload *w, int j);
int apod_phase_of_probe(const struct apod_workload *w, int k);
int apod_phase_snapshot(const struct apod_workload *w);
int apod_phase_fetch(const struct apod_workload *w);
int apod_phase_report(const struct apod_workload *w);
/* The width of a column of w's phase names: the longest, at least min. */
int apod_phase_width(const struct apod_workload *w, int min);
unsigned long long apod_phase_bit(const struct apod_workload *w, int i);
/* A comma-separated list of phase names as a mask; -1 with the first name
 * that is no phase of w in bad. */
int apod_ports_parse(const struct apod_workload *w, const char *ports, unsigned long long *mask,
                     char *bad, size_t len);
unsigned long long apod_stage_ports(const struct apod_workload *w, const struct apod_stage *e);
int apod_probe_count(const struct apod_workload *w);
int apod_series_count(const struct apod_workload *w);
int apod_array_count(const struct apod_workload *w);
/* The probe called name (-1: none), and series i's probe. */
int apod_probe_index(const struct apod_workload *w, const char *name);
int apod_series_probe(const struct apod_workload *w, int i);
/* Probe k's every() (0 where it has none), and its rows in a run of
 * `steps` steps: one each every() steps, one at step 0 (APOD_AT_START) and
 * one at the end (APOD_AT_END) where every() does not fall on it. */
long apod_probe_every(const struct apod_workload *w, int k, const void *params);
long apod_probe_rows(const struct apod_workload *w, int k, const void *params, long steps);

/* A stage's width (Amdahl's N; 0 on a device) and whether it can run here
 * (0 with why: not in this build, or its own available() says no). */
int apod_stage_width(const struct apod_stage *e);
int apod_stage_available(const struct apod_stage *e, char *why, size_t len);

/* Allocate r's series and arrays for a run of w with these parameters
 * (zeroed), each array in its declared dtype.  Its calls are those of a
 * revision-4 stage's run without snapshots (apod_run_default_calls). */
int apod_run_alloc(struct apod_run *r, const struct apod_workload *w, const void *params);
/* The calls of a run that records none (a report.json written before
 * calls were kept): every step phase once a step, each probe its rows,
 * writeSnapshot r->snapshots, the rest once. */
void apod_run_default_calls(struct apod_run *r, const void *params);

/* Revision 5 members, read only where w's version has them: a stage that
 * runs the program's own step (advance), and how it is created. */
int apod_stage_advances(const struct apod_workload *w, const struct apod_stage *e);
struct apod_clock;
void *apod_stage_create(const struct apod_workload *w, const struct apod_stage *e,
                        const void *problem, struct apod_clock *clock);
/* The names in a comma-separated header list (a series' column_names), or
 * -1 where one of them is empty. */
int apod_column_names_count(const char *list);
void apod_run_free(struct apod_run *r);

/* Allocate a series' values (zeroed), as integers of t where t is one,
 * else as doubles: 0, or -1 out of memory. */
int apod_series_alloc_values(struct apod_series_data *d, enum apod_dtype t);
/* Row `row` of a series' values, in its own dtype, and value i as a
 * double (a drift's arithmetic). */
void *apod_series_row(const struct apod_series_data *d, long row);
double apod_series_value(const struct apod_series_data *d, size_t i);
/* "float" or "double": the precision of a run's arrays (the coarser). */
const char *apod_run_precision(const struct apod_run *r);

/* Where a run's time went, when its stage timed phases on the device:
 * apod_device_timed says whether phase i was (the step, the probes, the
 * snapshots and the fetch; not setup and not writeReport);
 * apod_attributed is its device time if so, else its host time; and
 * apod_unattributed what the total holds beyond them (the host launching
 * and waiting).  Without device times: host time, and 0. */
int apod_device_timed(const struct apod_run *r, int i);
double apod_attributed(const struct apod_run *r, int i);
double apod_unattributed(const struct apod_run *r);

/* A stage that runs as several processes (apod/workload.h):
 * apod_stage_reporter is 1 if this process reports (always, for a stage of
 * one process), 0 if it only takes part, -1 on failure; apod_stage_agree
 * is the stage's agree, or for a stage of one process just -1 if failed. */
int apod_stage_reporter(const struct apod_workload *w, const struct apod_stage *e);
int apod_stage_agree(const struct apod_workload *w, const struct apod_stage *e, int failed);

/* The stage of w that declares itself the host baseline (every core of
 * the host, APOD_ROLE_HOST_BASELINE), or NULL. */
const struct apod_stage *apod_stage_baseline(const struct apod_workload *w);

/* The stage of w called name, or NULL. */
const struct apod_stage *apod_stage_find(const struct apod_workload *w, const char *name);

#endif
