#include <stdlib.h>
#include <string.h>

#include "apod/apod.h"
#include "problem.h"

/* Mark the interior cells inside each heater's disc; a later heater wins
 * where two overlap.  owner[i] is 1 + the heater's index, 0 for none. */
static void mark_heaters(const struct heat_deck *d, size_t nx, size_t ny, unsigned char *owner)
{
	double side = (double)(nx < ny ? nx : ny);
	for (int k = 0; k < d->nsources; k++) {
		const struct heat_source *s = &d->sources[k];
		double cx = s->x * (double)nx, cy = s->y * (double)ny, r = s->r * side;
		for (size_t i = 1; i + 1 < ny; i++) {
			double dy = (double)i + 0.5 - cy;
			if (dy * dy > r * r)
				continue;
			for (size_t j = 1; j + 1 < nx; j++) {
				double dx = (double)j + 0.5 - cx;
				if (dx * dx + dy * dy <= r * r)
					owner[i * nx + j] = (unsigned char)(k + 1);
			}
		}
	}
}

int heat_problem_init(struct heat_problem *p, const struct heat_deck *d)
{
	size_t nx = (size_t)d->size[0], ny = (size_t)d->size[1], n = nx * ny, k = 0;
	unsigned char *owner;
	double lo, hi;

	memset(p, 0, sizeof *p);
	p->deck = d;
	p->nx = nx;
	p->ny = ny;
	p->n = n;
	p->alpha = (heat_real)d->alpha;
	p->nbins = (int)d->hist_bins;
	heat_deck_hist_range(d, &lo, &hi);
	p->hist_lo = (heat_real)lo;
	p->hist_inv_width = (heat_real)((double)d->hist_bins / (hi - lo));
	p->zones_x = (int)d->zones[0];
	p->zones_y = (int)d->zones[1];
	p->nzones = p->zones_x * p->zones_y;

	p->init = malloc(n * sizeof *p->init);
	owner = calloc(n, 1);
	if (!p->init || !owner) {
		free(owner);
		heat_problem_free(p);
		return apod_fail("cannot allocate the %zux%zu initial field (%zu bytes)",
		                 nx, ny, n * sizeof *p->init);
	}
	for (size_t i = 0; i < ny; i++)
		for (size_t j = 0; j < nx; j++) {
			double t = d->t_init;
			if (i == 0)
				t = d->t_hot;
			else if (i == ny - 1 || j == 0 || j == nx - 1)
				t = d->t_cold;
			p->init[i * nx + j] = (heat_real)t;
		}
	mark_heaters(d, nx, ny, owner);
	for (size_t i = 0; i < n; i++)
		p->nsrc += owner[i] != 0;
	p->src_idx = malloc((p->nsrc ? p->nsrc : 1) * sizeof *p->src_idx);
	p->src_temp = malloc((p->nsrc ? p->nsrc : 1) * sizeof *p->src_temp);
	if (!p->src_idx || !p->src_temp) {
		free(owner);
		heat_problem_free(p);
		return apod_fail("cannot allocate the heater list (%zu cells)", p->nsrc);
	}
	for (size_t i = 0; i < n; i++)
		if (owner[i]) {
			p->src_idx[k] = i;
			p->src_temp[k] = (heat_real)d->sources[owner[i] - 1].temp;
			p->init[i] = p->src_temp[k];
			k++;
		}
	free(owner);
	return 0;
}

void heat_problem_free(struct heat_problem *p)
{
	free(p->init);
	free(p->src_idx);
	free(p->src_temp);
	p->init = NULL;
	p->src_idx = NULL;
	p->src_temp = NULL;
}
