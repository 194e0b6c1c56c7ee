/*
 * apod/workload.h: the interface between the apod harness and a workload.
 *
 * A workload is a serial program ported stage by stage: its parameters, the
 * phases of one step, what it observes and produces, and the stages that
 * implement it (the serial reference first).  It hands the harness one
 * `struct apod_workload`; the harness does the rest once for every
 * workload: the main loop and its phase timers, the deck and --KEY=VALUE
 * parsing, results files, snapshots, the verification gate, Amdahl's
 * bounds, the speed of light, the APOD table, bench and assess.
 *
 * The harness's loop, for a stage S of workload W with problem P, in this
 * order, which is part of the interface:
 *
 *     ctx = S->ops->create(S, P)                          phase "setup"
 *     every probe k with APOD_AT_START: probe(ctx, k, 0, ...)   (step 0)
 *     for step = 1 .. W->steps(params):
 *         for each step phase j of W->phases, in order:
 *             S->ops->step(ctx, j, step, steps)           W->phases[j].name
 *         for each probe k due at this step, in order (at the last
 *         step, every probe with APOD_AT_END is due too):
 *             S->ops->probe(ctx, k, step, row, rows)      W->probes[k].name
 *         if a snapshot is due: fetch or snapshot_*       "writeSnapshot"
 *     S->ops->fetch(ctx, a, buffer) for every array a     "fetchResults"
 *     the harness writes the results files (with --out)   "writeReport"
 *     S->ops->destroy(ctx)
 *
 * A stage with advance (revision 5) runs the program's own step instead:
 * create_timed(S, P, clock) replaces create, and advance(ctx, step, steps)
 * replaces the loop over the step phases, marking each phase where it runs
 * (apod_phase_begin and apod_phase_end, below): a phase may run any number
 * of times in a step, in any order.  The probes, snapshots and fetch are as
 * above.  `steps` is always the program's own step count.
 *
 * Every phase has a name, its own timer (host clocks, and the device's
 * where the stage marks it), a count of its calls (occurrences), its
 * declared work per occurrence (the workload's work(), for the speed of
 * light, which counts it once for every call) and a place in the stages'
 * ports.  Phases are named,
 * never numbered: only the harness numbers them, in one table of its own
 * (setup, the step's phases, the probes, writeSnapshot, fetchResults,
 * writeReport), whose names are checked when the workload is registered.
 *
 * Every table below ends with an entry whose name is NULL.  Every function
 * returns 0 (or a pointer) on success, or -1 (NULL) after apod_fail() or
 * apod_usage_fail() (apod/apod.h) has recorded why; none prints or exits.
 *
 * A method receives the object it belongs to: the stage (create, available,
 * width, reporter, agree), or the context its stage's create returned (the
 * rest); a workload's methods receive the parameters, and the problem where
 * one exists.
 */
#ifndef APOD_WORKLOAD_H
#define APOD_WORKLOAD_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What libapod exports (apod/apod.h says more). */
#ifndef APOD_API
#if defined(__GNUC__) || defined(__clang__)
#define APOD_API __attribute__((visibility("default")))
#else
#define APOD_API
#endif
#endif

/* Revision 5: a stage may run the program's own time step (advance) and
 * mark each phase where it runs, any number of times and in any order;
 * hooks that judge an output see the problem and the row they judge.
 * Revision 6: a workload's kernel benchmark hands its measurements to the
 * harness as rows (kernel_rows) rather than printing them.
 * Every revision from 5 on only appends members to the end of a struct,
 * so a workload built against an older revision (4 or later) still loads:
 * the harness reads a member only where the workload's version has it.
 * Revisions 1 to 3 are not read (doc/extending.md, "Moving to revision 5"). */
#define APOD_WORKLOAD_VERSION 6

/* ---- parameters: one key table gives the deck parser, the defaults, the
 * --KEY=VALUE options, the JSON in report.json both ways and the test that
 * two runs ran the same deck. ---------------------------------------------- */

enum apod_param_type {
	APOD_PARAM_INT,     /* long: a whole number in [lo, hi] */
	APOD_PARAM_REAL,    /* double: a finite number in [lo, hi] ((lo, hi] with lo_open) */
	APOD_PARAM_PAIR,    /* long[2]: "AxB", each in [lo, hi] (e.g. size = 2048x1024) */
	APOD_PARAM_NAME,    /* char[APOD_NAME_MAX]: letters, digits, '-' and '_' */
	APOD_PARAM_CUSTOM,  /* parsed and formatted by the workload's own set and get */
	APOD_PARAM_CHOICE   /* int: the index of one of `choices` */
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

	/* APOD_PARAM_CHOICE only: the names it accepts, NULL-ended; the value
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
	APOD_COMPARE_DRIFT,   /* a conserved quantity: in each run on its own, every row
	                         stays within atol + rtol*|first row| of the first row (the
	                         step-0 row where the probe runs APOD_AT_START) */
	APOD_COMPARE_STATS    /* statistics, not trajectories: the mean and the spread
	                         (standard deviation) of each column over the rows (of a
	                         series), or of all the elements (of an array), agree
	                         within atol + rtol*|want| each */
};

/* Tolerances, designed by the output's tolerance(): it fills what the
 * comparison `kind` reads and may leave the rest zero. */
struct apod_tol {
	double atol, rtol;
	long long ulps;
	double frac, total;
};

/* The element types of outputs (.npy '<f8', '<f4', '<i4', '<i8', '<u8').
 * The first is the default: an output that says nothing holds doubles.
 * Integers are compared exactly or by absolute difference in integers,
 * never through a double. */
enum apod_dtype { APOD_F64, APOD_F32, APOD_I32, APOD_I64, APOD_U64 };

/* An output's tolerance for the comparison `kind` (its compare, or its
 * beyond past the horizon): params and the problem every stage started
 * from (`apod verify` builds it from the deck in report.json); any_float 1
 * when either side was computed in single precision; column: the series'
 * column (0 for an array, and for COUNTS and DRIFT, which hold whole rows). */
typedef void (*apod_tolerance_fn)(const void *params, const void *problem, int any_float,
                                  int column, enum apod_compare kind, struct apod_tol *t);

/* A comparison horizon, for chaotic dynamics: trajectories of two correct
 * stages part like e^(lambda t), so past some step only conserved and
 * statistical quantities must agree.  horizon(params) is the last step
 * whose values are compared by `compare` (0 or NULL: no horizon); past it
 * an output is compared by `beyond` (APOD_COMPARE_STATS, or DRIFT for a
 * series): a series' rows after the horizon, and an array whenever the run
 * is longer than the horizon.  A deck may choose it through a key. */
typedef long (*apod_horizon_fn)(const void *params);

/* An array the stages hold: fetched at the end (NAME.npy), and optionally
 * snapshotted every snapshot_every(params) steps (SNAPSHOT_NNNNNNNNN.npy). */
struct apod_array {
	const char *name;
	enum apod_dtype dtype;
	/* The shape: returns the number of dimensions, 1 or 2 (rows, columns). */
	int (*shape)(const void *params, size_t dims[2]);
	const char *snapshot;       /* file prefix of the snapshots; NULL: none */
	enum apod_compare compare;
	apod_tolerance_fn tolerance;   /* NULL only for EXACT */
	apod_horizon_fn horizon;       /* optional */
	enum apod_compare beyond;
};

/* An observation: after every every(params)-th step (0: never), and at
 * step 0 and the end where `at` says, the harness asks the stage for one
 * row of each series the probe owns, and times it under the probe's name.
 * Probes observe: a stage's probe must not change what later steps do. */
#define APOD_AT_START 1u   /* also at step 0: after create, before the first step */
#define APOD_AT_END   2u   /* also after the last step, where every() does not fall on it */
struct apod_probe {
	const char *name;                      /* the phase, e.g. "computeEnergy" */
	long (*every)(const void *params);     /* NULL or 0: only where `at` says */
	unsigned at;                           /* APOD_AT_* */
};

/* A per-step table (NAME.csv: a "step" column, then the values). */
struct apod_series {
	const char *name;
	const char *probe;                     /* the name of the probe that fills it */
	/* Column headers, comma-separated; their count is the row's width.
	 * Where the width depends on the deck, leave them NULL and give
	 * columns(params), the headers numbered after column_prefix ("bin"
	 * gives bin0, bin1, ...). */
	const char *column_names;
	int (*columns)(const void *params);
	const char *column_prefix;
	enum apod_dtype dtype;                 /* APOD_F64 (the default) or an integer type */
	enum apod_compare compare;
	apod_tolerance_fn tolerance;           /* NULL only for EXACT */
	apod_horizon_fn horizon;               /* optional */
	enum apod_compare beyond;
};

/* A phase of one step: the program's own sections of its time loop (half
 * kick, drift, redistribution, forces...), each timed on its own, over
 * every occurrence. */
struct apod_phase {
	const char *name;
};

/* The harness's own phases, by name, for ports and work(). */
#define APOD_PHASE_SETUP_NAME    "setup"
#define APOD_PHASE_SNAPSHOT_NAME "writeSnapshot"
#define APOD_PHASE_FETCH_NAME    "fetchResults"
#define APOD_PHASE_REPORT_NAME   "writeReport"

/* ---- stages ------------------------------------------------------------ */

struct apod_stage;

/* Revision 5: the harness's clock of one running stage (opaque), handed to
 * create_timed.  A phase is looked up once, at create: apod_phase_find
 * returns its handle (its place in the harness's table of phases), or -1
 * after apod_fail() where the workload declares no step phase of that name.
 * apod_phase_begin and apod_phase_end open and close one occurrence of a
 * step phase inside advance: two clock reads (and the stage's own mark(),
 * where it has one, for device time), no lookup, no allocation.  Regions
 * do not nest and do not overlap: a begin while another region is open,
 * an end of a phase that is not open, a region outside advance or one
 * left open when advance returns fails the run, naming the phase.  0, or
 * -1 after apod_fail(). */
struct apod_clock;
APOD_API int apod_phase_find(const struct apod_clock *c, const char *name);
APOD_API int apod_phase_begin(struct apod_clock *c, int phase);
APOD_API int apod_phase_end(struct apod_clock *c, int phase);

/* What a stage does, in its own file (the .cu of a GPU stage); a stage the
 * build leaves out has a NULL `ops` in its description.  In C++, declare
 * the object in a header inside extern "C" (as this one is) before
 * defining it: a const object's definition alone has internal linkage
 * there, and the description in C would not find it. */
struct apod_stage_ops {
	/* Optional: 1 if the stage can run here; else 0 with the reason in why.
	 * NULL: wherever it was built. */
	int (*available)(const struct apod_stage *s, char *why, size_t len);
	/* Optional: threads it runs on (Amdahl's N); 0 where there is no such
	 * count (a GPU).  NULL: 0 for a stage that runs on a device, else 1. */
	int (*width)(const struct apod_stage *s);

	void *(*create)(const struct apod_stage *s, const void *problem);
	/* Step phase `phase` (an index into the workload's phases) of step
	 * `step` (1 .. steps).  A program with no time loop cuts its work into
	 * `steps` batches and does batch `step` (doc/porting.md). */
	int (*step)(void *ctx, int phase, long step, long steps);
	/* Probe k at step `step` (0 for APOD_AT_START), the probe's row `row`
	 * (counted from 0): write into rows[i] (the series' width, in its
	 * dtype) for every series i the probe owns (rows[i] NULL for the
	 * others).  A stage with collect gets rows == NULL: it issues the work,
	 * keeps row `row` where it was computed (its buffers numbered
	 * row % defer_rows) and returns without waiting. */
	int (*probe)(void *ctx, int k, long step, long row, void *const *rows);
	/* Copy array a's current values into dst (in the array's dtype). */
	int (*fetch)(void *ctx, int a, void *dst);
	void (*destroy)(void *ctx);

	/* Optional, with defer_rows > 0: deferred probes, for a stage whose
	 * probes are computed on a device, so that no step waits for the host.
	 * The stage holds up to defer_rows rows a probe; before a probe would
	 * have more pending, before every snapshot and at the end, the harness
	 * calls collect(ctx, k, first, count, rows): wait for rows first ..
	 * first+count-1 and write them into rows[i], count rows one after
	 * another.  Timed as probe k's phase, since the wait is its work. */
	long defer_rows;
	int (*collect)(void *ctx, int k, long first, long count, void *const *rows);

	/* Optional, both or neither: snapshots that overlap the steps.
	 * snapshot_begin takes a copy of array a and returns at once;
	 * snapshot_stream, called on the harness's writer thread, hands that
	 * copy to sink in order, chunk by chunk.  The harness never begins a
	 * snapshot while the previous one is streaming. */
	int (*snapshot_begin)(void *ctx, int a);
	int (*snapshot_stream)(void *ctx, int (*sink)(const void *chunk, size_t bytes, void *arg),
	                       void *arg);

	/* Optional, both or neither: device time per phase, for a stage whose
	 * calls return before the device has done the work.  The harness calls
	 * mark(ctx, phase, 0) before and mark(ctx, phase, 1) after each call it
	 * times, `phase` being a number below nphases that the stage need not
	 * interpret, and device_seconds(ctx, seconds, nphases) before destroy,
	 * to add the device time of each (CUDA events on the stage's stream). */
	int (*mark)(void *ctx, int phase, int end);
	int (*device_seconds)(void *ctx, double *seconds, int nphases);

	/* Optional, both or neither: a stage that runs as several processes at
	 * once (MPI ranks), each running apod with the same arguments and
	 * holding part of the problem.
	 *
	 * reporter: 1 if this process reports (prints the table, writes the
	 * results files and the JSON), 0 if it only takes part, or -1 after
	 * apod_fail() if the processes cannot be started.  Called once, before
	 * create, only for the stage about to run.
	 *
	 * agree: a collective call, made on every process at the same point
	 * with whether this process failed there; 0 where none did, else -1 on
	 * every process with the first failure's reason recorded.  The harness
	 * calls it after each thing the reporter does alone.
	 *
	 * The stage's own calls (create, step, probe, fetch) are made on every
	 * process in the same order, and each must agree before it returns.
	 * fetch need fill dst only on the reporter.  Such a stage does not
	 * stream snapshots. */
	int (*reporter)(const struct apod_stage *s);
	int (*agree)(const struct apod_stage *s, int failed);

	/* Revision 5, optional, both or neither: the program's own step.
	 * create_timed replaces create and receives the clock the stage marks
	 * its phases with (find the handles there); advance(ctx, step, steps)
	 * runs step `step` (1 .. steps) of the program's own time loop,
	 * marking each step phase where it runs, any number of times and in
	 * any order.  Time inside advance outside every region counts as the
	 * step's own (unattributed).  A stage with advance leaves create and
	 * step NULL; its mark(), where it has one, is called by
	 * apod_phase_begin and apod_phase_end. */
	void *(*create_timed)(const struct apod_stage *s, const void *problem,
	                      struct apod_clock *clock);
	int (*advance)(void *ctx, long step, long steps);
};

/* A stage, described once, in C: what the table, `apod stages` and the
 * bounds read, whether or not the build holds its operations. */
struct apod_stage {
	const char *name;
	const char *about;                     /* one line for `apod stages` */
	/* The phases it changes from the serial reference, by name,
	 * comma-separated: step phases, probes, "setup", "fetchResults",
	 * "writeSnapshot".  Every phase it makes faster (or slower) must be
	 * named, not only the compute: the bound on its speedup (Amdahl's
	 * law) counts the serial run's time in exactly these, and the table
	 * reports a stage faster than serial in a phase it does not name.
	 * NULL or "": none (the serial reference). */
	const char *ports;
	unsigned role;                         /* APOD_ROLE_* */
	/* Where the phases it ports run (APOD_RUNS_*), so the speed of light
	 * of each uses that resource's measured ceilings.  0: where width
	 * says (threads: the host's cores; 0: a device). */
	unsigned runs_on;
	/* What a build must have for it, for the message where ops is NULL
	 * ("CUDA", "MPI", "CUDA, MPI and NCCL"). */
	const char *needs;
	const struct apod_stage_ops *ops;      /* NULL: not in this build */
	const void *data;                      /* the stage's own, for its ops (a kernel version, say) */
};

/* Roles. */
#define APOD_ROLE_PORT           0u   /* a stage like any other */
#define APOD_ROLE_HOST_BASELINE  1u   /* every core of the host: the honest parallel baseline */
/* It changes the algorithm, not the hardware it runs on (a cell list in
 * place of all pairs, say): its gain is the algorithm's, measured, and no
 * Amdahl bound over N workers applies to it. */
#define APOD_ROLE_ALGORITHM      2u

/* Where a stage's ported phases run, for the speed of light. */
#define APOD_RUNS_HOST_CORE   (1u << 0)   /* one core of the host */
#define APOD_RUNS_HOST_CORES  (1u << 1)   /* all the host's cores (width threads) */
#define APOD_RUNS_DEVICE      (1u << 2)   /* a GPU */
/* The state stays on the host: every occurrence of a ported phase carries
 * its data across the bus (struct apod_work's h2d and d2h bytes). */
#define APOD_RUNS_OVER_BUS    (1u << 3)

/* Sizes the harness's tables are built for. */
#define APOD_MAX_STEP_PHASES 16
#define APOD_MAX_PROBES      16

/* ---- the work of a phase: the speed of light ----------------------------
 *
 * What one occurrence of a phase must do whatever the stage: the
 * algorithm's compulsory minimum, not what a given stage happens to move.
 * The harness divides each figure by the ceiling measured on the machine
 * the stage runs on (`apod ceilings`) and takes the largest: that phase's
 * speed of light. */
struct apod_work {
	double bytes;       /* that must cross main memory: each input read once, each output written once */
	double flops32;     /* FP32 operations, an FMA counting two */
	double flops64;     /* FP64 operations, likewise */
	double special;     /* special-function evaluations (exp, log, sin, rsqrt...) where they dominate */
	/* Bytes a stage that keeps the state on the host (APOD_RUNS_OVER_BUS)
	 * must carry to the device and back for one occurrence. */
	double h2d_bytes, d2h_bytes;
};

/* ---- a kernel benchmark's measurements (kernel_rows, below) --------------
 *
 * One row a measurement: a kernel (or a few calls timed as one) per call,
 * its throughput and, where it answers to one, the ceiling measured in the
 * same run.  The harness prints every row with one formatter and writes it
 * to `bench --json` as an element of "kernels". */
struct apod_bench_row {
	const char *name;        /* the kernel, as the table shows it */
	double ms;               /* time per call: the median of the repetitions */
	double busy_ms;          /* the device's busy time per call (CUPTI); < 0: not traced */
	double work;             /* what one call does, in work_unit */
	const char *work_unit;   /* "bytes", "interactions", "paths" */
	double rate;             /* the throughput, in rate_unit */
	const char *rate_unit;   /* "GB/s", "GFLOP/s", "paths/s" */
	double ceiling;          /* the rate it answers to, in rate_unit; <= 0: none */
	const char *against;     /* what the ceiling is ("copy", "FMA peak"); NULL: none */
	int block;               /* threads a block where the row says; 0: not said */
	const char *note;        /* how the kernel works, or ""; NULL: none */
};

/* Where kernel_rows sends what it measured; every call returns 0, or -1
 * after apod_fail() (out of memory), which kernel_rows passes on. */
struct apod_bench_sink {
	void *arg;
	int (*row)(void *arg, const struct apod_bench_row *r);
	/* A line of the table beside the rows: what is timed and how, a
	 * measurement skipped and why, a comparison of two rows. */
	int (*line)(void *arg, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
		__attribute__((format(printf, 2, 3)))
#endif
		;
	/* A named figure for the JSON beside the rows ("copy_gb_per_s"). */
	int (*figure)(void *arg, const char *key, double value);
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

	/* The step's phases: at least one.  The harness runs them once a step,
	 * in this order, for a stage with step; a stage with advance marks
	 * them as its own step runs them. */
	const struct apod_phase *phases;
	const struct apod_probe *probes;       /* may be NULL */
	const struct apod_array *arrays;       /* may be NULL where the outputs are series */
	const struct apod_series *series;      /* may be NULL */
	const struct apod_stage *const *stages;   /* ladder order, "serial" first, NULL-ended */

	/* Optional: grow the problem by a whole factor (the work per step
	 * times factor), for weak scaling (`apod scale`): 0, or -1 with a
	 * usage failure where the grown problem would not fit. */
	int (*grow)(void *params, int factor);

	/* Optional: fill w with ONE occurrence's work of the phase called
	 * `phase` (a step phase, a probe, or one of the harness's: setup,
	 * fetchResults, writeSnapshot) and return 1 (the harness counts it once
	 * for every call of the phase: a step phase a stage marks six times a
	 * step counts six times a step), or return 0 where the
	 * phase has no declared work (its time then counts as measured, and
	 * it gets no speed of light).  problem: what the stages start from,
	 * for work that depends on the data (pair counts, halo sizes); NULL
	 * where the harness has none at hand, and then a workload whose work
	 * needs it returns 0.  The work is the least any stage must do: where
	 * a stage changes the algorithm (APOD_ROLE_ALGORITHM), the better
	 * algorithm's, or that stage would beat its speed of light. */
	int (*work)(const void *params, const void *problem, const char *phase, struct apod_work *w);

	/* Revision 4's `apod bench --kernels`, for a workload without
	 * kernel_rows: it prints its own table and adds a "kernels" array to
	 * json (a json-c object).  Returns as kernel_rows does. */
	int (*kernels)(const void *problem, int reps, void *json);

	/* Revision 5, optional.  horizon_of: the last step output `output` (an
	 * array's or a series' name) is compared by its `compare`; 0: no
	 * horizon.  It sees the problem (NULL where `apod verify` has none at
	 * hand).  Where set, it replaces the output's own horizon for every
	 * output, so it answers for each (0 for one that has none); an output
	 * it gives a horizon must say how it is compared past it (beyond). */
	long (*horizon_of)(const void *params, const void *problem, const char *output);
	/* tolerance_at: the tolerance of output `output` at the row it judges:
	 * `step` that row's step (for an array, the step it was taken at: the
	 * last for the final arrays), `row` its row (0 for an array); the rest
	 * as apod_tolerance_fn.  Where set, it replaces the output's own
	 * tolerance. */
	void (*tolerance_at)(const void *params, const void *problem, const char *output,
	                     long step, long row, int any_float, int column,
	                     enum apod_compare kind, struct apod_tol *t);

	/* Revision 6, optional: `apod bench --kernels`: time the workload's
	 * own kernels, each median of reps after a warm-up, and hand every
	 * measurement to the sink, in the order the table shows them; the
	 * harness prints them and writes them to the JSON.  0; 1 where they
	 * cannot run here (no GPU, no CUDA in the build), the reason recorded
	 * with apod_fail; -1 after apod_fail on a failure.  Where set, the
	 * harness calls it and not kernels. */
	int (*kernel_rows)(const void *problem, int reps, const struct apod_bench_sink *sink);
};

#ifdef __cplusplus
}
#endif

#endif
