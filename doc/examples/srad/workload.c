/*
 * workload.c: the srad example declared to the harness: its keys (Rodinia's
 * command line), its problem (Rodinia's random matrix, exponentiated), the
 * phases of an iteration, the probe and the outputs, the tolerances the
 * gate holds every stage to, and the work of each phase.
 */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <apod/apod.h>
#include <apod/ready_made.h>

#include "srad.h"

#define SRAD_MAX_SIDE (1L << 18)
#define SRAD_MAX_STEPS 1000000

static const struct apod_param keys[] = {
	APOD_KEY_NAME(struct srad_params, name, "srad"),
	{ .key = "rows", .type = APOD_PARAM_INT, .def = "2048", .lo = 16, .hi = SRAD_MAX_SIDE,
	  .offset = offsetof(struct srad_params, rows), .help = "image rows (a multiple of 16)" },
	{ .key = "cols", .type = APOD_PARAM_INT, .def = "2048", .lo = 16, .hi = SRAD_MAX_SIDE,
	  .offset = offsetof(struct srad_params, cols), .help = "image columns (a multiple of 16)" },
	/* Rodinia's y1 y2 x1 x2 "of the speckle": the region whose statistics
	 * give q0sqr; its run script uses 0 127 0 127 on a 2048 x 2048 image. */
	{ .key = "r1", .type = APOD_PARAM_INT, .def = "0", .lo = 0, .hi = SRAD_MAX_SIDE,
	  .offset = offsetof(struct srad_params, r1), .help = "the ROI's first row" },
	{ .key = "r2", .type = APOD_PARAM_INT, .def = "127", .lo = 0, .hi = SRAD_MAX_SIDE,
	  .offset = offsetof(struct srad_params, r2), .help = "the ROI's last row" },
	{ .key = "c1", .type = APOD_PARAM_INT, .def = "0", .lo = 0, .hi = SRAD_MAX_SIDE,
	  .offset = offsetof(struct srad_params, c1), .help = "the ROI's first column" },
	{ .key = "c2", .type = APOD_PARAM_INT, .def = "127", .lo = 0, .hi = SRAD_MAX_SIDE,
	  .offset = offsetof(struct srad_params, c2), .help = "the ROI's last column" },
	/* lambda <= 1 keeps each update a convex combination of a pixel and its
	 * neighbours, which the tolerances rely on (the image stays within
	 * its starting range); Rodinia asks for (0, 1). */
	{ .key = "lambda", .type = APOD_PARAM_REAL, .def = "0.5", .lo = 0, .lo_open = 1, .hi = 1,
	  .offset = offsetof(struct srad_params, lambda), .help = "the update's step size" },
	APOD_KEY_STEPS(struct srad_params, steps, "10", SRAD_MAX_STEPS),
	{ .key = "seed", .type = APOD_PARAM_INT, .def = "7", .lo = 0, .hi = UINT_MAX,
	  .offset = offsetof(struct srad_params, seed),
	  .help = "srand(seed) before the random image (Rodinia's is 7)" },
	/* Written out, not APOD_KEY_EVERY: its help ends "(0: never)", and
	 * this probe also runs at step 0 and at the end whatever the key. */
	{ .key = "stats_every", .type = APOD_PARAM_INT, .def = "0", .lo = 0, .hi = SRAD_MAX_STEPS,
	  .offset = offsetof(struct srad_params, stats_every),
	  .help = "imageStats (the image's mean and variance) every K steps, besides step 0 and "
	          "the end (0: only those)" },
	{ .key = NULL },
};

/* Every stage's arrays at the peak: the image, four derivatives and the
 * coefficient (the host stages'), the problem's copy and the harness's
 * fetched copy: 8 floats a pixel. */
static size_t run_bytes(const struct srad_params *p)
{
	double bytes = 8.0 * sizeof(float) * (double)p->rows * (double)p->cols;
	return bytes < (double)SIZE_MAX / 2 ? (size_t)bytes : 0;
}

static int check(const void *params)
{
	const struct srad_params *p = params;
	if (p->rows % 16 || p->cols % 16)
		return apod_usage_fail("rows = %ld, cols = %ld: rows and cols must be multiples of 16 "
		                       "(Rodinia's rule)", p->rows, p->cols);
	if (p->r1 > p->r2 || p->r2 >= p->rows || p->c1 > p->c2 || p->c2 >= p->cols)
		return apod_usage_fail("the ROI rows %ld..%ld, columns %ld..%ld must lie in the %ld x "
		                       "%ld image, first before last", p->r1, p->r2, p->c1, p->c2,
		                       p->rows, p->cols);
	if ((p->r2 - p->r1 + 1) * (p->c2 - p->c1 + 1) > INT_MAX)
		return apod_usage_fail("the ROI has more pixels than Rodinia's int size_R holds");
	return apod_fits_in_memory(run_bytes(p), "a %ld x %ld image", p->rows, p->cols);
}

APOD_PARAM_LONG(steps, struct srad_params, steps)
APOD_PARAM_LONG(stats_every, struct srad_params, stats_every)
APOD_PARAM_TEXT(title, struct srad_params, name)

/* Weak scaling: more rows, the same ROI (whose statistics stay one
 * sweep of it, as Rodinia's do whatever the image). */
static int grow(void *params, int factor)
{
	struct srad_params *p = params;
	if (p->rows > SRAD_MAX_SIDE / factor)
		return apod_usage_fail("rows = %ld times %d is past %ld", p->rows, factor, SRAD_MAX_SIDE);
	p->rows *= factor;
	return 0;
}

static void problem_destroy(void *problem)
{
	struct srad_problem *pb = problem;
	if (!pb)
		return;
	free(pb->J0);
	free(pb->iN);
	free(pb->iS);
	free(pb->jW);
	free(pb->jE);
	free(pb);
}

/* Rodinia's input: srand(7), then rand()/(float)RAND_MAX row by row
 * (random_matrix), each value exponentiated in double and kept as a float.
 * The C library's rand(), as Rodinia's: the image is glibc's on Linux. */
static void *problem_create(const void *params)
{
	const struct srad_params *p = params;
	struct srad_problem *pb = calloc(1, sizeof *pb);
	double s = 0, s2 = 0;
	if (!pb)
		goto nomem;
	pb->rows = p->rows;
	pb->cols = p->cols;
	pb->n = p->rows * p->cols;
	pb->r1 = (int)p->r1;
	pb->r2 = (int)p->r2;
	pb->c1 = (int)p->c1;
	pb->c2 = (int)p->c2;
	pb->n_roi = (pb->r2 - pb->r1 + 1) * (pb->c2 - pb->c1 + 1);
	pb->lambda = (float)p->lambda;
	pb->J0 = malloc((size_t)pb->n * sizeof *pb->J0);
	pb->iN = malloc((size_t)pb->rows * sizeof *pb->iN);
	pb->iS = malloc((size_t)pb->rows * sizeof *pb->iS);
	pb->jW = malloc((size_t)pb->cols * sizeof *pb->jW);
	pb->jE = malloc((size_t)pb->cols * sizeof *pb->jE);
	if (!pb->J0 || !pb->iN || !pb->iS || !pb->jW || !pb->jE)
		goto nomem;
	for (long i = 0; i < pb->rows; i++) {
		pb->iN[i] = i == 0 ? 0 : (int)i - 1;
		pb->iS[i] = i == pb->rows - 1 ? (int)i : (int)i + 1;
	}
	for (long j = 0; j < pb->cols; j++) {
		pb->jW[j] = j == 0 ? 0 : (int)j - 1;
		pb->jE[j] = j == pb->cols - 1 ? (int)j : (int)j + 1;
	}
	srand((unsigned)p->seed);
	for (long k = 0; k < pb->n; k++)
		pb->J0[k] = expf(rand() / (float)RAND_MAX);
	pb->jmin = pb->jmax = pb->J0[0];
	for (long k = 0; k < pb->n; k++) {
		pb->jmin = fminf(pb->jmin, pb->J0[k]);
		pb->jmax = fmaxf(pb->jmax, pb->J0[k]);
	}
	for (long i = pb->r1; i <= pb->r2; i++)
		for (long j = pb->c1; j <= pb->c2; j++) {
			double x = pb->J0[i * pb->cols + j];
			s += x;
			s2 += x * x;
		}
	pb->roi_mean = s / pb->n_roi;
	pb->roi_ex2 = s2 / pb->n_roi;
	return pb;
nomem:
	problem_destroy(pb);
	apod_fail("srad: cannot allocate a %ld x %ld image", p->rows, p->cols);
	return NULL;
}

/* ---- tolerances ---------------------------------------------------------
 *
 * Every stage computes each pixel by the same expressions (srad.h) with
 * contraction off, so a stage that sums the ROI in Rodinia's order (omp)
 * gives serial's bits; one that sums it in another order (gpu: a tree)
 * gets other float sums, so another q0sqr, and from it other coefficients
 * and images.  The bound, first order in that difference:
 *
 * 1. The sums.  n = n_roi positive terms in float, in two orders: each is
 *    within gt * sum of the exact sum, gt being Higham and Mary's
 *    probabilistic bound for a sum of n terms (A new approach to
 *    probabilistic rounding error analysis, SIAM J. Sci. Comput. 41, 2019:
 *    exp(lp sqrt(n) u + n u^2/(1-u)) - 1, holding with probability at
 *    least 1 - 2n exp(-lp^2 (1-u)^2 / 2); lp = 8 makes that 4e-7 at n =
 *    2^24).  The worst-case bound (n u) would allow errors sqrt(n) times
 *    larger than rounding makes in practice, and a tolerance as loose.
 *    So the two stages' sums differ by eps = 2 gt relatively (plus u for
 *    the division by n).
 * 2. q0sqr = var / mean^2, var = E[x^2] - mean^2: the subtraction cancels,
 *    so rho = dq0/q0 <= ((E[x^2] + 2 mean^2) eps + 2u (E[x^2] + mean^2)) /
 *    var + 2 eps + 2u, with the ROI's moments at the start (the problem's).
 * 3. The coefficient c = 1 / (1 + (q - q0) / (q0 (1 + q0))), saturated to
 *    [0, 1] (continuous: q >= 0 since num >= G2/4 by Cauchy-Schwarz, so the
 *    den never reaches -1): where it is not saturated, |dc/dq0| = (c^2 +
 *    c(1-c)(1+2 q0)) / (q0 (1+q0)) <= g / (q0 (1+q0)), g = 1 for q0 < 1/2,
 *    else (1+2 q0)^2 / (8 q0).  So |dc| <= g rho / (1 + q0).
 * 4. An update moves a pixel by 0.25 lambda times four coefficients times
 *    derivatives no larger than the image's range (jmax - jmin, which the
 *    updates keep: convex combinations for lambda <= 1), so a step adds at
 *    most lambda |dc| (jmax - jmin); for fixed coefficients an update is a
 *    convex combination, so the differences of earlier steps do not grow.
 *    After `steps` steps: atol = steps lambda |dc| (jmax - jmin).
 * What this leaves out, on purpose: the ROI's variance falls as the image
 * is smoothed (q0sqr's cancellation worsens), and a difference in the
 * image feeds back into its coefficients.  Both are second order over the
 * decks of the README, where the measured differences sit far inside the
 * bound (the README's table); a deck that diffuses for thousands of steps
 * would need a horizon.
 */
#define SRAD_LP 8.0

static double image_atol(const struct srad_params *p, const struct srad_problem *pb)
{
	double u = FLT_EPSILON / 2, n = pb->n_roi;
	double gt = expm1(SRAD_LP * sqrt(n) * u + n * u * u / (1 - u));
	double eps = 2 * gt + u;
	double m2 = pb->roi_mean * pb->roi_mean, ex2 = pb->roi_ex2, var = ex2 - m2;
	double q0 = var / m2;
	double rho = ((ex2 + 2 * m2) * eps + 2 * u * (ex2 + m2)) / var + 2 * eps + 2 * u;
	double g = q0 < 0.5 ? 1 : (1 + 2 * q0) * (1 + 2 * q0) / (8 * q0);
	double dc = g * rho / (1 + q0);
	return (double)p->steps * p->lambda * dc * ((double)pb->jmax - pb->jmin);
}

static void image_tolerance(const void *params, const void *problem, int any_float, int column,
                            enum apod_compare kind, struct apod_tol *t)
{
	(void)any_float;   /* every stage computes in float, as Rodinia */
	(void)column;
	(void)kind;
	t->atol = image_atol(params, problem);
	t->rtol = 0;
}

/* The probe's mean: SRAD's update is in flux form (what pixel k gains
 * from its south neighbour, 0.25 lambda c[S] (J[S] - J[k]), is what S
 * loses to k through its north side, with the same c[S] and the exact
 * negative of the same float difference; likewise east and west; at the
 * edges the clamp makes the derivative zero), so the image's sum is
 * conserved and each run's mean is held to its step-0 value (DRIFT).  In
 * float, a pixel's update rounds where D adds its four terms (3 roundings,
 * each at most u times the four terms' sum, at most 4 (jmax - jmin): 3 u
 * lambda (jmax - jmin) once scaled by 0.25 lambda) and where the result is
 * stored (u jmax); so the mean drifts by at most that a step.  The probe's
 * double sums add n u_d jmax at worst, at both ends. */
static void mean_tolerance(const void *params, const void *problem, int any_float, int column,
                           enum apod_compare kind, struct apod_tol *t)
{
	const struct srad_params *p = params;
	const struct srad_problem *pb = problem;
	double u = FLT_EPSILON / 2, range = (double)pb->jmax - pb->jmin;
	(void)any_float;
	(void)column;
	(void)kind;
	t->atol = (double)p->steps * u * (pb->jmax + 3 * p->lambda * range) +
	          2 * (double)pb->n * (DBL_EPSILON / 2) * pb->jmax;
	t->rtol = 0;
}

/* The probe's variance, against serial's (CLOSE): a difference of at most
 * a in every pixel moves it by at most 2 sd a + a^2 (Cauchy-Schwarz), and
 * sd <= (jmax - jmin) / 2 (Popoviciu); each stage's double sums add
 * n u_d jmax^2 at worst. */
static void variance_tolerance(const void *params, const void *problem, int any_float, int column,
                               enum apod_compare kind, struct apod_tol *t)
{
	const struct srad_problem *pb = problem;
	double a = image_atol(params, problem), range = (double)pb->jmax - pb->jmin;
	(void)any_float;
	(void)column;
	(void)kind;
	t->atol = range * a + a * a + 2 * (double)pb->n * (DBL_EPSILON / 2) * pb->jmax * pb->jmax;
	t->rtol = 0;
}

/* ---- the work of each phase, for the speed of light ---------------------
 *
 * The compulsory minimum, by phase name.  roiStats reads the ROI once (4
 * bytes a pixel) and does two adds and a multiply a pixel.  coefficient
 * must read the image and write the coefficients (8 bytes a pixel); update
 * must read the image and the coefficients and write the image (12).
 * Rodinia also stores the four derivatives between the two (16 bytes a
 * pixel written, then read): every stage here keeps them, as Rodinia does,
 * but a stage could recompute them from the image in update, so they are
 * not compulsory, and the speed of light shows what keeping them costs.
 * Flops per pixel, as srad.h computes them: coefficient 18 float (4
 * differences, G2's 8, L's 3, L*L, qsqr's den*den, qsqr - q0sqr) and 6
 * double (num's three, den's two, 1.0 + den), with 5 divisions counted as
 * special; update 7 float (the divergence) and 2 double (the product and
 * the sum of the update; 0.25*lambda is the same for every pixel).
 * imageStats reads the image and does three double operations a pixel.
 */
static int work(const void *params, const void *problem, const char *phase, struct apod_work *w)
{
	const struct srad_params *p = params;
	double n = (double)p->rows * (double)p->cols;
	double roi = (double)(p->r2 - p->r1 + 1) * (double)(p->c2 - p->c1 + 1);
	(void)problem;
	if (!strcmp(phase, "roiStats")) {
		w->bytes = 4 * roi;
		w->flops32 = 3 * roi;
	} else if (!strcmp(phase, "coefficient")) {
		w->bytes = 8 * n;
		w->flops32 = 18 * n;
		w->flops64 = 6 * n;
		w->special = 5 * n;
	} else if (!strcmp(phase, "update")) {
		w->bytes = 12 * n;
		w->flops32 = 7 * n;
		w->flops64 = 2 * n;
	} else if (!strcmp(phase, "imageStats")) {
		w->bytes = 4 * n;
		w->flops64 = 3 * n;
	} else
		return 0;
	return 1;
}

static const struct apod_phase phases[] = {
	[SRAD_ROI_STATS] = { "roiStats" },
	[SRAD_COEFFICIENT] = { "coefficient" },
	[SRAD_UPDATE] = { "update" },
	[SRAD_PHASES] = { NULL },
};

static const struct apod_probe probes[] = {
	{ .name = "imageStats", .every = stats_every, .at = APOD_AT_START | APOD_AT_END },
	{ .name = NULL },
};

static int image_shape(const void *params, size_t dims[2])
{
	const struct srad_params *p = params;
	dims[0] = (size_t)p->rows;
	dims[1] = (size_t)p->cols;
	return 2;
}

/* Rodinia's check is the final image, printed (its OUTPUT build) with
 * %.5f: here it is the array `image`, compared in full. */
static const struct apod_array arrays[] = {
	{ .name = "image", .dtype = APOD_F32, .shape = image_shape,
	  .compare = APOD_COMPARE_CLOSE, .tolerance = image_tolerance },
	{ .name = NULL },
};

static const struct apod_series series[] = {
	{ .name = "mean", .probe = "imageStats", .column_names = "mean",
	  .compare = APOD_COMPARE_DRIFT, .tolerance = mean_tolerance },
	{ .name = "variance", .probe = "imageStats", .column_names = "variance",
	  .compare = APOD_COMPARE_CLOSE, .tolerance = variance_tolerance },
	{ .name = NULL },
};

static const struct apod_stage *const stages[] = {
	&srad_stage_serial,
	&srad_stage_omp,
	&srad_stage_gpu,
	NULL,
};

const struct apod_workload srad_workload = {
	.version = APOD_WORKLOAD_VERSION,
	.name = "srad",
	.about = "Rodinia's SRAD v2: speckle-reducing anisotropic diffusion of a float image",
	.params_size = sizeof(struct srad_params),
	.params = keys,
	.check = check,
	.steps = steps,
	.title = title,
	.problem_create = problem_create,
	.problem_destroy = problem_destroy,
	.phases = phases,
	.probes = probes,
	.arrays = arrays,
	.series = series,
	.stages = stages,
	.grow = grow,
	.work = work,
};
