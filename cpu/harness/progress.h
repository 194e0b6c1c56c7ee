/*
 * progress.h: a one-line progress report for long runs (stage, step, rate,
 * time left), redrawn on stderr at most four times a second, and only when
 * stderr is a terminal: logs and pipes stay clean.
 */
#ifndef APOD_PROGRESS_H
#define APOD_PROGRESS_H

struct apod_progress {
	int on;
	const char *what;
	long total;
	double start, last;
	int drawn;
};

void apod_progress_begin(struct apod_progress *p, const char *what, long total);
void apod_progress_update(struct apod_progress *p, long done);
/* Erase the line (if one was drawn). */
void apod_progress_end(struct apod_progress *p);

#endif
