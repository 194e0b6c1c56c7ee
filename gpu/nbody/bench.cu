/*
 * bench.cu: the n-body force kernels against the device's own FP32 peak.
 *
 * Work: n^2 interactions a force evaluation (the j = i term is computed and
 * adds zero, as it is in the stages), counted at the usual 20 flops an
 * interaction (NBODY_FLOPS_PER_INTERACTION).  The ceiling is the FMA peak
 * measured in this run by the ilp lab's FMA chains (gpu/fma_peak.cuh), not
 * the datasheet.  Every kernel is timed with the kick off, so that repeated
 * runs leave the velocities alone (gpu4's stage fuses its kick in: a read
 * and a write of n float4, nothing beside n^2 interactions).
 */
#include <stdio.h>

#include "apod/cuda.h"
#include "gpu/device.h"
#include "gpu/fma_peak.cuh"
#include "forces.cuh"
#include "cpu/nbody/nbody.h"
#include "nbody_resident.h"
#include "gpu/timing.cuh"

/* A row: interactions per call, and GFLOP/s against the FMA peak. */
static int row(const struct apod_bench_sink *k, const char *name, double ms, double n, double peak,
               int block, const char *note)
{
	double inter = n * n / (ms * 1e-3), gflops = inter * NBODY_FLOPS_PER_INTERACTION / 1e9;
	struct apod_bench_row r = { name, ms, -1, n * n, "interactions", gflops, "GFLOP/s",
		                    peak, "FMA peak", block, note };
	return k->row(k->arg, &r);
}

/* forces_tuned<P, RSQRT> (the kernel gpu4 ran before forces_split) at its own
 * occupancy-API shape. */
template <int P, bool RSQRT>
static int variant(const struct apod_bench_sink *k, struct nbody_resident *g, const struct nbody_problem *p, int reps,
                   double peak, const char *name)
{
	int block = 0, grid = 0;
	double ms = 0;
	if (tuned_shape<P, RSQRT>(g->n, &block, &grid))
		return -1;
	if (time_it(reps, [&] {
		    forces_tuned<P, RSQRT><<<grid, block, block * sizeof(float4)>>>(g->d_pos, g->d_vel, g->d_acc,
		                                                                    g->n, p->eps2, p->h, 0);
		    return cudaGetLastError() != cudaSuccess; }, &ms))
		return -1;
	return row(k, name, ms, (double)g->n, peak, block, RSQRT ? "rsqrtf" : "no rsqrtf");
}

/* Each GPU force kernel (gpu1-2's simple, gpu3's tiled, gpu4's split and
 * what it replaced) on the problem's bodies, CUDA events, median of reps
 * after a warm-up: GFLOP/s at 20 flops an interaction against the FP32 FMA
 * peak measured in the same run, a row each to the sink. */
static int nbody_gpu_bench(const void *problem, int reps, const struct apod_bench_sink *k)
{
	const struct nbody_problem *p = (const struct nbody_problem *)problem;
	struct nbody_resident *g;
	double peak = 0, ms = 0, n = (double)p->n;
	int block = 256;

	if (fma_peak_gflops(reps, &peak))
		return -1;
	if (!(g = (struct nbody_resident *)nbody_resident_create(problem, NBODY_TUNED, "bench")))
		return -1;
	if (k->figure(k->arg, "fma_peak_gflops", peak) ||
	    k->figure(k->arg, "flops_per_interaction", NBODY_FLOPS_PER_INTERACTION) ||
	    k->line(k->arg, "force kernels on %zu bodies, median of %d after a warm-up, CUDA events;",
	            p->n, reps) ||
	    k->line(k->arg, "%d flops an interaction; FP32 FMA peak measured now: %.1f GFLOP/s",
	            NBODY_FLOPS_PER_INTERACTION, peak))
		goto fail;

#define TIME(call) time_it(reps, [&] { call; return cudaGetLastError() != cudaSuccess; }, &ms)
	if (TIME((forces_simple<<<(g->n + block - 1) / block, block>>>(g->d_pos, g->d_acc, g->n, p->eps2))) ||
	    row(k, "gpu1-2 simple (global j)", ms, n, peak, block, "j in order, sqrtf and division"))
		goto fail;
	if (TIME((forces_tiled<<<(g->n + block - 1) / block, block, block * sizeof(float4)>>>(
		    g->d_pos, g->d_acc, g->n, p->eps2))) ||
	    row(k, "gpu3 tiled (shared tiles)", ms, n, peak, block, "j in order, sqrtf and division"))
		goto fail;
	/* The kick is off here so that repeated runs leave the velocities alone.
	 * First gpu4 as its stage runs it (its shape for n, unit-mass pulls
	 * where the masses are equal), then what each choice is worth: the same
	 * kernel reading the masses, its other shapes, and the kernel gpu4 had
	 * before (one to four bodies a thread, no slices; sqrtf and a division). */
	if (time_it(reps, [&] { return nbody_split_launch(g->split, g->equal, 0, g->d_pos, g->d_vel, g->d_acc,
	                                                  g->n, p->eps2, g->mass, p->h, 0) != 0; }, &ms))
		goto fail;
	{
		const struct nbody_split_shape *sh = &nbody_split_shapes[g->split];
		char note[96];
		snprintf(note, sizeof note, "%d bodies a thread, %d slices, %s", sh->p, sh->s,
		         g->equal ? "equal masses: unit pulls x m" : "masses read");
		if (row(k, "gpu4 split", ms, n, peak, sh->block, note) ||
		    k->figure(k->arg, "gpu4_fraction_of_fma_peak",
		              n * n / (ms * 1e-3) * NBODY_FLOPS_PER_INTERACTION / 1e9 / peak) ||
		    k->figure(k->arg, "gpu4_bodies_per_thread", sh->p) ||
		    k->figure(k->arg, "gpu4_slices", sh->s) ||
		    k->figure(k->arg, "gpu4_equal_masses", g->equal))
			goto fail;
	}
	for (int i = 0; i < NBODY_SPLIT_SHAPES; i++)
		for (int equal = g->equal; equal >= 0; equal--) {
			const struct nbody_split_shape *sh = &nbody_split_shapes[i];
			char name[64];
			if (i == g->split && equal == g->equal)
				continue;   /* the row above */
			if (time_it(reps, [&] { return nbody_split_launch(i, equal, 0, g->d_pos, g->d_vel, g->d_acc,
			                                                  g->n, p->eps2, g->mass, p->h, 0) != 0; },
			            &ms))
				goto fail;
			snprintf(name, sizeof name, "  variant: split %d x %d", sh->p, sh->s);
			if (row(k, name, ms, n, peak, sh->block, equal ? "unit pulls x m" : "masses read"))
				goto fail;
		}
	if (variant<1, true>(k, g, p, reps, peak, "  before: 1 body a thread") ||
	    variant<2, true>(k, g, p, reps, peak, "  before: 2 bodies a thread") ||
	    variant<4, true>(k, g, p, reps, peak, "  before: 4 bodies a thread") ||
	    variant<1, false>(k, g, p, reps, peak, "  before: sqrtf + division"))
		goto fail;
#undef TIME
	nbody_resident_destroy(g);
	return 0;
fail:
	nbody_resident_destroy(g);
	return -1;
}

/* The workload's kernel_rows member (cpu/nbody/nbody.h). */
extern "C" int nbody_kernels(const void *problem, int reps, const struct apod_bench_sink *sink)
{
	int rc = apod_gpu_kernels_ready("nbody");
	return rc ? rc : nbody_gpu_bench(problem, reps, sink);
}
