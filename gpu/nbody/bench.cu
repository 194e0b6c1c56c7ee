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
#include "nbody_bench.h"
#include "nbody_resident.h"
#include "gpu/timing.cuh"

static void row(json_object *arr, const char *name, double ms, double n, double peak, int block,
                const char *note)
{
	json_object *o = json_object_new_object();
	double inter = n * n / (ms * 1e-3), gflops = inter * NBODY_FLOPS_PER_INTERACTION / 1e9;
	printf("  %-28s %10.4f %12.4g %10.1f %8.1f%% %6d  %s\n", name, ms, inter, gflops,
	       100 * gflops / peak, block, note);
	json_object_object_add(o, "kernel", json_object_new_string(name));
	json_object_object_add(o, "ms", json_object_new_double(ms));
	json_object_object_add(o, "interactions_per_s", json_object_new_double(inter));
	json_object_object_add(o, "gflops", json_object_new_double(gflops));
	json_object_object_add(o, "fraction_of_fma_peak", json_object_new_double(gflops / peak));
	json_object_object_add(o, "block", json_object_new_int(block));
	json_object_object_add(o, "note", json_object_new_string(note));
	json_object_array_add(arr, o);
}

/* forces_tuned<P, RSQRT> (the kernel gpu4 ran before forces_split) at its own
 * occupancy-API shape. */
template <int P, bool RSQRT>
static int variant(json_object *arr, struct nbody_resident *g, const struct nbody_problem *p, int reps,
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
	row(arr, name, ms, (double)g->n, peak, block, RSQRT ? "rsqrtf" : "no rsqrtf");
	return 0;
}

extern "C" int nbody_gpu_bench(const void *problem, int reps, json_object *out)
{
	const struct nbody_problem *p = (const struct nbody_problem *)problem;
	struct nbody_resident *g;
	json_object *arr;
	double peak = 0, ms = 0, n = (double)p->n;
	int block = 256;

	if (fma_peak_gflops(reps, &peak))
		return -1;
	if (!(g = (struct nbody_resident *)nbody_resident_create(problem, NBODY_TUNED, "bench")))
		return -1;
	arr = json_object_new_array();
	json_object_object_add(out, "kernels", arr);
	json_object_object_add(out, "fma_peak_gflops", json_object_new_double(peak));
	json_object_object_add(out, "flops_per_interaction", json_object_new_int(NBODY_FLOPS_PER_INTERACTION));
	printf("\nforce kernels on %zu bodies, median of %d after a warm-up, CUDA events;\n"
	       "%d flops an interaction; FP32 FMA peak measured now: %.1f GFLOP/s\n", p->n, reps,
	       NBODY_FLOPS_PER_INTERACTION, peak);
	printf("  %-28s %10s %12s %10s %9s %6s\n", "kernel", "ms", "inter/s", "GFLOP/s", "of peak",
	       "block");

#define TIME(call) time_it(reps, [&] { call; return cudaGetLastError() != cudaSuccess; }, &ms)
	if (TIME((forces_simple<<<(g->n + block - 1) / block, block>>>(g->d_pos, g->d_acc, g->n, p->eps2))))
		goto fail;
	row(arr, "gpu1-2 simple (global j)", ms, n, peak, block, "j in order, sqrtf and division");
	if (TIME((forces_tiled<<<(g->n + block - 1) / block, block, block * sizeof(float4)>>>(
		    g->d_pos, g->d_acc, g->n, p->eps2))))
		goto fail;
	row(arr, "gpu3 tiled (shared tiles)", ms, n, peak, block, "j in order, sqrtf and division");
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
		row(arr, "gpu4 split", ms, n, peak, sh->block, note);
		json_object_object_add(out, "gpu4_fraction_of_fma_peak",
		                       json_object_new_double(n * n / (ms * 1e-3) * NBODY_FLOPS_PER_INTERACTION /
		                                              1e9 / peak));
		json_object_object_add(out, "gpu4_bodies_per_thread", json_object_new_int(sh->p));
		json_object_object_add(out, "gpu4_slices", json_object_new_int(sh->s));
		json_object_object_add(out, "gpu4_equal_masses", json_object_new_boolean(g->equal));
	}
	for (int k = 0; k < NBODY_SPLIT_SHAPES; k++)
		for (int equal = g->equal; equal >= 0; equal--) {
			const struct nbody_split_shape *sh = &nbody_split_shapes[k];
			char name[64], note[64];
			if (k == g->split && equal == g->equal)
				continue;   /* the row above */
			if (time_it(reps, [&] { return nbody_split_launch(k, equal, 0, g->d_pos, g->d_vel, g->d_acc,
			                                                  g->n, p->eps2, g->mass, p->h, 0) != 0; },
			            &ms))
				goto fail;
			snprintf(name, sizeof name, "  variant: split %d x %d", sh->p, sh->s);
			snprintf(note, sizeof note, "%s", equal ? "unit pulls x m" : "masses read");
			row(arr, name, ms, n, peak, sh->block, note);
		}
	if (variant<1, true>(arr, g, p, reps, peak, "  before: 1 body a thread") ||
	    variant<2, true>(arr, g, p, reps, peak, "  before: 2 bodies a thread") ||
	    variant<4, true>(arr, g, p, reps, peak, "  before: 4 bodies a thread") ||
	    variant<1, false>(arr, g, p, reps, peak, "  before: sqrtf + division"))
		goto fail;
#undef TIME
	nbody_resident_destroy(g);
	return 0;
fail:
	nbody_resident_destroy(g);
	return -1;
}
