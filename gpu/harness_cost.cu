/*
 * harness_cost.cu: what a step costs the host and the device when it is
 * timed the ways a GPU stage can time it (gpu/phase_events.h), and when
 * its launches are replayed as a CUDA graph (apod/cuda.h).
 *
 * Each variant issues STEPS steps of empty kernels behind a kernel that
 * keeps the device busy for longer than the host takes to issue them, so
 * that the host's time is its issue cost alone and the device's, between
 * an event before the first step and one after the last, is what the
 * device spends on the steps with no wait for the host: the device cost
 * of whatever the variant adds (an event, a launch) is its difference
 * from the plain launch.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "apod/cuda.h"
#include "harness_cost.h"
#include "phase_events.h"
#include "tests/gpu/spin.h"

/* The pair mode's ring holds 256 events: 2 a step stay clear of its wait. */
#define STEPS 100
#define REPS 21

static __global__ void empty_kernel(void) {}

/* The clock the harness's phase timers read (CLOCK_MONOTONIC). */
static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

struct bench {
	cudaStream_t s;
	struct apod_phase_events *pe;
	struct apod_cuda_graph three;
};

static int launch1(void *arg)
{
	struct bench *b = (struct bench *)arg;
	APOD_LAUNCH_TRY((empty_kernel<<<1, 32, 0, b->s>>>()));
	return 0;
}

static int launch3(void *arg)
{
	for (int i = 0; i < 3; i++)
		if (launch1(arg))
			return -1;
	return 0;
}

enum variant { PLAIN, PAIRS, EDGES, THREE, THREE_GRAPH, GRAPH_EDGES, NVARIANTS };

static const char *const names[NVARIANTS] = {
	"a launch, untimed",
	"a launch, events at both marks (pairs)",
	"a launch, events at edges, step chained",
	"3 launches, untimed",
	"3 launches as one graph, untimed",
	"3 launches as one graph, edges chained",
};

/* One step of variant v, as the harness's loop and the stage issue it. */
static int step(struct bench *b, enum variant v)
{
	int timed = v == PAIRS || v == EDGES || v == GRAPH_EDGES;
	if (timed && apod_phase_events_mark(b->pe, 0, 0))
		return -1;
	if (timed && apod_phase_events_issue(b->pe))
		return -1;
	switch (v) {
	case PLAIN: case PAIRS: case EDGES:
		if (launch1(b))
			return -1;
		break;
	case THREE:
		if (launch3(b))
			return -1;
		break;
	case THREE_GRAPH: case GRAPH_EDGES:
		if (apod_cuda_graph_run(&b->three, b->s, launch3, b))
			return -1;
		break;
	default:
		break;
	}
	return timed ? apod_phase_events_mark(b->pe, 0, 1) : 0;
}

static int cmp(const void *x, const void *y)
{
	double a = *(const double *)x, c = *(const double *)y;
	return (a > c) - (a < c);
}

/* Host and device seconds a step of v, each the median of REPS. */
static int measure(struct bench *b, enum variant v, double *host, double *device)
{
	double h[REPS], d[REPS], seconds[1];
	cudaEvent_t e0, e1;
	APOD_CUDA_TRY(cudaEventCreate(&e0));
	APOD_CUDA_TRY(cudaEventCreate(&e1));
	for (int r = -1; r < REPS; r++) {   /* r = -1: the warm-up, not kept */
		float ms = 0;
		double t0;
		b->pe = NULL;
		if (v == PAIRS && !(b->pe = apod_phase_events_new(b->s, 1)))
			return -1;
		if ((v == EDGES || v == GRAPH_EDGES) && !(b->pe = apod_phase_events_edges(b->s, 1, 1u)))
			return -1;
		if (apod_gpu_spin(b->s, 2e-3))
			return -1;
		APOD_CUDA_TRY(cudaEventRecord(e0, b->s));
		t0 = now();
		for (int k = 0; k < STEPS; k++)
			if (step(b, v))
				return -1;
		if (r >= 0)
			h[r] = (now() - t0) / STEPS;
		APOD_CUDA_TRY(cudaEventRecord(e1, b->s));
		APOD_CUDA_TRY(cudaEventSynchronize(e1));
		APOD_CUDA_TRY(cudaEventElapsedTime(&ms, e0, e1));
		if (r >= 0)
			d[r] = 1e-3 * ms / STEPS;
		if (b->pe) {
			seconds[0] = 0;
			if (apod_phase_events_collect(b->pe, seconds, 1))
				return -1;
			apod_phase_events_free(b->pe);
			b->pe = NULL;
		}
	}
	cudaEventDestroy(e0);
	cudaEventDestroy(e1);
	qsort(h, REPS, sizeof *h, cmp);
	qsort(d, REPS, sizeof *d, cmp);
	*host = h[REPS / 2];
	*device = d[REPS / 2];
	return 0;
}

extern "C" int harness_cost_gpu(json_object *o)
{
	struct bench b = {};
	char why[512];
	json_object *rows;
	double host[NVARIANTS], device[NVARIANTS];
	cudaDeviceProp prop;
	int dev = 0;
	if (!apod_cuda_usable(why, sizeof why, "with --with-cuda-arch=")) {
		printf("the device side: skipped, %s\n", why);
		json_object_object_add(o, "gpu_skipped", json_object_new_string(why));
		return 0;
	}
	APOD_CUDA_TRY(cudaGetDevice(&dev));
	APOD_CUDA_TRY(cudaGetDeviceProperties(&prop, dev));
	APOD_CUDA_TRY(cudaStreamCreateWithFlags(&b.s, cudaStreamNonBlocking));
	for (int v = 0; v < NVARIANTS; v++)
		if (measure(&b, (enum variant)v, &host[v], &device[v]))
			return -1;
	apod_cuda_graph_free(&b.three);
	APOD_CUDA_TRY(cudaStreamDestroy(b.s));
	printf("\na step of empty kernels on %s, the host ahead of the device (us a step,\n"
	       "median of %d runs of %d steps):\n", prop.name, REPS, STEPS);
	printf("  %-44s %8s %8s\n", "", "host", "device");
	rows = json_object_new_array();
	for (int v = 0; v < NVARIANTS; v++) {
		json_object *r = json_object_new_object();
		printf("  %-44s %8.3f %8.3f\n", names[v], host[v] * 1e6, device[v] * 1e6);
		json_object_object_add(r, "step", json_object_new_string(names[v]));
		json_object_object_add(r, "host_s", json_object_new_double(host[v]));
		json_object_object_add(r, "device_s", json_object_new_double(device[v]));
		json_object_array_add(rows, r);
	}
	printf("  timing a phase with pairs costs %.3f us of host and %.3f us of device a step;\n"
	       "  with edges on a chained step, %.3f and %.3f\n",
	       (host[PAIRS] - host[PLAIN]) * 1e6, (device[PAIRS] - device[PLAIN]) * 1e6,
	       (host[EDGES] - host[PLAIN]) * 1e6, (device[EDGES] - device[PLAIN]) * 1e6);
	json_object_object_add(o, "gpu_device", json_object_new_string(prop.name));
	json_object_object_add(o, "gpu", rows);
	return 0;
}
