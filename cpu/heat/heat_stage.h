/*
 * heat_stage.h: what heat's stages share: the probes they answer, their
 * descriptions (struct apod_stage, all in stages.c, in ladder order) and
 * their operations (struct apod_stage_ops, each in its stage's own file:
 * cpu/heat/stage_*.c, gpu/heat/stage*.cu), and the one way a calcStats
 * result becomes the harness's rows (rows.c).
 */
#ifndef APOD_HEAT_STAGE_H
#define APOD_HEAT_STAGE_H

#include "apod/workload.h"
#include "heat_workload.h"
#include "problem.h"
#include "shared/stats.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Heat's probes, in order (workload.c): calcStats every stats_every steps,
 * calcSummaryData every summary_every.  A stage's probe gets their index. */
enum { HEAT_PROBE_STATS, HEAT_PROBE_SUMMARY };

/* The descriptions (stages.c), for a stage that drives another's
 * operations (gpu5 falls back on gpu4's). */
extern const struct apod_stage heat_stage_serial, heat_stage_omp;
extern const struct apod_stage heat_stage_gpu1, heat_stage_gpu2, heat_stage_gpu3, heat_stage_gpu4;
extern const struct apod_stage heat_stage_gpu5;
extern const struct apod_stage heat_stage_mpi, heat_stage_mgpu;
/* The operations, each in its stage's file; stages.c names those a build
 * leaves out through APOD_IF_CUDA, APOD_IF_MPI and APOD_IF_NCCL. */
extern const struct apod_stage_ops heat_serial_ops, heat_omp_ops;
extern const struct apod_stage_ops heat_gpu1_ops, heat_gpu2_ops, heat_gpu3_ops, heat_gpu4_ops;
extern const struct apod_stage_ops heat_gpu5_ops;
extern const struct apod_stage_ops heat_mpi_ops, heat_mgpu_ops;
/* bench --kernels (kernels.c): the workload's kernel_rows member. */
int heat_kernels(const void *problem, int reps, const struct apod_bench_sink *sink);

/* A calcStats result into the probe's rows (the harness's, by series;
 * either may be NULL; every series holds doubles): the stats row as mean,
 * min, max, variance; the hist row as p->nbins counts. */
void heat_stats_rows(const struct heat_problem *p, const struct apod_moments *m,
                     const unsigned *hist, void *const *rows);
/* A stage's own calcStats (the moments into m, p->nbins counts into hist)
 * and calcSummaryData (the zone means), on its state. */
typedef void heat_stats_fn(void *stage, struct apod_moments *m, unsigned *hist);
typedef void heat_summary_fn(void *stage, double *zone_means);
/* Probe k through a stage's own phases: calcSummaryData into the zones row
 * where it is asked for, or calcStats into the stats and hist rows
 * (heat_stats_rows); hist: p->nbins counts of scratch.  One dispatch for
 * every stage whose phases cannot fail (a failure ends the run inside
 * them, as MPI_TRY does). */
void heat_phases_probe(void *stage, const struct heat_problem *p, unsigned *hist, int k,
                       void *const *rows, heat_stats_fn *stats, heat_summary_fn *summary);
/* Probe k on a host field with serial's own calcStats and calcSummaryData
 * (serial, and gpu1 on the field it copies back); hist: p->nbins counts of
 * scratch. */
void heat_host_probe(const struct heat_problem *p, const heat_real *field, unsigned *hist, int k,
                     void *const *rows);

#ifdef __cplusplus
}
#endif

#endif
