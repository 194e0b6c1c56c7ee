/*
 * nbody_resident.h: what gpu2, gpu3 and gpu4 share: the state resident on
 * the device, the step around a force kernel chosen by variant, the
 * statistics and energy reduced there, device time per phase.
 */
#ifndef APOD_GPU_NBODY_RESIDENT_H
#define APOD_GPU_NBODY_RESIDENT_H

#include <cuda_runtime.h>

#include "nbody.h"

enum nbody_variant { NBODY_SIMPLE = 2, NBODY_TILED = 3, NBODY_TUNED = 4 };

#include "phase_events.h"

struct nbody_resident {
	const struct nbody_problem *p;
	enum nbody_variant variant;
	int n;
	float4 *d_pos, *d_vel, *d_acc;
	double *d_part, *d_total;       /* partial sums of the reductions, and their total */
	float4 *h_stage;                /* pinned: one array on its way to the host */
	cudaStream_t stream;
	struct apod_phase_events *events;
	int block, tuned_block, tuned_grid;   /* launch shapes */
};

/* The tuned kernel's launch: bodies a thread, and the block size and grid
 * the occupancy API chose for n bodies.  One body a thread: on the H200 at
 * n = 2^17 (bench --kernels, 2026-11-24) it ran at 58.1% of the FMA peak
 * against 48.5% with two and 41.2% with four, since at that n more bodies a
 * thread leave too few warps an SM to hide the latency of the loop. */
#define NBODY_TUNED_P 1
int nbody_tuned_shape(int n, int *block, int *grid);
/* One force evaluation of the variant (and, for gpu4, the fused kick when
 * kick != 0), on stream. */
int nbody_forces(enum nbody_variant v, cudaStream_t stream, const float4 *pos, float4 *vel,
                 float4 *acc, int n, float eps2, float h, int kick, int block, int tuned_block,
                 int tuned_grid);

#ifdef __cplusplus
extern "C" {
#endif
void *nbody_resident_create(const void *problem, enum nbody_variant v, const char *stage);
void nbody_resident_destroy(void *ctx);
int nbody_resident_step(void *ctx);
int nbody_resident_probe(void *ctx, int k, double *const *rows);
int nbody_resident_fetch(void *ctx, int a, void *dst);
int nbody_resident_mark(void *ctx, int phase, int end);
int nbody_resident_device_seconds(void *ctx, double *seconds, int nphases);
/* Every host-side copy of an array goes through this: n x 4 to n x 3. */
void nbody_unpack3(const float4 *src, size_t n, float *dst);
#ifdef __cplusplus
}
#endif

/* gpu2, gpu3 and gpu4 differ only in their force kernel: each stage's file
 * is its comment and one line, NBODY_RESIDENT_STAGE(gpu3, NBODY_TILED,
 * NBODY_GPU3_ABOUT), which defines its create() and its table.  Snapshots
 * go through fetch; a GPU has no thread count for Amdahl's N (width 0). */
#define NBODY_RESIDENT_STAGE(NAME, VARIANT, ABOUT)                                    \
	static void *NAME##_create(const void *problem)                              \
	{                                                                             \
		return nbody_resident_create(problem, VARIANT, #NAME);                \
	}                                                                             \
	static int NAME##_width(void)                                                 \
	{                                                                             \
		return 0;                                                             \
	}                                                                             \
	extern "C" const struct apod_stage nbody_stage_##NAME = {                    \
		.name = #NAME,                                                        \
		.about = ABOUT,                                                       \
		.ports = NBODY_GPU_PORTS,                                             \
		.available = apod_gpu_available,                                      \
		.width = NAME##_width,                                                \
		.create = NAME##_create,                                              \
		.step = nbody_resident_step,                                          \
		.probe = nbody_resident_probe,                                        \
		.fetch = nbody_resident_fetch,                                        \
		.destroy = nbody_resident_destroy,                                    \
		.snapshot_begin = NULL,                                               \
		.snapshot_stream = NULL,                                              \
		.mark = nbody_resident_mark,                                          \
		.device_seconds = nbody_resident_device_seconds,                      \
		.reporter = NULL,                                                     \
		.agree = NULL,                                                        \
		.role = APOD_ROLE_PORT,                                               \
		.runs_on = APOD_RUNS_DEVICE,                                          \
	}

#endif
