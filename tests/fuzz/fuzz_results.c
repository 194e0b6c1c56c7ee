/*
 * libFuzzer target: `apod verify` reads results directories it is given:
 * report.json (the workload and its parameters), each series' CSV and each
 * array's .npy.  Any bytes in them must give a run or a message, never a
 * crash, an overlong read or undefined behaviour; the run read back then
 * goes through the gate (verify against itself, and the report printed).
 *
 * The input is up to five parts separated by NUL bytes: report.json,
 * stats.csv, hist.csv, drift.csv and field.npy; a missing part is written
 * valid for the parameters the report gives (or absent, for the report).
 * The workload is a small one declared here with one output of each kind
 * the gate knows (close, counts, drift), so no real workload is linked.
 */
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apod/ready_made.h"
#include "cpu/harness/fail.h"
#include "cpu/harness/npy.h"
#include "cpu/harness/params.h"
#include "cpu/harness/results.h"
#include "cpu/harness/run.h"
#include "cpu/harness/verify.h"
#include "tests/constant_readers.h"

struct fz_params {
	char name[APOD_NAME_MAX];
	long size[2];
	long steps, every, bins;
	double scale;
};

static int fz_check(const void *params)
{
	const struct fz_params *p = params;
	/* A real workload bounds what its parameters make it allocate; so
	 * does this one, or the fuzzer would only find its own allocations. */
	if (p->size[0] * p->size[1] > 4096 || p->steps > 1000)
		return apod_usage_fail("too large for the fuzzer's workload");
	return 0;
}

APOD_PARAM_LONG(fz_steps, struct fz_params, steps)
APOD_PARAM_LONG(fz_every, struct fz_params, every)

static int fz_four(const void *params)
{
	(void)params;
	return 4;
}

static int fz_bins(const void *params)
{
	return (int)((const struct fz_params *)params)->bins;
}

static int fz_field(const void *params, size_t dims[2])
{
	const struct fz_params *p = params;
	dims[0] = (size_t)p->size[1];
	dims[1] = (size_t)p->size[0];
	return 2;
}

/* One form for every output: each comparison reads what it needs. */
static void fz_tol(const void *params, const void *problem, int any_float, int column,
                   enum apod_compare kind, struct apod_tol *t)
{
	const struct fz_params *p = params;
	(void)problem;
	(void)column;
	(void)kind;
	t->atol = p->scale * (any_float ? 1e-6 : 1e-12);
	t->rtol = 1e-7;
	t->total = (double)(p->size[0] * p->size[1]);
	t->frac = 1e-3;
}

#define AT(f) offsetof(struct fz_params, f)
static const struct apod_param fz_keys[] = {
	{ .key = "name", .type = APOD_PARAM_NAME, .def = "fuzz", .offset = AT(name), .neutral = 1 },
	{ .key = "size", .type = APOD_PARAM_PAIR, .def = "7x5", .lo = 1, .hi = 4096, .offset = AT(size) },
	{ .key = "steps", .type = APOD_PARAM_INT, .def = "6", .lo = 1, .hi = 1000000, .offset = AT(steps) },
	{ .key = "every", .type = APOD_PARAM_INT, .def = "2", .lo = 0, .hi = 1000, .offset = AT(every) },
	{ .key = "bins", .type = APOD_PARAM_INT, .def = "3", .lo = 1, .hi = 64, .offset = AT(bins) },
	{ .key = "scale", .type = APOD_PARAM_REAL, .def = "100", .lo = 0, .hi = 1e6, .offset = AT(scale) },
	{ .key = NULL },
};
static const struct apod_phase fz_phases[] = { { "step" }, { NULL } };
static const struct apod_probe fz_probes[] = {
	{ .name = "calcStats", .every = every_step },
	{ .name = "calcSummary", .every = fz_every },
	{ .name = NULL },
};
static const struct apod_array fz_arrays[] = {
	{ .name = "field", .dtype = APOD_F32, .shape = fz_field, .compare = APOD_COMPARE_CLOSE,
	  .tolerance = fz_tol },
	{ .name = NULL },
};
static const struct apod_series fz_series[] = {
	{ .name = "stats", .probe = "calcStats", .column_names = "mean,min,max,variance",
	  .compare = APOD_COMPARE_CLOSE, .tolerance = fz_tol },
	{ .name = "hist", .probe = "calcStats", .columns = fz_bins, .column_prefix = "bin",
	  .dtype = APOD_I64, .compare = APOD_COMPARE_COUNTS, .tolerance = fz_tol },
	{ .name = "drift", .probe = "calcSummary", .columns = fz_four, .compare = APOD_COMPARE_DRIFT,
	  .tolerance = fz_tol },
	{ .name = NULL },
};
/* The gate builds the problem its tolerances are told of from the deck
 * (every tolerance is told of one): the parameters will do. */
static void *fz_problem(const void *params)
{
	void *p = malloc(sizeof(struct fz_params));
	if (p)
		memcpy(p, params, sizeof(struct fz_params));
	return p;
}

static const struct apod_workload fz_workload = {
	.version = APOD_WORKLOAD_VERSION, .name = "fuzz", .params_size = sizeof(struct fz_params),
	.params = fz_keys, .check = fz_check, .steps = fz_steps, .phases = fz_phases,
	.problem_create = fz_problem, .problem_destroy = free,
	.probes = fz_probes, .arrays = fz_arrays, .series = fz_series,
};
static const struct apod_workload *const fz_workloads[] = { &fz_workload, NULL };

static const char *const names[] = { "report.json", "stats.csv", "hist.csv", "drift.csv",
                                     "field.npy" };
#define NPARTS (int)(sizeof names / sizeof names[0])
static char dir[64];
/* What a run of the default parameters writes: the parts an input leaves out. */
static char *defaults[NPARTS];
static size_t default_size[NPARTS];

static void remove_dir(void)
{
	for (int i = 0; i < NPARTS; i++) {
		char path[128];
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		unlink(path);
	}
	rmdir(dir);
}

static void put(int part, const void *data, size_t size)
{
	char path[128];
	int fd;
	snprintf(path, sizeof path, "%s/%s", dir, names[part]);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		abort();
	if (size && write(fd, data, size) != (ssize_t)size)
		abort();
	close(fd);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	void *params = apod_params_new(&fz_workload);
	struct apod_run r;
	(void)argc;
	(void)argv;
	snprintf(dir, sizeof dir, "%s", "/tmp/apod-fuzz-results-XXXXXX");
	if (!mkdtemp(dir))
		abort();
	atexit(remove_dir);
	if (!params || apod_run_alloc(&r, &fz_workload, params))
		abort();
	for (int i = 0; i < r.nseries; i++)
		for (long k = 0; k < r.series[i].rows; k++) {
			r.series[i].step[k] = (k + 1) * r.series[i].every;
			for (int c = 0; c < r.series[i].cols; c++) {
				size_t at = (size_t)k * (size_t)r.series[i].cols + (size_t)c;
				if (r.series[i].dtype == APOD_F64)
					r.series[i].v[at] = 1.5;
				else   /* hist: 35 counts in the first bin */
					((int64_t *)r.series[i].values)[at] = c == 0 ? 35 : 0;
			}
		}
	memset(r.arrays[0].data, 0, r.arrays[0].count * sizeof(float));
	if (apod_results_write(dir, params, &r))
		abort();
	apod_run_free(&r);
	free(params);
	for (int i = 0; i < NPARTS; i++) {
		char path[128];
		FILE *f;
		long n;
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		if (!(f = fopen(path, "rb")) || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 ||
		    fseek(f, 0, SEEK_SET) || !(defaults[i] = malloc((size_t)n + 1)) ||
		    fread(defaults[i], 1, (size_t)n, f) != (size_t)n)
			abort();
		default_size[i] = (size_t)n;
		fclose(f);
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *p = data, *end = data + size;
	void *params;
	struct apod_run r;
	struct apod_verdict v;
	int part = 0;

	/* The input's parts, split at NUL bytes (the last part, the .npy, may
	 * hold any), then the defaults for the rest. */
	while (part < NPARTS) {
		const uint8_t *nul = part < NPARTS - 1 ? memchr(p, 0, (size_t)(end - p)) : NULL;
		const uint8_t *stop = nul ? nul : end;
		put(part++, p, (size_t)(stop - p));
		if (!nul)
			break;
		p = nul + 1;
	}
	for (; part < NPARTS; part++)
		put(part, defaults[part], default_size[part]);
	if (apod_results_load(dir, fz_workloads, &params, &r) == 0) {
		FILE *devnull = fopen("/dev/null", "w");
		char line[256];
		apod_verify(params, &r, &r, &v);
		apod_verdict_line(&v, line, sizeof line);
		if (devnull) {
			apod_verdict_print(devnull, &v, &r);
			fclose(devnull);
		}
		apod_run_free(&r);
		free(params);
	}
	return 0;
}
