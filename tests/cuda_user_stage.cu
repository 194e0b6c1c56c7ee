/*
 * cuda_user_stage.cu: a user's GPU stage, built the way a port outside the
 * apod tree builds one: nvcc, <apod/cuda.h> and the library through
 * pkg-config (tests/cuda-api.sh stages the install).  The workload is tiny
 * and exact on purpose: every value is an integer below 2^53, so serial and
 * GPU must agree bit for bit and the gate compares them exactly.
 *
 *   ./user_stage cudacheck      what the header's helpers say here
 *   ./user_stage require BYTES  apod_cuda_require for BYTES
 *   ./user_stage info|ceilings  the program's GPU hooks, from
 *                               <apod/cuda_ceilings.cuh>
 *   ./user_stage run|verify|... the ordinary apod command line
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <apod/apod_hd.h>
#include <apod/cuda.h>
#include <apod/ready_made.h>
#include <apod/cuda_ceilings.cuh>

struct user_params {
	long n;
	long steps;
};

static const struct apod_param params[] = {
	{ .key = "n", .type = APOD_PARAM_INT, .def = "100000", .lo = 1, .hi = 1L << 24,
	  .offset = offsetof(struct user_params, n), .help = "values" },
	{ .key = "steps", .type = APOD_PARAM_INT, .def = "10", .lo = 1, .hi = 1000,
	  .offset = offsetof(struct user_params, steps), .help = "steps" },
	{ .key = NULL },
};

/* The one per-element function both stages call.  Integers below 2^53 in,
 * integers below 2^53 out: exact whatever the contraction. */
APOD_HD double step_one(double x, size_t i)
{
	return fmod(x * 5.0 + (double)(i % 7), 1021.0);
}

struct user_problem {
	size_t n;
};

static void *problem_create(const void *prm)
{
	struct user_problem *pb = (struct user_problem *)malloc(sizeof *pb);
	if (!pb) {
		apod_fail("user: out of memory");
		return NULL;
	}
	pb->n = (size_t)((const struct user_params *)prm)->n;
	return pb;
}

static void problem_destroy(void *pb) { free(pb); }

/* ---- serial ---- */
struct host_ctx {
	size_t n;
	double *x;
};

static void *host_create(const struct apod_stage *s, const void *problem)
{
	const struct user_problem *pb = (const struct user_problem *)problem;
	struct host_ctx *c = (struct host_ctx *)calloc(1, sizeof *c);
	(void)s;
	if (!c || !(c->x = (double *)calloc(pb->n, sizeof *c->x))) {
		free(c);
		apod_fail("user: out of memory");
		return NULL;
	}
	c->n = pb->n;
	return c;
}

static int host_step(void *ctx, int phase, long step, long steps)
{
	struct host_ctx *c = (struct host_ctx *)ctx;
	(void)phase;
	(void)step;
	(void)steps;
	for (size_t i = 0; i < c->n; i++)
		c->x[i] = step_one(c->x[i], i);
	return 0;
}

static int host_fetch(void *ctx, int a, void *dst)
{
	struct host_ctx *c = (struct host_ctx *)ctx;
	(void)a;
	memcpy(dst, c->x, c->n * sizeof *c->x);
	return 0;
}

static void host_destroy(void *ctx)
{
	struct host_ctx *c = (struct host_ctx *)ctx;
	if (c)
		free(c->x);
	free(c);
}

/* ---- gpu ---- */
struct dev_ctx {
	size_t n;
	double *d_x;
};

static __global__ void step_kernel(double *x, size_t n)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] = step_one(x[i], i);
}

static void dev_destroy(void *ctx)
{
	struct dev_ctx *g = (struct dev_ctx *)ctx;
	if (g)
		cudaFree(g->d_x);
	free(g);
}

static int dev_init(struct dev_ctx *g, size_t n)
{
	g->n = n;
	if (apod_cuda_require("gpu", n * sizeof(double)))
		return -1;
	APOD_CUDA_TRY(cudaMalloc((void **)&g->d_x, n * sizeof(double)));
	APOD_CUDA_TRY(cudaMemset(g->d_x, 0, n * sizeof(double)));
	return 0;
}

static void *dev_create(const struct apod_stage *s, const void *problem)
{
	struct dev_ctx *g = (struct dev_ctx *)apod_state_alloc(sizeof *g, s->name);
	if (!g)
		return NULL;
	if (dev_init(g, ((const struct user_problem *)problem)->n)) {
		dev_destroy(g);
		return NULL;
	}
	return g;
}

static int dev_step(void *ctx, int phase, long step, long steps)
{
	struct dev_ctx *g = (struct dev_ctx *)ctx;
	unsigned blocks = (unsigned)((g->n + 255) / 256);
	(void)phase;
	(void)step;
	(void)steps;
	APOD_LAUNCH_TRY((step_kernel<<<blocks, 256>>>(g->d_x, g->n)));
	APOD_CUDA_TRY(cudaDeviceSynchronize());
	return 0;
}

/* ---- graph: the same step, captured once as a CUDA graph and replayed
 * (apod_cuda_graph_run); the step reads and writes the same buffer, so
 * one graph serves every step. ---- */
struct graph_ctx {
	struct dev_ctx d;
	cudaStream_t stream;
	struct apod_cuda_graph graph;
	int captures;           /* times issue ran: 1 whatever the steps */
};

static void graph_destroy(void *ctx)
{
	struct graph_ctx *g = (struct graph_ctx *)ctx;
	if (g) {
		apod_cuda_graph_free(&g->graph);
		if (g->stream)
			cudaStreamDestroy(g->stream);
		cudaFree(g->d.d_x);
	}
	free(g);
}

static int graph_init(struct graph_ctx *g, size_t n)
{
	if (dev_init(&g->d, n))
		return -1;
	APOD_CUDA_TRY(cudaStreamCreateWithFlags(&g->stream, cudaStreamNonBlocking));
	return 0;
}

static void *graph_create(const struct apod_stage *s, const void *problem)
{
	struct graph_ctx *g = (struct graph_ctx *)apod_state_alloc(sizeof *g, s->name);
	if (!g)
		return NULL;
	if (graph_init(g, ((const struct user_problem *)problem)->n)) {
		graph_destroy(g);
		return NULL;
	}
	return g;
}

static int graph_issue(void *arg)
{
	struct graph_ctx *g = (struct graph_ctx *)arg;
	unsigned blocks = (unsigned)((g->d.n + 255) / 256);
	g->captures++;
	APOD_LAUNCH_TRY((step_kernel<<<blocks, 256, 0, g->stream>>>(g->d.d_x, g->d.n)));
	return 0;
}

static int graph_step(void *ctx, int phase, long step, long steps)
{
	struct graph_ctx *g = (struct graph_ctx *)ctx;
	(void)phase;
	(void)step;
	(void)steps;
	return apod_cuda_graph_run(&g->graph, g->stream, graph_issue, g);
}

static int graph_fetch(void *ctx, int a, void *dst)
{
	struct graph_ctx *g = (struct graph_ctx *)ctx;
	(void)a;
	if (g->captures != 1)
		return apod_fail("graph: the step was captured %d times, not once", g->captures);
	APOD_CUDA_TRY(cudaStreamSynchronize(g->stream));
	APOD_CUDA_TRY(cudaMemcpy(dst, g->d.d_x, g->d.n * sizeof(double), cudaMemcpyDeviceToHost));
	return 0;
}

static int dev_fetch(void *ctx, int a, void *dst)
{
	struct dev_ctx *g = (struct dev_ctx *)ctx;
	(void)a;
	APOD_CUDA_TRY(cudaMemcpy(dst, g->d_x, g->n * sizeof(double), cudaMemcpyDeviceToHost));
	return 0;
}

/* Each stage described once, its operations apart, in declaration order
 * (C++20 designated initializers); available and width left NULL: wherever
 * it was built, on one thread, or none where it runs on a device (gpu). */
static const struct apod_stage_ops serial_ops = {
	.create = host_create, .step = host_step, .probe = NULL, .fetch = host_fetch,
	.destroy = host_destroy,
};

static const struct apod_stage serial_stage = {
	.name = "serial", .about = "the reference", .ports = NULL, .ops = &serial_ops,
};

static const struct apod_stage_ops gpu_ops = {
	.available = apod_cuda_available, .create = dev_create, .step = dev_step, .probe = NULL,
	.fetch = dev_fetch, .destroy = dev_destroy,
};

static const struct apod_stage gpu_stage = {
	.name = "gpu", .about = "one thread a value", .ports = "step",
	.runs_on = APOD_RUNS_DEVICE, .ops = &gpu_ops,
};

static const struct apod_stage_ops graph_ops = {
	.available = apod_cuda_available, .create = graph_create, .step = graph_step, .probe = NULL,
	.fetch = graph_fetch, .destroy = graph_destroy,
};

static const struct apod_stage graph_stage = {
	.name = "graph", .about = "gpu's step replayed as a CUDA graph", .ports = "step",
	.runs_on = APOD_RUNS_DEVICE, .ops = &graph_ops,
};

static const struct apod_stage *const stages[] = { &serial_stage, &gpu_stage, &graph_stage, NULL };

static int x_shape(const void *prm, size_t dims[2])
{
	dims[0] = (size_t)((const struct user_params *)prm)->n;
	return 1;
}

static long steps(const void *prm) { return ((const struct user_params *)prm)->steps; }

static const struct apod_phase phases[] = { { .name = "step" }, { .name = NULL } };
static const struct apod_probe probes[] = { { .name = NULL } };
static const struct apod_array arrays[] = {
	{ .name = "x", .dtype = APOD_F64, .shape = x_shape, .compare = APOD_COMPARE_EXACT },
	{ .name = NULL },
};
static const struct apod_series series[] = { { .name = NULL } };

static const struct apod_workload user_workload = {
	.version = APOD_WORKLOAD_VERSION, .name = "user", .about = "a user's exact GPU stage",
	.params_size = sizeof(struct user_params), .params = params, .steps = steps,
	.problem_create = problem_create, .problem_destroy = problem_destroy,
	.phases = phases, .probes = probes, .arrays = arrays, .series = series,
	.stages = stages,
};

/* Each helper's failure path, reached on purpose: the messages must name
 * the call, where it was made and CUDA's error. */
static int try_bad_device(void)
{
	APOD_CUDA_TRY(cudaSetDevice(-1));
	return 0;
}

static __global__ void empty_kernel(void) {}

static int try_bad_launch(void)
{
	/* 4096 threads a block: more than any device accepts. */
	APOD_LAUNCH_TRY((empty_kernel<<<1, 4096>>>()));
	return 0;
}

static int cmd_cudacheck(int argc, char **argv)
{
	char why[512] = "";
	int ok = apod_cuda_available(&gpu_stage, why, sizeof why);
	(void)argc;
	(void)argv;
	printf("available: %d%s%s\n", ok, ok ? "" : ": ", why);
	printf("try: %d: %s\n", try_bad_device(), apod_failure());
	printf("launch: %d: %s\n", try_bad_launch(), apod_failure());
	return APOD_EXIT_OK;
}

static int cmd_require(int argc, char **argv)
{
	char *end;
	unsigned long long bytes;
	if (argc != 2 || !(bytes = strtoull(argv[1], &end, 10)) || *end) {
		fprintf(stderr, "usage: require BYTES\n");
		return APOD_EXIT_USAGE;
	}
	if (apod_cuda_require("mystage", (size_t)bytes)) {
		fprintf(stderr, "require: %s\n", apod_failure());
		return apod_failure_status();
	}
	printf("require: %llu bytes fit\n", bytes);
	return APOD_EXIT_OK;
}

static const struct apod_command commands[] = {
	{ .name = "cudacheck", .help = "what apod/cuda.h's helpers say here", .run = cmd_cudacheck },
	{ .name = "require", .help = "apod_cuda_require for BYTES", .run = cmd_require },
	{ .name = NULL },
};

static const struct apod_workload *const workloads[] = { &user_workload, NULL };

int main(int argc, char **argv)
{
	static const struct apod_program program = {
		.name = "user_stage", .about = "a user's GPU stage on apod/cuda.h",
		.workloads = workloads, .commands = commands,
		.device_info = apod_cuda_device_info, .ceilings = apod_cuda_ceilings,
	};
	return apod_main(argc, argv, &program);
}
