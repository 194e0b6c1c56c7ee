/*
 * scale_print.c: `apod scale`'s tables on the screen, from the measurements.
 */
#include <stdio.h>

#include "cpu/harness/bounds.h"
#include "scale.h"

void scale_print_strong(const struct scale *s)
{
	printf("\nstrong scaling: the deck as it is; serial %.4f s; P = %.4f (the serial run's "
	       "fraction in the phases omp ports)\n", s->t1.total, s->p);
	printf("%7s %10s %9s %10s %12s %10s %10s\n", "threads", "time (s)", "speedup", "efficiency",
	       "Amdahl at N", "meas/Amdahl", "serial frac");
	for (int i = 0; i < s->nstrong; i++) {
		const struct strong_pt *q = &s->strong[i];
		double ratio = q->speedup / q->amdahl;
		printf("%7d %10.4f %8.2fx %9.1f%% %11.2fx %10.3f %10.3f%s\n", q->n, q->m.total, q->speedup,
		       100 * q->efficiency, q->amdahl, ratio, q->serial_frac,
		       ratio > 1 + APOD_BOUND_NOISE ? "  above Amdahl" : "");
	}
	/* A device stage has no thread count: a line across the plot; a host
	 * stage of its own (mpi) is a point at its width. */
	for (int i = 0; i < s->nother; i++)
		if (s->other[i].host)
			printf("%7s %10.4f %8.2fx   (on the host, %d threads in all: a point at N = %d)\n",
			       s->other[i].e->name, s->other[i].seconds, s->other[i].speedup,
			       s->other[i].width, s->other[i].width);
		else
			printf("%7s %10.4f %8.2fx   (on the device: a line across the plot)\n",
			       s->other[i].e->name, s->other[i].seconds, s->other[i].speedup);
	printf("speedup: serial time / time; efficiency: speedup / threads; serial frac: the omp "
	       "run's own\nfraction outside the phases it ports.  Above Amdahl: the model is broken "
	       "(see the table).\n");
}

void scale_print_weak(const struct scale *s)
{
	printf("\nweak scaling: the problem grown N times (%s), N threads; p = %.4f (the omp run's "
	       "fraction in\nthe phases it ports, at 1 thread)\n", *s->grown_keys ? s->grown_keys : "grow",
	       s->p_weak);
	printf("%7s %6s %10s %10s %14s %10s\n", "threads", "size", "time (s)", "efficiency",
	       "scaled speedup", "Gustafson");
	for (int i = 0; i < s->nweak; i++) {
		const struct weak_pt *q = &s->weak[i];
		if (q->skipped) {
			printf("%7d %5dx  skipped (see the note above)\n", q->n, q->n);
			continue;
		}
		printf("%7d %5dx %10.4f %9.1f%% %13.2fx %9.2fx\n", q->n, q->n, q->m.total,
		       100 * q->efficiency, q->scaled, q->gustafson);
	}
	printf("efficiency: T(1) / T(N); scaled speedup: N * T(1) / T(N), an estimate that assumes "
	       "the work per\nstep is linear in the grow factor (the grown problem at one thread "
	       "taking N * T(1)).\n");
	if (s->check_ran)
		printf("linearity check: serial on the problem grown %d times took %.4f s; %d x serial "
		       "on the deck = %.4f s; ratio %.3f\n", s->check_n, s->check_serial, s->check_n,
		       s->check_estimate, s->check_serial / s->check_estimate);
}
