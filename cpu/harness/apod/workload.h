/*
 * apod/workload.h: the interface between the apod harness and a workload.
 *
 * A workload is a serial program ported stage by stage: its parameters, the
 * stages that implement it (the serial reference first), and what a run
 * produces.  It hands the harness one `struct apod_workload`; the harness
 * does the rest once for every workload: the main loop and its phase
 * timers, the deck and --KEY=VALUE parsing, results files, snapshots, the
 * verification gate, Amdahl's bounds, the APOD table, bench and assess.
 *
 * The harness's loop, for a stage S of workload W with problem P:
 *
 *     ctx = S->create(P)                                       phase "setup"
 *     for step = 1 .. W->steps(params):
 *         S->step(ctx)                                         W->step_phase
 *         for each probe k due at this step (every(params) divides step):
 *             S->probe(ctx, k, rows)                           W->probes[k].name
 *         if a snapshot is due: S->fetch or S->snapshot_*     "writeSnapshot"
 *     S->fetch(ctx, a, buffer) for every array a               "fetchResults"
 *     the harness writes the results files (with --out)        "writeReport"
 *     S->destroy(ctx)
 *
 * Every table below ends with an entry whose name is NULL.  Every function
 * returns 0 (or a pointer) on success, or -1 (NULL) after apod_fail() or
 * apod_usage_fail() (apod/apod.h) has recorded why; none prints or exits.
 *
 * Versioning, as SQLite's VFS does it: `version` says which revision of this
 * struct the workload was compiled against.  Later revisions only add
 * members at the end, so a workload built against version 1 keeps working;
 * the harness reads a member only where `version` says it exists.
 */
#ifndef APOD_WORKLOAD_H
#define APOD_WORKLOAD_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 1: the first revision.  2: struct apod_stage gained reporter and agree
 * (a stage that runs as several processes, such as MPI ranks).
 * 3: the machine and the shape of a program (see "revision 3" below each
 * struct): the work of every phase, for the speed of light; a stage's role
 * and where it runs; steps and probes told their index; probes whose rows
 * stay on the device until collected; integer outputs; workloads whose
 * outputs are series only; tolerances that see the problem; keys with a
 * list of choices; a workload's own kernel benchmark; constant column
 * counts as data.
 *
 * The element structs (apod_param, apod_array, apod_series) grew too: the
 * harness steps through a workload's tables with the size of the revision
 * it was compiled against, so a table built against revision 2 is read
 * with revision 2's element size (SQLite's szOsFile, in reverse). */
#define APOD_WORKLOAD_VERSION 3

/* ---- parameters: one key table gives the deck parser, the defaults, the
 * --KEY=VALUE options, the JSON in report.json both ways and the test that
 * two runs ran the same deck. ---------------------------------------------- */

enum apod_param_type {
	APOD_PARAM_INT,     /* long: a whole number in [lo, hi] */
	APOD_PARAM_REAL,    /* double: a finite number in [lo, hi] ((lo, hi] with lo_open) */
	APOD_PARAM_PAIR,    /* long[2]: "AxB", each in [lo, hi] (e.g. size = 2048x1024) */
	APOD_PARAM_NAME,    /* char[APOD_NAME_MAX]: letters, digits, '-' and '_' */
	APOD_PARAM_CUSTOM,  /* parsed and formatted by the workload's own set and get */
	APOD_PARAM_CHOICE   /* revision 3. int: the index of one of `choices` */
};

#define APOD_NAME_MAX 64

struct apod_param {
	const char *key;
	enum apod_param_type type;
	/* The default, as it would be written in a deck.  A repeating key may
	 * have several, separated by ';'; NULL: none (a repeating key empty). */
	const char *def;
	double lo, hi;
	int lo_open;                /* REAL: lo itself is refused */
	const char *range_why;      /* appended to the out-of-range message */
	size_t offset;              /* of the value in the parameter struct */
	/* One line for `apod workloads`; a PAIR's starts with its form, which the
	 * message for a malformed value quotes ("NXxNY, grid columns x rows"). */
	const char *help;
	/* 1 if the key cannot change a result (a run's name, how often it is
	 * snapshotted): two runs that differ only there are still comparable. */
	int neutral;

	/* APOD_PARAM_CUSTOM only.  set parses one value; a key that repeats
	 * (repeats = 1) gets one call per line, after a reset before the first
	 * line of a deck or of the command line.  get writes the i-th value as
	 * deck text and returns 1, or returns 0 past the last one (a key that
	 * only acts, like "sources = none", returns 0 at once). */
	int repeats;
	int (*set)(void *params, const char *value, const char *where);
	int (*get)(const void *params, int i, char *buf, size_t len);
	void (*reset)(void *params);

	/* ---- revision 3 ----
	 * APOD_PARAM_CHOICE only: the names it accepts, NULL-ended; the value
	 * is stored as the int index of the name given.  `apod workloads`
	 * lists them, and a wrong name is refused with the list. */
	const char *const *choices;
};

/* ---- what a run produces ----------------------------------------------- */

/* How the gate compares one output of a stage with the serial reference. */
enum apod_compare {
	APOD_COMPARE_EXACT,   /* bit for bit */
	APOD_COMPARE_CLOSE,   /* |got - want| <= atol + rtol*|want|, element by element */
	APOD_COMPARE_ULP,     /* at most `ulps` units in the last place (float grid) */
	APOD_COMPARE_COUNTS,  /* rows of counts (histograms): each row's totals equal
	                         `total` on both sides, and sum |got - want| <= frac*total */
	APOD_COMPARE_DRIFT    /* an invariant: in each run on its own, every row stays
	                         within atol + rtol*|first row| of the first row */
};

/* Tolerances, designed from the parameters by the workload's hook: `any_float`
 * is 1 when either side was computed in single precision.  The hook fills
 * what its comparison reads and may leave the rest zero. */
struct apod_tol {
	double atol, rtol;
	long long ulps;
	double frac, total;
};

/* The element types of outputs.  Revision 3 adds the integers (.npy '<i4',
 * '<i8', '<u8'), compared exactly or by absolute difference in integers,
 * never through a double. */
enum apod_dtype { APOD_F32, APOD_F64, APOD_I32, APOD_I64, APOD_U64 };

/* An array the stages hold: fetched at the end (NAME.npy), and optionally
 * snapshotted every snapshot_every(params) steps (SNAPSHOT_NNNNNNNNN.npy). */
struct apod_array {
	const char *name;
	enum apod_dtype dtype;
	/* The shape: returns the number of dimensions, 1 or 2 (rows, columns). */
	int (*shape)(const void *params, size_t dims[2]);
	const char *snapshot;       /* file prefix of the snapshots; NULL: none */
	enum apod_compare compare;
	void (*tolerance)(const void *params, int any_float, struct apod_tol *t);

	/* ---- revision 3 ----
	 * Optional, in place of tolerance: the tolerance designed from the
	 * problem too (the data a stage starts from), where the right bound
	 * depends on it.  `apod verify` builds the problem from the deck in
	 * report.json to call it. */
	void (*tolerance_of)(const void *params, const void *problem, int any_float,
	                     struct apod_tol *t);
};

/* An observation phase: after every every(params)-th step the harness asks
 * the stage to fill one row of each series the probe owns, and times it
 * under the probe's name. */
struct apod_probe {
	const char *name;                      /* the phase, e.g. "computeEnergy" */
	long (*every)(const void *params);     /* 0: never */
};

/* A per-step table (NAME.csv: a "step" column, then the values). */
struct apod_series {
	const char *name;
	int probe;                             /* index into the workload's probes */
	int (*columns)(const void *params);    /* values per row */
	/* Column headers: a comma-separated list, or NULL to number them after
	 * column_prefix ("bin" gives bin0, bin1, ...). */
	const char *column_names;
	const char *column_prefix;
	int integer;                           /* whole numbers (counts): printed as such */
	enum apod_compare compare;
	/* Per column (COUNTS and DRIFT: column 0 for the whole row). */
	void (*tolerance)(const void *params, int any_float, int column, struct apod_tol *t);

	/* ---- revision 3 ----
	 * ncolumns: the number of values per row where it is a constant (then
	 * columns may be NULL).  dtype: APOD_I32, APOD_I64 or APOD_U64 for
	 * integer values, kept and compared as integers (a probe then fills
	 * them through probe_at or probe_collect, whose rows are typed);
	 * APOD_F64, or 0, for doubles.  tolerance_of: as the array's. */
	int ncolumns;
	enum apod_dtype dtype;
	void (*tolerance_of)(const void *params, const void *problem, int any_float, int column,
	                     struct apod_tol *t);
};

/* ---- stages ------------------------------------------------------------ */

/* The phases a stage changes from the serial reference: every phase it
 * makes faster (or slower) must be declared, not only the compute.  The
 * bound on its speedup (Amdahl's law) counts the serial run's time in
 * exactly these, and the table checks the claim: a stage that is faster
 * than serial in a phase it did not declare is reported, since the bound
 * then no longer holds.  writeReport (the results files) is the harness's
 * own and no stage changes it. */
#define APOD_PORTS_SETUP     (1u << 0)
#define APOD_PORTS_STEP      (1u << 1)
#define APOD_PORTS_PROBE(k)  (1u << (2 + (k)))       /* k < APOD_MAX_PROBES */
#define APOD_PORTS_FETCH     (1u << 28)              /* fetchResults: the arrays at the end */
#define APOD_PORTS_SNAPSHOT  (1u << 29)
#define APOD_PORTS_REPORT    (1u << 30)
#define APOD_MAX_PROBES      16

struct apod_stage {
	const char *name;
	const char *about;                     /* one line for `apod stages` */
	unsigned ports;                        /* APOD_PORTS_* */

	/* 1 if the stage can run here; else 0 with the reason in why. */
	int (*available)(char *why, size_t len);
	/* Threads it runs on (Amdahl's N); 0 where there is no such count (a GPU). */
	int (*width)(void);

	void *(*create)(const void *problem);
	int (*step)(void *ctx);
	/* Fill rows[i] (columns(params) doubles) for every series i of probe k;
	 * rows[i] is NULL for the series of other probes. */
	int (*probe)(void *ctx, int k, double *const *rows);
	/* Copy array a's current values into dst (in the array's dtype). */
	int (*fetch)(void *ctx, int a, void *dst);
	void (*destroy)(void *ctx);

	/* Optional, both or neither: snapshots that overlap the steps.
	 * snapshot_begin takes a copy of array a and returns at once;
	 * snapshot_stream, called on the harness's writer thread, hands that
	 * copy to sink in order, chunk by chunk.  The harness never begins a
	 * snapshot while the previous one is streaming. */
	int (*snapshot_begin)(void *ctx, int a);
	int (*snapshot_stream)(void *ctx, int (*sink)(const void *chunk, size_t bytes, void *arg),
	                       void *arg);

	/* Optional, both or neither: device time per phase, for a stage whose
	 * calls return before the device has done the work (the host clocks
	 * then time launches, and the wait lands in whichever phase syncs).
	 * The harness calls mark(ctx, phase, 0) before and mark(ctx, phase, 1)
	 * after each call it times (phase: the index apod_phase_name counts:
	 * 1 the step, 2.. the probes, then writeSnapshot and fetchResults), and
	 * device_seconds(ctx, seconds, nphases) before destroy, to add the
	 * device time of each phase (CUDA events on the stage's stream, say). */
	int (*mark)(void *ctx, int phase, int end);
	int (*device_seconds)(void *ctx, double *seconds, int nphases);

	/* ---- revision 2: read only where the workload's version >= 2 ----
	 *
	 * Optional, both or neither: a stage that runs as several processes at
	 * once (MPI ranks under mpirun), each running apod with the same
	 * arguments and holding part of the problem.  The harness stays free of
	 * the library that connects them; it only asks the stage two things.
	 *
	 * reporter: 1 if this process is the one that reports (prints the
	 * table, writes the results files and the JSON), 0 if it only takes
	 * part, or -1 after apod_fail() if the processes cannot be started.
	 * The harness calls it once, before create, and only for the stage that
	 * is about to run: it is where the stage may start its processes' link.
	 *
	 * agree: a collective call, made on every process at the same point with
	 * whether this process failed there.  It returns 0 where none did; else
	 * -1 on every process, with the first failure's reason recorded (by
	 * apod_fail or apod_usage_fail, as the failing process recorded it).
	 * The harness calls it after each thing the reporter does alone (making
	 * the results directory, writing a snapshot or the results, committing
	 * them), so that no process waits in a collective for one that gave up.
	 *
	 * The stage's own calls (create, step, probe, fetch) are made on every
	 * process in the same order, and each must agree before it returns: 0
	 * everywhere or -1 everywhere.  fetch need fill dst only on the
	 * reporter.  Such a stage does not stream snapshots (no snapshot_begin). */
	int (*reporter)(void);
	int (*agree)(int failed);

	/* ---- revision 3: read only where the workload's version >= 3 ----
	 *
	 * role: what the harness may take this stage for (APOD_ROLE_*).  The
	 * table quotes every speedup against the HOST_BASELINE stage as well as
	 * serial, and `apod scale` scales that stage over threads.  The first
	 * stage is the reference whatever it says.
	 *
	 * runs_on: where the phases it ports run (APOD_RUNS_*), so the speed of
	 * light of each uses that resource's measured ceilings.  0: where
	 * width says (threads: the host's cores; 0: a device). */
	unsigned role;
	unsigned runs_on;

	/* Optional, in place of step: told which step this is (1 .. steps) and
	 * how many there are.  A program with no time loop cuts its work into
	 * `steps` batches and does batch `step` here (doc/porting.md). */
	int (*step_at)(void *ctx, long step, long steps);

	/* Optional, in place of probe: told the step, and rows[i] in series i's
	 * dtype (doubles unless the series asks for integers). */
	int (*probe_at)(void *ctx, int k, long step, void *const *rows);

	/* Optional, all three or none: deferred probes, for a stage whose
	 * probes are computed on a device, so that no step waits for the host.
	 * In place of probe, the harness calls probe_defer(ctx, k, step, row):
	 * issue probe k's work for row `row` of its series (counted from 0) and
	 * return without waiting; the stage keeps the row where it was
	 * computed.  It holds up to defer_rows rows a probe (a constant); before
	 * a probe would have more pending, before every snapshot and at the
	 * end, the harness calls probe_collect(ctx, k, first, count, rows): wait
	 * for the pending rows first .. first+count-1 and write them into
	 * rows[i], count rows of series i's width one after another, typed as
	 * in probe_at (rows[i] NULL for the series of other probes).  Both are
	 * timed as probe k's phase.  The stage numbers its buffers row %
	 * defer_rows: rows are collected in order, each once. */
	long defer_rows;
	int (*probe_defer)(void *ctx, int k, long step, long row);
	int (*probe_collect)(void *ctx, int k, long first, long count, void *const *rows);
};

/* Roles (revision 3). */
#define APOD_ROLE_PORT           0u   /* a stage like any other */
#define APOD_ROLE_HOST_BASELINE  1u   /* every core of the host: the honest parallel baseline */

/* Where a stage's ported phases run (revision 3), for the speed of light. */
#define APOD_RUNS_HOST_CORE   (1u << 0)   /* one core of the host */
#define APOD_RUNS_HOST_CORES  (1u << 1)   /* all the host's cores (width threads) */
#define APOD_RUNS_DEVICE      (1u << 2)   /* a GPU */
/* The state stays on the host: every occurrence of a ported phase carries
 * its data across the bus (struct apod_work's h2d and d2h bytes). */
#define APOD_RUNS_OVER_BUS    (1u << 3)

/* ---- the work of a phase (revision 3): the speed of light ----------------
 *
 * What one occurrence of a phase must do whatever the stage, as a function
 * of the parameters: the algorithm's compulsory minimum, not what a given
 * stage happens to move.  The harness divides each figure by the ceiling
 * measured on the machine the stage runs on (`apod ceilings`) and takes the
 * largest: that phase's speed of light. */
/* The phases, as work() and the device marks number them, for a workload
 * with `nprobes` probes. */
#define APOD_PHASE_SETUP             0
#define APOD_PHASE_STEP              1
#define APOD_PHASE_PROBE(k)          (2 + (k))
#define APOD_PHASE_SNAPSHOT(nprobes) (2 + (nprobes))
#define APOD_PHASE_FETCH(nprobes)    (3 + (nprobes))
#define APOD_PHASE_REPORT(nprobes)   (4 + (nprobes))

struct apod_work {
	double bytes;       /* that must cross main memory: each input read once, each output written once */
	double flops32;     /* FP32 operations, an FMA counting two */
	double flops64;     /* FP64 operations, likewise */
	double special;     /* special-function evaluations (exp, log, sin, rsqrt...) where they dominate */
	/* Bytes a stage that keeps the state on the host (APOD_RUNS_OVER_BUS)
	 * must carry to the device and back for one occurrence. */
	double h2d_bytes, d2h_bytes;
};

/* ---- the workload ------------------------------------------------------ */

struct apod_workload {
	int version;                           /* APOD_WORKLOAD_VERSION */
	const char *name;                      /* [a-z0-9_]+, for --workload=NAME */
	const char *about;                     /* one line for `apod workloads` */

	size_t params_size;                    /* bytes of the parameter struct */
	const struct apod_param *params;
	/* Checks across keys, after every key was set (a usage error if not). */
	int (*check)(const void *params);
	long (*steps)(const void *params);
	long (*snapshot_every)(const void *params);   /* may be NULL: never */
	/* The name a deck gives itself (for the table's heading); may be NULL. */
	const char *(*title)(const void *params);

	/* The problem every stage starts from, built once on the host. */
	void *(*problem_create)(const void *params);
	void (*problem_destroy)(void *problem);

	const char *step_phase;                /* the name of one step's phase */
	const struct apod_probe *probes;
	/* At least one before revision 3; from revision 3 it may be NULL (or
	 * end at once) where the outputs are series only. */
	const struct apod_array *arrays;
	const struct apod_series *series;
	const struct apod_stage *const *stages;   /* ladder order, "serial" first, NULL-ended */

	/* Optional: grow the problem by a whole factor (the work per step
	 * times factor), for weak scaling (`apod scale`): 0, or -1 with a
	 * usage failure where the grown problem would not fit. */
	int (*grow)(void *params, int factor);

	/* ---- revision 3: read only where version >= 3 ----
	 *
	 * work: optional.  Fill w with one occurrence's work of phase `phase`
	 * (the index apod_phase_name counts: 0 setup, 1 the step, 2 + k probe
	 * k, then writeSnapshot, fetchResults, writeReport) and return 1, or
	 * return 0 where the phase has no declared work (its time then counts
	 * as measured, and it gets no speed of light).
	 *
	 * kernels: optional.  `apod bench --kernels`: time the workload's own
	 * kernels, one row each, beside the ceilings they answer to.  0; 1 where
	 * they cannot run here (no GPU, no CUDA in the build), the reason
	 * recorded with apod_fail; -1 after apod_fail on a failure.  json is a
	 * json-c object to add a "kernels" array to.  NULL: the workload has no
	 * kernels to time. */
	int (*work)(const void *params, int phase, struct apod_work *w);
	int (*kernels)(const void *problem, int reps, void *json);
};

#ifdef __cplusplus
}
#endif

#endif
