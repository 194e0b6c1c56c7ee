/*
 * stages.c: the three stages described (what the table and `apod stages`
 * read), and the host's two: serial (Rodinia's loops, one core) and omp
 * (Rodinia's own OpenMP version: the two pixel loops shared among the
 * cores by rows, the ROI statistics left serial, as Rodinia leaves them).
 * Every pixel is computed by the same expression in the same order in both,
 * so omp gives serial's bits.
 */
#include <stdlib.h>

#include <apod/apod.h>
#include <apod/ready_made.h>

#include "srad.h"

struct host {
	const struct srad_problem *pb;
	float *J, *c, *dN, *dS, *dW, *dE;
	float q0sqr;              /* from roiStats, for coefficient */
};

static void host_destroy(void *ctx)
{
	struct host *h = ctx;
	free(h->J);
	free(h->c);
	free(h->dN);
	free(h->dS);
	free(h->dW);
	free(h->dE);
	free(h);
}

static int host_setup(void *ctx, const void *problem)
{
	struct host *h = ctx;
	const struct srad_problem *pb = problem;
	size_t bytes = (size_t)pb->n * sizeof(float);
	h->pb = pb;
	if (!(h->J = malloc(bytes)) || !(h->c = malloc(bytes)) || !(h->dN = malloc(bytes)) ||
	    !(h->dS = malloc(bytes)) || !(h->dW = malloc(bytes)) || !(h->dE = malloc(bytes)))
		return apod_fail("srad: cannot allocate the arrays of a %ld x %ld image", pb->rows,
		                 pb->cols);
	for (long k = 0; k < pb->n; k++)
		h->J[k] = pb->J0[k];
	return 0;
}

static void *host_create(const struct apod_stage *s, const void *problem)
{
	return apod_state_create(problem, sizeof(struct host), s->name, host_setup, host_destroy);
}

/* Phase roiStats: Rodinia's float sums over the ROI, row by row. */
static void roi_stats(struct host *h)
{
	const struct srad_problem *pb = h->pb;
	float sum = 0, sum2 = 0;
	for (long i = pb->r1; i <= pb->r2; i++)
		for (long j = pb->c1; j <= pb->c2; j++) {
			float tmp = h->J[i * pb->cols + j];
			sum += tmp;
			sum2 += tmp * tmp;
		}
	h->q0sqr = srad_q0sqr(sum, sum2, pb->n_roi);
}

/* Phase coefficient, for row i. */
static void coefficient_row(struct host *h, long i)
{
	const struct srad_problem *pb = h->pb;
	const float *J = h->J;
	long cols = pb->cols;
	for (long j = 0; j < cols; j++) {
		long k = i * cols + j;
		float d[4];
		h->c[k] = srad_coefficient(J[k], J[pb->iN[i] * cols + j], J[pb->iS[i] * cols + j],
		                           J[i * cols + pb->jW[j]], J[i * cols + pb->jE[j]],
		                           h->q0sqr, d);
		h->dN[k] = d[0];
		h->dS[k] = d[1];
		h->dW[k] = d[2];
		h->dE[k] = d[3];
	}
}

/* Phase update, for row i: reads only c and the derivatives of other
 * pixels, so the rows are independent. */
static void update_row(struct host *h, long i)
{
	const struct srad_problem *pb = h->pb;
	long cols = pb->cols;
	for (long j = 0; j < cols; j++) {
		long k = i * cols + j;
		h->J[k] = srad_update(h->J[k], h->c[k], h->c[pb->iS[i] * cols + j],
		                      h->c[i * cols + pb->jE[j]], h->dN[k], h->dS[k], h->dW[k],
		                      h->dE[k], pb->lambda);
	}
}

static int serial_step(void *ctx, int phase, long step, long steps)
{
	struct host *h = ctx;
	(void)step;
	(void)steps;
	if (phase == SRAD_ROI_STATS)
		roi_stats(h);
	else if (phase == SRAD_COEFFICIENT)
		for (long i = 0; i < h->pb->rows; i++)
			coefficient_row(h, i);
	else
		for (long i = 0; i < h->pb->rows; i++)
			update_row(h, i);
	return 0;
}

static int omp_step(void *ctx, int phase, long step, long steps)
{
	struct host *h = ctx;
	long rows = h->pb->rows;
	(void)step;
	(void)steps;
	if (phase == SRAD_ROI_STATS)
		roi_stats(h);
	else if (phase == SRAD_COEFFICIENT) {
#pragma omp parallel for schedule(static)
		for (long i = 0; i < rows; i++)
			coefficient_row(h, i);
	} else {
#pragma omp parallel for schedule(static)
		for (long i = 0; i < rows; i++)
			update_row(h, i);
	}
	return 0;
}

/* Probe imageStats: the whole image's mean and variance, summed in double
 * in order (not Rodinia's: what the run records of the image as it goes). */
static int host_probe(void *ctx, int k, long step, long row, void *const *rows)
{
	struct host *h = ctx;
	double s = 0, s2 = 0, n = (double)h->pb->n, mean;
	(void)k;
	(void)step;
	(void)row;
	for (long q = 0; q < h->pb->n; q++) {
		s += h->J[q];
		s2 += (double)h->J[q] * h->J[q];
	}
	mean = s / n;
	((double *)rows[0])[0] = mean;
	((double *)rows[1])[0] = s2 / n - mean * mean;
	return 0;
}

static int host_fetch(void *ctx, int a, void *dst)
{
	struct host *h = ctx;
	float *out = dst;
	(void)a;
	for (long k = 0; k < h->pb->n; k++)
		out[k] = h->J[k];
	return 0;
}

static const struct apod_stage_ops serial_ops = {
	.create = host_create,
	.step = serial_step,
	.probe = host_probe,
	.fetch = host_fetch,
	.destroy = host_destroy,
};

static const struct apod_stage_ops omp_ops = {
	APOD_OPS_OMP,
	.create = host_create,
	.step = omp_step,
	.probe = host_probe,
	.fetch = host_fetch,
	.destroy = host_destroy,
};

const struct apod_stage srad_stage_serial = {
	APOD_STAGE_SERIAL,
	.about = "the reference: Rodinia's loops, one pixel after another",
	.ops = &serial_ops,
};

const struct apod_stage srad_stage_omp = {
	APOD_STAGE_OMP,
	.about = "Rodinia's OpenMP: the pixel loops shared by rows, the ROI statistics serial",
	.ports = "coefficient,update",
	.ops = &omp_ops,
};

const struct apod_stage srad_stage_gpu = {
	.name = "gpu",
	.about = "one kernel a phase, the image resident on the device, the ROI sums a device "
	         "reduction",
	.ports = "setup,roiStats,coefficient,update,imageStats,fetchResults",
	.runs_on = APOD_RUNS_DEVICE,
	.needs = "CUDA (the Makefile builds it where it finds nvcc)",
#ifdef SRAD_GPU
	.ops = &srad_gpu_ops,
#endif
};
