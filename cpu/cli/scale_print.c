/*
 * scale_print.c: `apod scale`'s tables on the screen, from the measurements.
 * One layout for both units: the scaled stage over threads, or (ranked)
 * over ranks with its speedup over itself at 1 rank beside.
 */
#include <stdio.h>

#include "cpu/harness/bounds.h"
#include "scale.h"

void scale_print_strong(const struct scale *s)
{
	const char *name = s->scaled->name;
	printf("\nstrong scaling: the deck as it is; serial %.4f s; P = %.4f (the serial run's "
	       "fraction in the phases %s ports)\n", s->t1.total, s->p, name);
	printf("%7s %10s %9s %10s %12s %10s %10s", s->unit, "time (s)", "speedup", "efficiency",
	       "Amdahl at N", "meas/Amdahl", "serial frac");
	printf(s->ranked ? " %9s\n" : "\n", "vs 1 rank");
	for (int i = 0; i < s->nstrong; i++) {
		const struct strong_pt *q = &s->strong[i];
		double ratio = q->speedup / q->amdahl;
		printf("%7d %10.4f %8.2fx %9.1f%% %11.2fx %10.3f %10.3f", q->n, q->m.total, q->speedup,
		       100 * q->efficiency, q->amdahl, ratio, q->serial_frac);
		if (s->ranked)
			printf(" %8.2fx", q->vs_one);
		printf("%s\n", ratio > 1 + APOD_BOUND_NOISE ? "  above Amdahl" : "");
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
	if (s->ranked)
		printf("speedup: serial time / time; vs 1 rank: %s at 1 rank / time; efficiency: vs 1 "
		       "rank / ranks;\nserial frac: the run's own fraction outside the phases it ports.  "
		       "Above Amdahl: the model is\nbroken (see the table).\n", name);
	else
		printf("speedup: serial time / time; efficiency: speedup / threads; serial frac: the %s "
		       "run's own\nfraction outside the phases it ports.  Above Amdahl: the model is "
		       "broken (see the table).\n", name);
}

void scale_print_weak(const struct scale *s)
{
	const char *one = s->ranked ? "rank" : "thread";
	printf("\nweak scaling: the problem grown N times (%s), N %s; p = %.4f (the %s run's "
	       "fraction in\nthe phases it ports, at 1 %s)\n", *s->grown_keys ? s->grown_keys : "grow",
	       s->unit, s->p_weak, s->scaled->name, one);
	printf("%7s %6s %10s %10s %14s %10s\n", s->unit, "size", "time (s)", "efficiency",
	       "scaled speedup", "Gustafson");
	for (int i = 0; i < s->nweak; i++) {
		const struct weak_pt *q = &s->weak[i];
		if (q->skipped) {
			printf("%7d %5dx  skipped (see the note above)\n", q->n, q->n);
			continue;
		}
		printf("%7d %5dx %10.4f %9.1f%% %13.2fx %9.2fx%s\n", q->n, q->n, q->m.total,
		       100 * q->efficiency, q->scaled, q->gustafson,
		       q->scaled > q->gustafson * (1 + APOD_BOUND_NOISE) ? "  above Gustafson" : "");
	}
	printf("efficiency: T(1) / T(N); scaled speedup: N * T(1) / T(N), an estimate that assumes "
	       "the work per\nstep is linear in the grow factor (the grown problem at one %s "
	       "taking N * T(1)).\n", one);
	if (s->check_ran)
		printf("linearity check: serial on the problem grown %d times took %.4f s; %d x serial "
		       "on the deck = %.4f s; ratio %.3f\n", s->check_n, s->check_serial, s->check_n,
		       s->check_estimate, s->check_serial / s->check_estimate);
}
