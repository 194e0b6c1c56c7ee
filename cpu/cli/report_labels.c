/*
 * report_labels.c: where the roofline's point numbers go (report.h).  Two
 * phases often reach nearly the same place (omp's and mpi's stencil, a
 * stage's probes at the right edge), and a number written at one fixed
 * offset from its point then covers its neighbour's: each number takes the
 * first of a ring of places around its point that covers no point and no
 * number placed before it.
 */
#include <math.h>

#include "report.h"

/* The plot's size in characters of the labels' font, roughly: 700 by 560
 * pixels of plot area (roofline.gp's 1000x680 terminal, less the key and
 * the margins), characters of about 6 by 12 pixels. */
#define COLS 115.0
#define ROWS 46.0

struct box {
	double x0, x1, y0, y1;
};

static int overlaps(struct box a, struct box b)
{
	return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

/* The decades roofline.gp draws over [a, b] (log10): whole ones, a factor
 * of two of room each side, at least two. */
static void decades(double a, double b, double *lo, double *span)
{
	if (!isfinite(a) || !isfinite(b)) {
		a = -1;
		b = 1;
	}
	*lo = floor(a - log10(2.0));
	*span = fmax(2, ceil(b + log10(2.0)) - *lo);
}

void report_place_labels(int n, const double *lx, const double *ly, const double extent[4],
                         double *ox, double *oy)
{
	/* Offsets in characters, nearest first: right, left, above, below,
	 * then the diagonals, then farther out. */
	static const double ring[][2] = {
		{ 1.3, 0 }, { -1.3, 0 }, { 0, 1 }, { 0, -1 }, { 1.3, 0.9 }, { -1.3, 0.9 },
		{ 1.3, -0.9 }, { -1.3, -0.9 }, { 2.6, 0 }, { -2.6, 0 }, { 0, 2 }, { 0, -2 },
	};
	struct box placed[REPORT_MAX_POINTS];
	double x0, xs, y0, ys;
	decades(extent[0], extent[1], &x0, &xs);
	decades(extent[2], extent[3], &y0, &ys);
	for (int i = 0; i < n && i < REPORT_MAX_POINTS; i++) {
		double px = (lx[i] - x0) / xs * COLS, py = (ly[i] - y0) / ys * ROWS;
		double w = i + 1 >= 10 ? (i + 1 >= 100 ? 3 : 2) : 1;
		int best = 0;
		for (int c = 0; c < (int)(sizeof ring / sizeof ring[0]); c++) {
			double cx = px + ring[c][0], cy = py + ring[c][1];
			struct box b = { cx - w / 2, cx + w / 2, cy - 0.45, cy + 0.45 };
			int clear = 1;
			for (int k = 0; k < n && clear; k++) {
				/* A point's marker: about a character each way. */
				double kx = (lx[k] - x0) / xs * COLS, ky = (ly[k] - y0) / ys * ROWS;
				struct box m = { kx - 0.8, kx + 0.8, ky - 0.5, ky + 0.5 };
				clear = !overlaps(b, m);
			}
			for (int k = 0; k < i && clear; k++)
				clear = !overlaps(b, placed[k]);
			if (clear) {
				best = c;
				break;
			}
		}
		ox[i] = ring[best][0];
		oy[i] = ring[best][1];
		placed[i] = (struct box){ px + ox[i] - w / 2, px + ox[i] + w / 2, py + oy[i] - 0.45,
		                          py + oy[i] + 0.45 };
	}
}
