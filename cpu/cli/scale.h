/*
 * scale.h: `apod scale` in parts, one job each: measuring the points
 * (scale_measure.c), the memory a grown problem may take (scale_memory.c),
 * the tables on the screen (scale_print.c) and the JSON and gnuplot files
 * (scale_write.c); cmd_scale.c reads the options and runs them in turn.
 * What they share is struct scale, the measurements.
 */
#ifndef APOD_SCALE_H
#define APOD_SCALE_H

#include "cli.h"
#include "mpirun.h"

#define MAX_POINTS 64
#define MAX_THREADS 1024
#define MAX_OTHER 32
#define MAX_NOTES 16
/* The serial run on the largest grown problem checks that the work is
 * linear in the grow factor; it is skipped when it would take longer. */
#define LINEARITY_CHECK_MAX_S 30.0
/* Of the memory available, what a grown point may be estimated to use. */
#define MEMORY_SHARE 0.9

/* One measured point: the median run of reps. */
struct meas {
	double total;
	int nphases, width;
	double phase[APOD_MAX_PHASES];
};

struct strong_pt {
	int n;
	struct meas m;
	double speedup, efficiency, amdahl, serial_frac;
	double vs_one;                /* ranks: the stage at 1 rank / this time */
};

struct weak_pt {
	int n, skipped;
	struct meas m;
	double efficiency, scaled, gustafson, parallel_frac;
	char grown[256];              /* the keys the grow hook changed, "size = 317x406" */
};

struct other_pt {
	const struct apod_stage *e;
	double seconds, speedup;
	int host;                     /* it runs on the host (mpi): a point at its width */
	int width;                    /* its threads (ranks x threads) where host */
};

struct scale {
	const struct apod_workload *w;
	const void *params;
	const char *title;            /* the deck's heading (apod_deck_title) */
	int reps, nthreads, threads[MAX_POINTS];
	int max_threads;              /* omp_get_max_threads() before anything was set */
	const struct apod_stage *serial;
	/* The stage scaled: the host baseline over threads, or (ranked) a
	 * stage of several processes over ranks under the launcher. */
	const struct apod_stage *scaled;
	int ranked;
	const char *unit;             /* "threads" or "ranks" */
	const struct apod_mpirun *mpirun;
	struct meas t1;               /* serial on the deck */
	struct meas r1;               /* ranked: the stage at 1 rank on the deck */
	double p;                     /* the serial run's fraction in the scaled stage's ports */
	int nstrong, nother, nweak, weak_ran;
	struct strong_pt strong[MAX_POINTS];
	struct other_pt other[MAX_OTHER];
	struct weak_pt weak[MAX_POINTS];
	double p_weak, tw1;
	char grown_keys[256];
	int check_ran;                /* the linearity check */
	int check_n;
	double check_serial, check_estimate;
	int nnotes;
	char notes[MAX_NOTES][320];
};

/* Print "note: ..." and keep it for the JSON. */
void scale_note(struct scale *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* omp_set_num_threads where there is OpenMP. */
void scale_set_threads(int n);
/* A copy of params grown factor times, checked; NULL after a failure. */
void *scale_grown_params(const struct apod_workload *w, const void *params, int factor);
/* The keys whose values differ between a and b, as "key = value" of b
 * ("key" alone with names_only), joined by ", ". */
void scale_changed_keys(const struct apod_workload *w, const void *a, const void *b,
                        int names_only, char *buf, size_t len);
/* Strong scaling on problem (serial, then the baseline at each count), the
 * other stages once, weak scaling (footprint_kib: what the problem as it
 * is took; 0 unknown): 0, or -1 with the failure recorded. */
int scale_run_strong(struct scale *s, const void *problem);
int scale_run_others(struct scale *s, const void *problem);
int scale_run_weak(struct scale *s, long long footprint_kib);
/* The same, ranked: every run a process of its own (serial alone, the
 * stage under the launcher), strong then, where do_weak, weak. */
int scale_run_ranks(struct scale *s, int do_weak);
/* A run's times as a point. */
struct apod_run;
void scale_meas_of(const struct apod_run *r, struct meas *m);
/* run(arg, &r) reps times; the median run (by total time) into m. */
int scale_median_of(int reps, int (*run)(void *arg, struct apod_run *r), void *arg, struct meas *m);
/* The fraction of m's time in the phases of ports (apod_bound_eval's p). */
double scale_ported_fraction(const struct apod_workload *w, const struct meas *m,
                             unsigned long long ports);
/* The weak points' efficiency, scaled speedup and Gustafson, from tw1 and p_weak. */
void scale_weak_finish(struct scale *s);

/* KiB resident now, at the peak so far, and available (-1: unknown). */
long long scale_rss_kib(void);
long long scale_peak_rss_kib(void);
long long scale_available_kib(void);

void scale_print_strong(const struct scale *s);
void scale_print_weak(const struct scale *s);

/* FILE, then BASE.strong.dat, BASE.weak.dat and BASE.gp (BASE: FILE less a
 * ".json"), each atomically; all written before any is swapped in. */
int scale_write_outputs(const struct scale *s, const char *json);

#endif
