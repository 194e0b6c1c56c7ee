/*
 * heat_stage.h: what heat's stages share as struct apod_stage
 * (apod/workload.h): the probes they answer, the phases they take over,
 * their lines for `apod stages`, and the one way a calcStats result
 * becomes the harness's rows (rows.c).
 *
 * Each stage (cpu/heat/stage_*.c, gpu/heat/stage*.cu) defines its own
 * `const struct apod_stage heat_stage_NAME`; stages.c puts them in ladder
 * order, with the stages a build leaves out listed as unavailable.
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

/* Heat's probes, in order: calcStats every stats_every steps, calcSummaryData
 * every summary_every. */
enum { HEAT_PROBE_STATS, HEAT_PROBE_SUMMARY };
/* The per-step computation: what a parallel stage of heat takes over. */
#define HEAT_PORTS_COMPUTE \
	(APOD_PORTS_STEP | APOD_PORTS_PROBE(HEAT_PROBE_STATS) | APOD_PORTS_PROBE(HEAT_PROBE_SUMMARY))
/* A stage whose field lives on the device (or is spread over processes)
 * also changes how it is set up, and how every snapshot and the final
 * field come back to the host. */
#define HEAT_PORTS_DEVICE \
	(APOD_PORTS_SETUP | HEAT_PORTS_COMPUTE | APOD_PORTS_SNAPSHOT | APOD_PORTS_FETCH)
/* gpu1 sets up on the device and ports the sweep; its statistics,
 * snapshots and final field are the host's, as in serial. */
#define HEAT_GPU1_PORTS (APOD_PORTS_SETUP | APOD_PORTS_STEP)

#define HEAT_GPU1_ABOUT "GPU stage 1: genTimeStep on the device, field copied every step"
#define HEAT_GPU2_ABOUT "GPU stage 2: field resident on the device, statistics reduced there"
#define HEAT_GPU3_ABOUT "GPU stage 3: snapshots downloaded on a copy stream, overlapping steps"
#define HEAT_GPU4_ABOUT "GPU stage 4: tuned kernels, statistics fused into the sweep"
#define HEAT_GPU5_ABOUT \
	"GPU stage 5: temporally blocked, up to 4 steps a pass with the statistics in the tile"
#define HEAT_MPI_ABOUT \
	"MPI ranks x OpenMP threads, rows split, halos traded (1 rank in the table: use mpirun)"
#define HEAT_MGPU_ABOUT \
	"one MPI rank per GPU, halos by NCCL overlapped with the interior (use mpirun)"

extern const struct apod_stage heat_stage_serial, heat_stage_omp;
extern const struct apod_stage heat_stage_gpu1, heat_stage_gpu2, heat_stage_gpu3, heat_stage_gpu4;
extern const struct apod_stage heat_stage_gpu5;
extern const struct apod_stage heat_stage_mpi, heat_stage_mgpu;
/* bench --kernels (kernels.c): the workload's kernels member. */
int heat_kernels(const void *problem, int reps, void *json);

/* A calcStats result into the probe's rows (either may be NULL): the stats
 * row as mean, min, max, variance; the hist row as p->nbins counts. */
void heat_stats_rows(const struct heat_problem *p, const struct apod_moments *m,
                     const unsigned *hist, double *const *rows);
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
                       double *const *rows, heat_stats_fn *stats, heat_summary_fn *summary);
/* Probe k on a host field with serial's own calcStats and calcSummaryData
 * (serial, and gpu1 on the field it copies back); hist: p->nbins counts of
 * scratch. */
void heat_host_probe(const struct heat_problem *p, const heat_real *field, unsigned *hist, int k,
                     double *const *rows);

#ifdef __cplusplus
}
#endif

#endif
