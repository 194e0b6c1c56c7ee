/*
 * nbody_resident.h: what gpu2, gpu3 and gpu4 share: the state resident on
 * the device, the step around a force kernel chosen by variant (each
 * stage's data, cpu/nbody/stages.c), the statistics and energy reduced
 * there, device time per phase.  Their ops, nbody_resident_ops, are
 * declared with the other stages' in cpu/nbody/nbody.h.
 */
#ifndef APOD_GPU_NBODY_RESIDENT_H
#define APOD_GPU_NBODY_RESIDENT_H

#include <cuda_runtime.h>

#include "apod/ready_made.h"
#include "cpu/nbody/nbody.h"
#include "gpu/phase_events.h"

struct nbody_resident {
	const struct nbody_problem *p;
	enum nbody_variant variant;
	int n;
	float4 *d_pos, *d_vel, *d_acc;
	double *d_part, *d_total;       /* partial sums of the reductions, and their total */
	float4 *h_stage;                /* pinned: one array on its way to the host */
	cudaStream_t stream;
	struct apod_phase_events *events;
	int block;                      /* gpu2 and gpu3's launch */
	/* gpu4's force kernel (forces_split): its shape for n bodies
	 * (nbody_split_shapes), and whether every body has the mass `mass`
	 * (then the kernel sums unit-mass pulls and multiplies once).  More
	 * bodies a thread alone lose (at 2^17 forces_tuned runs at 58.1% of
	 * the FMA peak with one, 48.5% with two, 41.2% with four: too few warps
	 * an SM); splitting each block's tile over slices of threads brings the
	 * warps back, so several bodies a thread win. */
	int split, equal;
	float mass;
};

/* One force evaluation of g's variant on g's positions into g->d_acc (and,
 * for gpu4, the fused kick when kick != 0), on g's stream. */
int nbody_forces(const struct nbody_resident *g, int kick);

#ifdef __cplusplus
extern "C" {
#endif
/* A resident state with variant v's kernel, for a stage's create and for
 * bench.cu (stage names it in messages). */
void *nbody_resident_create(const void *problem, enum nbody_variant v, const char *stage);
void nbody_resident_destroy(void *ctx);
/* Every host-side copy of an array goes through this: n x 4 to n x 3. */
void nbody_unpack3(const float4 *src, size_t n, float *dst);
#ifdef __cplusplus
}
#endif

#endif
