/*
 * hostfield.c: the field the host stages hold alike (hostfield.h).
 */
#include <stdlib.h>
#include <string.h>

#include "hostfield.h"

int heat_host_alloc(struct heat_host *h, const struct heat_problem *p, size_t rows)
{
	size_t bytes = rows * p->nx * sizeof(heat_real);
	h->p = p;
	h->cur = malloc(bytes);
	h->next = malloc(bytes);
	h->hist = malloc((size_t)p->nbins * sizeof *h->hist);
	return h->cur && h->next && h->hist ? 0 : -1;
}

void heat_host_free(struct heat_host *h)
{
	free(h->cur);
	free(h->next);
	free(h->hist);
}

void heat_host_swap(struct heat_host *h)
{
	heat_real *t = h->cur;
	h->cur = h->next;
	h->next = t;
}

void heat_host_pin_swap(struct heat_host *h)
{
	const struct heat_problem *p = h->p;
	for (size_t k = 0; k < p->nsrc; k++)
		h->next[p->src_idx[k]] = p->src_temp[k];
	heat_host_swap(h);
}

int heat_host_fetch(void *ctx, int array, void *dst)
{
	const struct heat_host *h = ctx;
	(void)array;   /* heat has one array, the field */
	memcpy(dst, h->cur, h->p->n * sizeof *h->cur);
	return 0;
}
