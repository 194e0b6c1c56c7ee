/*
 * stages.c: heat's ladder, and the adapter from heat's own stage tables
 * (engine.h) to the harness's struct apod_stage.
 *
 * A build without CUDA still lists the GPU stages, with the reason they
 * cannot run, so `apod stages` tells a user what they are missing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "fail.h"
#include "heat_workload.h"

/* One adapted stage: heat's table, its context, and a histogram buffer
 * (heat counts in unsigned, the harness's series are doubles). */
struct adapted {
	const struct heat_engine *e;
	const struct heat_problem *p;
	void *inner;
	unsigned *hist;
};

static void *adapt_create(const struct heat_engine *e, const void *problem)
{
	const struct heat_problem *p = problem;
	struct adapted *a = calloc(1, sizeof *a);
	int failed = !a || !(a->hist = malloc((size_t)p->nbins * sizeof *a->hist));
	if (failed)
		apod_fail("heat: out of memory");
	/* A stage of several processes: the others must not enter create alone. */
	if (e->agree ? e->agree(failed) : failed) {
		if (a)
			free(a->hist);
		free(a);
		return NULL;
	}
	a->e = e;
	a->p = p;
	if (!(a->inner = e->create(p))) {
		free(a->hist);
		free(a);
		return NULL;
	}
	return a;
}

static int adapt_step(void *ctx)
{
	struct adapted *a = ctx;
	return a->e->step(a->inner);
}

static int adapt_probe(void *ctx, int k, double *const *rows)
{
	struct adapted *a = ctx;
	if (k == HEAT_PROBE_STATS) {
		struct apod_moments m;
		if (a->e->stats(a->inner, &m, a->hist))
			return -1;
		if (rows[HEAT_SERIES_STATS]) {
			double *r = rows[HEAT_SERIES_STATS];
			r[0] = m.mean;
			r[1] = m.min;
			r[2] = m.max;
			r[3] = apod_moments_variance(&m);
		}
		if (rows[HEAT_SERIES_HIST])
			for (int b = 0; b < a->p->nbins; b++)
				rows[HEAT_SERIES_HIST][b] = a->hist[b];
		return 0;
	}
	return rows[HEAT_SERIES_ZONES] ? a->e->summary(a->inner, rows[HEAT_SERIES_ZONES]) : 0;
}

static int adapt_fetch(void *ctx, int array, void *dst)
{
	struct adapted *a = ctx;
	(void)array;   /* heat has one array, the field */
	return a->e->fetch(a->inner, dst);
}

static void adapt_destroy(void *ctx)
{
	struct adapted *a = ctx;
	if (!a)
		return;
	a->e->destroy(a->inner);
	free(a->hist);
	free(a);
}

static int adapt_snapshot_begin(void *ctx, int array)
{
	struct adapted *a = ctx;
	(void)array;
	return a->e->snapshot_begin(a->inner);
}

struct sink_bytes {
	int (*sink)(const void *chunk, size_t bytes, void *arg);
	void *arg;
};

static int sink_cells(const apod_real *chunk, size_t count, void *arg)
{
	struct sink_bytes *s = arg;
	return s->sink(chunk, count * sizeof *chunk, s->arg);
}

static int adapt_snapshot_stream(void *ctx, int (*sink)(const void *, size_t, void *), void *arg)
{
	struct adapted *a = ctx;
	struct sink_bytes s = { sink, arg };
	return a->e->snapshot_stream(a->inner, sink_cells, &s);
}

static int adapt_mark(void *ctx, int phase, int end)
{
	struct adapted *a = ctx;
	return a->e->mark(a->inner, phase, end);
}

static int adapt_device_seconds(void *ctx, double *seconds, int nphases)
{
	struct adapted *a = ctx;
	return a->e->device_seconds(a->inner, seconds, nphases);
}

/* A stage of the ladder: heat's table, adapted, with its name, its line for
 * `apod stages`, the phases it takes over, whether it streams snapshots and
 * whether it times its phases on the device. */
#define HEAT_STAGE(id, about_, ports_, snapshots, device)                                  \
	extern const struct heat_engine heat_engine_##id;                                  \
	static int id##_available(char *why, size_t len)                                   \
	{                                                                                  \
		return heat_engine_##id.available(why, len);                               \
	}                                                                                  \
	static int id##_width(void)                                                        \
	{                                                                                  \
		return heat_engine_##id.width ? heat_engine_##id.width() : 1;              \
	}                                                                                  \
	static void *id##_create(const void *p)                                            \
	{                                                                                  \
		return adapt_create(&heat_engine_##id, p);                                 \
	}                                                                                  \
	static const struct apod_stage heat_stage_##id = {                                 \
		.name = #id, .about = about_, .ports = ports_, .available = id##_available, \
		.width = id##_width, .create = id##_create, .step = adapt_step,             \
		.probe = adapt_probe, .fetch = adapt_fetch, .destroy = adapt_destroy,       \
		.snapshot_begin = (snapshots) ? adapt_snapshot_begin : NULL,                \
		.snapshot_stream = (snapshots) ? adapt_snapshot_stream : NULL,              \
		.mark = (device) ? adapt_mark : NULL,                                       \
		.device_seconds = (device) ? adapt_device_seconds : NULL,                   \
	}

/* A GPU stage in a build without CUDA: listed, never available. */
#define HEAT_UNBUILT(id, about_, ports_)                                            \
	static const struct apod_stage heat_stage_##id = {                          \
		.name = #id, .about = about_, .ports = ports_, .available = no_cuda \
	}

HEAT_STAGE(serial, "the reference: one thread, optimised and vectorised C", 0, 0, 0);
/* omp also sets up in parallel: each thread first touches its own rows. */
HEAT_STAGE(omp, "the same phases on every core with OpenMP", APOD_PORTS_SETUP | HEAT_PORTS_COMPUTE, 0, 0);

#define GPU1_ABOUT "GPU stage 1: genTimeStep on the device, field copied every step"
#define GPU2_ABOUT "GPU stage 2: field resident on the device, statistics reduced there"
#define GPU3_ABOUT "GPU stage 3: snapshots downloaded on a copy stream, overlapping steps"
#define GPU4_ABOUT "GPU stage 4: tuned kernels, statistics fused into the sweep"
#if defined(HAVE_CUDA) && !defined(APOD_NO_GPU_STAGES)
/* gpu1 sets up on the device and ports the sweep; its statistics, snapshots
 * and final field are the host's, as in serial. */
HEAT_STAGE(gpu1, GPU1_ABOUT, APOD_PORTS_SETUP | APOD_PORTS_STEP, 0, 1);
HEAT_STAGE(gpu2, GPU2_ABOUT, HEAT_PORTS_DEVICE, 0, 1);
HEAT_STAGE(gpu3, GPU3_ABOUT, HEAT_PORTS_DEVICE, 1, 1);
HEAT_STAGE(gpu4, GPU4_ABOUT, HEAT_PORTS_DEVICE, 1, 1);
#else
static int no_cuda(char *why, size_t len)
{
	snprintf(why, len, "built without CUDA (configure found no nvcc, or --without-cuda)");
	return 0;
}
HEAT_UNBUILT(gpu1, GPU1_ABOUT, APOD_PORTS_SETUP | APOD_PORTS_STEP);
HEAT_UNBUILT(gpu2, GPU2_ABOUT, HEAT_PORTS_DEVICE);
HEAT_UNBUILT(gpu3, GPU3_ABOUT, HEAT_PORTS_DEVICE);
HEAT_UNBUILT(gpu4, GPU4_ABOUT, HEAT_PORTS_DEVICE);
#endif

/* A stage of several processes (MPI ranks): every rank runs apod; rank 0
 * reports.  It changes how the field is set up, stepped, observed, and
 * gathered for snapshots and the result. */
#define HEAT_DISTRIBUTED(id, about_, ports_)                                                \
	extern const struct heat_engine heat_engine_##id;                                  \
	static int id##_available(char *why, size_t len)                                   \
	{                                                                                  \
		return heat_engine_##id.available(why, len);                               \
	}                                                                                  \
	static int id##_width(void)                                                        \
	{                                                                                  \
		return heat_engine_##id.width();                                           \
	}                                                                                  \
	static void *id##_create(const void *p)                                            \
	{                                                                                  \
		return adapt_create(&heat_engine_##id, p);                                 \
	}                                                                                  \
	static int id##_reporter(void)                                                     \
	{                                                                                  \
		return heat_engine_##id.reporter();                                        \
	}                                                                                  \
	static int id##_agree(int failed)                                                  \
	{                                                                                  \
		return heat_engine_##id.agree(failed);                                     \
	}                                                                                  \
	static const struct apod_stage heat_stage_##id = {                                 \
		.name = #id, .about = about_, .ports = ports_, .available = id##_available, \
		.width = id##_width, .create = id##_create, .step = adapt_step,             \
		.probe = adapt_probe, .fetch = adapt_fetch, .destroy = adapt_destroy,       \
		.reporter = id##_reporter, .agree = id##_agree,                             \
	}
#define HEAT_PORTS_RANKS (APOD_PORTS_SETUP | HEAT_PORTS_COMPUTE | APOD_PORTS_SNAPSHOT | APOD_PORTS_FETCH)
#define MPI_ABOUT "MPI ranks x OpenMP threads, rows split, halos traded (1 rank in the table: use mpirun)"
#if defined(HAVE_MPI) && !defined(APOD_NO_MPI_STAGES)
HEAT_DISTRIBUTED(mpi, MPI_ABOUT, HEAT_PORTS_RANKS);
#else
static int no_mpi(char *why, size_t len)
{
	snprintf(why, len, "built without MPI (configure found no mpicc, or --without-mpi)");
	return 0;
}
static const struct apod_stage heat_stage_mpi = {
	.name = "mpi", .about = MPI_ABOUT, .ports = HEAT_PORTS_RANKS, .available = no_mpi
};
#endif

#define MGPU_ABOUT "one MPI rank per GPU, halos by NCCL overlapped with the interior (use mpirun)"
#if defined(HAVE_NCCL) && defined(HAVE_MPI) && defined(HAVE_CUDA) && \
	!defined(APOD_NO_MPI_STAGES) && !defined(APOD_NO_GPU_STAGES)
HEAT_DISTRIBUTED(mgpu, MGPU_ABOUT, HEAT_PORTS_RANKS);
#else
static int no_nccl(char *why, size_t len)
{
#if !defined(HAVE_CUDA) || defined(APOD_NO_GPU_STAGES)
	snprintf(why, len, "built without CUDA (configure found no nvcc, or --without-cuda)");
#elif !defined(HAVE_MPI) || defined(APOD_NO_MPI_STAGES)
	snprintf(why, len, "built without MPI (configure found no mpicc, or --without-mpi)");
#else
	snprintf(why, len, "built without NCCL (configure found no nccl.h and libnccl, or --without-nccl)");
#endif
	return 0;
}
static const struct apod_stage heat_stage_mgpu = {
	.name = "mgpu", .about = MGPU_ABOUT, .ports = HEAT_PORTS_RANKS, .available = no_nccl
};
#endif

const struct apod_stage *const heat_stages[] = {
	&heat_stage_serial, &heat_stage_omp, &heat_stage_gpu1,
	&heat_stage_gpu2,   &heat_stage_gpu3, &heat_stage_gpu4, &heat_stage_mpi,
	&heat_stage_mgpu,   NULL,
};
