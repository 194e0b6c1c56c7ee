#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "progress.h"
#include "timer.h"

void apod_progress_begin(struct apod_progress *p, const char *what, long total)
{
	const char *force = getenv("APOD_PROGRESS");
	p->on = force ? atoi(force) != 0 : isatty(STDERR_FILENO);
	p->what = what;
	p->total = total;
	p->start = p->last = apod_now();
	p->drawn = 0;
}

void apod_progress_update(struct apod_progress *p, long done)
{
	double now, rate;
	if (!p->on)
		return;
	now = apod_now();
	/* Short runs draw nothing: a line that flashes by helps no one. */
	if (now - p->last < 0.25 || now - p->start < 1.0)
		return;
	p->last = now;
	rate = done / (now - p->start);
	fprintf(stderr, "\r\033[K%s: step %ld of %ld, %.3g steps/s, %.0f s left", p->what, done,
	        p->total, rate, rate > 0 ? (double)(p->total - done) / rate : 0.0);
	p->drawn = 1;
}

void apod_progress_end(struct apod_progress *p)
{
	if (p->on && p->drawn)
		fprintf(stderr, "\r\033[K");
	p->drawn = 0;
}
