/*
 * sim.c: set up, step, gather statistics, summarise, snapshot, report: the
 * loop of the application, with a wall-clock timer around every phase.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fail.h"
#include "npy.h"
#include "outfile.h"
#include "results.h"
#include "sim.h"
#include "timer.h"

int apod_run_alloc(struct apod_run *r, size_t nx, size_t ny, long steps, int nbins,
                   int nzones, long nsummaries)
{
	size_t n = nx * ny;
	memset(r, 0, sizeof *r);
	r->nx = nx;
	r->ny = ny;
	r->steps = steps;
	r->nbins = nbins;
	r->nzones = nzones;
	r->nsummaries = nsummaries;
	r->moments = calloc((size_t)steps, sizeof *r->moments);
	r->hist = calloc((size_t)steps * (size_t)nbins, sizeof *r->hist);
	r->summary_step = calloc(nsummaries ? (size_t)nsummaries : 1, sizeof *r->summary_step);
	r->zones = calloc(nsummaries ? (size_t)nsummaries * (size_t)nzones : 1, sizeof *r->zones);
	r->field = malloc(n * sizeof *r->field);
	if (!r->moments || !r->hist || !r->summary_step || !r->zones || !r->field) {
		apod_run_free(r);
		return apod_fail("cannot allocate the results of a %ld-step run (%zu cells)", steps, n);
	}
	return 0;
}

void apod_run_free(struct apod_run *r)
{
	free(r->moments);
	free(r->hist);
	free(r->summary_step);
	free(r->zones);
	free(r->field);
	r->moments = NULL;
	r->hist = NULL;
	r->summary_step = NULL;
	r->zones = NULL;
	r->field = NULL;
}

static int write_snapshot(const char *outdir, long step, const apod_real *field,
                          const struct apod_problem *p)
{
	char path[4096];
	if (snprintf(path, sizeof path, "%s/snap_%09ld.npy", outdir, step) >= (int)sizeof path)
		return apod_usage_fail("%s: output path too long", outdir);
	return apod_npy_write(path, field, p->ny, p->nx);
}

/* A snapshot being written in the background (engines with snapshot_begin). */
struct writer {
	const struct apod_engine *e;
	void *ctx;
	const struct apod_problem *p;
	const char *outdir;
	long step;
	int active, failed;
	double seconds;               /* the last snapshot's streaming time */
	double total;                 /* all snapshots' */
	char why[1024];
	pthread_t thread;
	struct apod_outfile out;
};

static int sink_to_file(const apod_real *chunk, size_t count, void *arg)
{
	struct writer *w = arg;
	if (fwrite(chunk, sizeof *chunk, count, w->out.f) != count)
		return apod_fail("%s: write failed: %s", w->out.path, strerror(errno));
	return 0;
}

static void *writer_main(void *arg)
{
	struct writer *w = arg;
	char path[4096];
	double t0 = apod_now();
	w->failed = 1;
	if (snprintf(path, sizeof path, "%s/snap_%09ld.npy", w->outdir, w->step) >= (int)sizeof path)
		apod_usage_fail("%s: output path too long", w->outdir);
	else if (apod_npy_open(&w->out, path, w->p->ny, w->p->nx) == 0) {
		if (w->e->snapshot_stream(w->ctx, sink_to_file, w))
			apod_outfile_abort(&w->out);
		else
			w->failed = apod_outfile_commit(&w->out) != 0;
	}
	if (w->failed)
		snprintf(w->why, sizeof w->why, "%s", apod_failure());
	w->seconds = apod_now() - t0;
	return NULL;
}

static int writer_join(struct writer *w)
{
	if (!w->active)
		return 0;
	pthread_join(w->thread, NULL);
	w->active = 0;
	w->total += w->seconds;
	if (w->failed)
		return apod_fail("snapshot of step %ld: %s", w->step, w->why);
	return 0;
}

/* Wait for the previous snapshot to be written (which frees the device's
 * copy), take a new copy on the device, and stream it to a file on the
 * writer thread while the main loop goes on. */
static int snapshot_async(struct writer *w, long step)
{
	if (writer_join(w) || w->e->snapshot_begin(w->ctx))
		return -1;
	w->step = step;
	w->failed = 0;
	if (pthread_create(&w->thread, NULL, writer_main, w) != 0)
		return apod_fail("cannot start the snapshot writer thread");
	w->active = 1;
	return 0;
}

int apod_simulate(const struct apod_engine *e, const struct apod_problem *p,
                  const char *outdir, struct apod_run *r)
{
	const struct apod_deck *d = p->deck;
	long K = d->summary_every, M = outdir ? d->snapshot_every : 0;
	long nsum = K ? d->steps / K : 0, s;
	apod_real *snap = NULL;
	void *ctx = NULL;
	struct writer w = { .e = e, .p = p, .outdir = outdir };
	double t0, t;

	if (apod_run_alloc(r, p->nx, p->ny, d->steps, p->nbins, p->nzones, nsum))
		return -1;
	snprintf(r->stage, sizeof r->stage, "%s", e->name);
	r->width = e->width ? e->width() : 1;
	r->was_double = sizeof(apod_real) == sizeof(double);
	if (outdir && apod_mkdirs(outdir))
		goto fail;
	if (M && !e->snapshot_begin && !(snap = malloc(p->n * sizeof *snap))) {
		apod_fail("cannot allocate a snapshot buffer (%zu bytes)", p->n * sizeof *snap);
		goto fail;
	}

	t0 = apod_now();
	ctx = e->create(p);
	r->phase[APOD_PHASE_SETUP] = apod_now() - t0;
	if (!ctx)
		goto fail;
	w.ctx = ctx;

	for (s = 1; s <= d->steps; s++) {
		t = apod_now();
		if (e->step(ctx))
			goto fail_ctx;
		r->phase[APOD_PHASE_STEP] += apod_now() - t;

		t = apod_now();
		if (e->stats(ctx, &r->moments[s - 1], r->hist + (size_t)(s - 1) * (size_t)p->nbins))
			goto fail_ctx;
		r->phase[APOD_PHASE_STATS] += apod_now() - t;

		if (K && s % K == 0) {
			long k = s / K - 1;
			t = apod_now();
			r->summary_step[k] = s;
			if (e->summary(ctx, r->zones + (size_t)k * (size_t)p->nzones))
				goto fail_ctx;
			r->phase[APOD_PHASE_SUMMARY] += apod_now() - t;
		}

		if (M && s % M == 0) {
			t = apod_now();
			if (e->snapshot_begin) {
				if (snapshot_async(&w, s))
					goto fail_ctx;
			} else if (e->fetch(ctx, snap) || write_snapshot(outdir, s, snap, p))
				goto fail_ctx;
			r->snapshots++;
			r->phase[APOD_PHASE_SNAPSHOT] += apod_now() - t;
		}
	}

	/* The last snapshot may still be streaming: it overlaps the report. */
	t = apod_now();
	if (e->fetch(ctx, r->field))
		goto fail_ctx;
	r->phase[APOD_PHASE_REPORT] = apod_now() - t;
	if (outdir) {
		/* report.json cannot hold the time taken to write itself: it records
		 * the report phase up to this point, the in-memory run the whole. */
		r->total = 0;
		for (int i = 0; i < APOD_NPHASES; i++)
			r->total += r->phase[i];
		if (apod_results_write(outdir, p, r))
			goto fail_ctx;
		r->phase[APOD_PHASE_REPORT] = apod_now() - t;
	}
	t = apod_now();
	if (writer_join(&w))
		goto fail_ctx;
	r->phase[APOD_PHASE_SNAPSHOT] += apod_now() - t;
	r->background = w.total;
	e->destroy(ctx);
	r->total = 0;
	for (int i = 0; i < APOD_NPHASES; i++)
		r->total += r->phase[i];
	free(snap);
	return 0;

fail_ctx:
	if (w.active) {
		/* Wait for the writer, but report the failure that stopped the run. */
		char why[1024];
		int usage = apod_failure_status() == APOD_EXIT_USAGE;
		snprintf(why, sizeof why, "%s", apod_failure());
		writer_join(&w);
		if (usage)
			apod_usage_fail("%s", why);
		else
			apod_fail("%s", why);
	}
	e->destroy(ctx);
fail:
	free(snap);
	apod_run_free(r);
	return -1;
}
