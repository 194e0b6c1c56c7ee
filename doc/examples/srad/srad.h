/*
 * srad.h: the srad example's parameters, its problem, and the arithmetic of
 * one pixel, written once for every stage (the host's C and nvcc's CUDA:
 * APOD_HD).
 *
 * The program is Rodinia's SRAD, version 2 (openmp/srad/srad_v2/srad.cpp):
 * speckle-reducing anisotropic diffusion of a rows x cols float image.
 * Every iteration has three phases: the statistics of a region of interest
 * (a float sum and sum of squares, giving q0sqr), the four directional
 * derivatives and the diffusion coefficient of every pixel, and the
 * divergence and the image update.  The expressions below keep Rodinia's
 * types and order exactly, the double constants among its float variables
 * included (0.5*G2 is computed in double, then rounded into a float), so
 * the serial stage computes Rodinia's bits.
 */
#ifndef SRAD_H
#define SRAD_H

#include <apod/apod_hd.h>
#include <apod/workload.h>

#ifdef __cplusplus
extern "C" {
#endif

struct srad_params {
	long rows, cols;          /* the image; Rodinia asks for multiples of 16 */
	long r1, r2, c1, c2;      /* the region of interest, rows r1..r2, columns c1..c2 */
	double lambda;            /* the update's step size, (0, 1]; Rodinia keeps it in a float */
	long steps;               /* Rodinia's niter */
	long seed;                /* srand(seed) before the random matrix: Rodinia's is 7 */
	long stats_every;         /* the image statistics probe */
	char name[APOD_NAME_MAX];
};

/* The phases of one iteration, in order: the workload's table
 * (workload.c) is indexed by these, so a stage's step() and the names
 * cannot part. */
enum srad_phase { SRAD_ROI_STATS, SRAD_COEFFICIENT, SRAD_UPDATE, SRAD_PHASES };

/* Built once on the host (problem_create); every stage reads it, none
 * writes it. */
struct srad_problem {
	long rows, cols, n;       /* n = rows * cols */
	int r1, r2, c1, c2;
	int n_roi;                /* Rodinia's size_R, an int, divided into float sums */
	float lambda;
	float *J0;                /* the image every stage starts from: exp of the random matrix */
	/* Rodinia's neighbour tables: the row above and below, the column left
	 * and right, clamped at the edges (the serial and omp stages read them;
	 * the gpu stage computes the same clamp). */
	int *iN, *iS, *jW, *jE;
	/* For the tolerances (workload.c): the image's range, which the update
	 * keeps (a convex combination for lambda <= 1), and the ROI's moments
	 * at the start, in double. */
	float jmin, jmax;
	double roi_mean, roi_ex2;
};

/* q0sqr from the ROI's float sums (Rodinia: meanROI, varROI, q0sqr). */
APOD_HD float srad_q0sqr(float sum, float sum2, int n_roi)
{
	float mean = sum / n_roi;
	float var = (sum2 / n_roi) - mean * mean;
	return var / (mean * mean);
}

/* Pixel Jc's derivatives towards its four neighbours (written into d:
 * north, south, west, east) and its diffusion coefficient, saturated to
 * [0, 1].  Rodinia's expressions: num and the two den mix double literals
 * into float arithmetic; each is rounded to float where Rodinia assigns. */
APOD_HD float srad_coefficient(float Jc, float Jn, float Js, float Jw, float Je, float q0sqr,
                               float d[4])
{
	float G2, L, num, den, qsqr, c;
	d[0] = Jn - Jc;
	d[1] = Js - Jc;
	d[2] = Jw - Jc;
	d[3] = Je - Jc;
	G2 = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + d[3] * d[3]) / (Jc * Jc);
	L = (d[0] + d[1] + d[2] + d[3]) / Jc;
	num = (0.5 * G2) - ((1.0 / 16.0) * (L * L));
	den = 1 + (.25 * L);
	qsqr = num / (den * den);
	den = (qsqr - q0sqr) / (q0sqr * (1 + q0sqr));
	c = 1.0 / (1.0 + den);
	if (c < 0)
		c = 0;
	else if (c > 1)
		c = 1;
	return c;
}

/* The divergence at a pixel (its own coefficient serves north and west,
 * its south and east neighbours' the other two, as in Rodinia) and the
 * updated value: J + 0.25*lambda*D in double, rounded to float. */
APOD_HD float srad_update(float J, float c, float cS, float cE, float dN, float dS, float dW,
                          float dE, float lambda)
{
	float D = c * dN + cS * dS + c * dW + cE * dE;
	return J + 0.25 * lambda * D;
}

extern const struct apod_workload srad_workload;
extern const struct apod_stage srad_stage_serial, srad_stage_omp, srad_stage_gpu;
#ifdef SRAD_GPU
extern const struct apod_stage_ops srad_gpu_ops;   /* stage_gpu.cu */
#endif

#ifdef __cplusplus
}
#endif

#endif
