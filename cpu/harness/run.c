/*
 * run.c: set up, step, probe, snapshot, report: the loop every workload's
 * stages run in, with a wall-clock timer around every phase.  (What a run
 * holds is in rundata.c, so that results.c can read one back without
 * calling into the loop.)
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "fail.h"
#include "npy.h"
#include "nvtx.h"
#include "outfile.h"
#include "progress.h"
#include "results.h"
#include "run.h"
#include "timer.h"
#include "trace.h"
#include "dtype.h"

static int snapshot_path(char *path, size_t len, const char *outdir, const char *prefix, long step)
{
	if (snprintf(path, len, "%s/%s_%09ld.npy", outdir, prefix, step) >= (int)len)
		return apod_usage_fail("%s: output path too long", outdir);
	return 0;
}

/* A snapshot being written in the background (stages with snapshot_begin). */
struct writer {
	const struct apod_stage *e;
	void *ctx;
	const struct apod_array *decl;
	const struct apod_array_data *shape;
	const char *outdir;
	long step;
	int active, failed;
	double seconds;               /* the last snapshot's streaming time */
	double total;                 /* all snapshots' */
	char why[1024];
	pthread_t thread;
	struct apod_outfile out;
};

static int sink_to_file(const void *chunk, size_t bytes, void *arg)
{
	struct writer *w = arg;
	if (fwrite(chunk, 1, bytes, w->out.f) != bytes)
		return apod_fail("%s: write failed: %s", w->out.path, strerror(errno));
	return 0;
}

static void *writer_main(void *arg)
{
	struct writer *w = arg;
	char path[4096];
	double t0 = apod_now();
	w->failed = 1;
	if (snapshot_path(path, sizeof path, w->outdir, w->decl->snapshot, w->step) == 0 &&
	    apod_npy_open(&w->out, path, w->shape->dtype, w->shape->ndim, w->shape->dims) == 0) {
		if (w->e->ops->snapshot_stream(w->ctx, sink_to_file, w))
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
static int snapshot_async(struct writer *w, int a, const struct apod_run *r, long step)
{
	if (writer_join(w) || w->e->ops->snapshot_begin(w->ctx, a))
		return -1;
	w->decl = &r->w->arrays[a];
	w->shape = &r->arrays[a];
	w->step = step;
	w->failed = 0;
	if (pthread_create(&w->thread, NULL, writer_main, w) != 0)
		return apod_fail("cannot start the snapshot writer thread");
	w->active = 1;
	return 0;
}

/* Every array that is snapshotted, at this step.  A process that does not
 * report (one of several, apod/workload.h) fetches, since fetching is
 * collective, but writes nothing. */
static int snapshot(struct writer *w, const struct apod_run *r, const char *outdir, long step,
                    void *buf, int reports)
{
	for (int a = 0; a < r->narrays; a++) {
		const struct apod_array *decl = &r->w->arrays[a];
		const struct apod_array_data *d = &r->arrays[a];
		char path[4096];
		if (!decl->snapshot)
			continue;
		if (w->e->ops->snapshot_begin) {
			if (snapshot_async(w, a, r, step))
				return -1;
		} else if (w->e->ops->fetch(w->ctx, a, buf)) {
			return -1;
		} else if (reports &&
		           (snapshot_path(path, sizeof path, outdir, decl->snapshot, step) ||
		           apod_npy_write(path, buf, d->dtype, d->ndim, d->dims)))
			return -1;
	}
	return 0;
}

static size_t snapshot_bytes(const struct apod_run *r)
{
	size_t most = 0;
	for (int a = 0; a < r->narrays; a++) {
		size_t b = r->arrays[a].count * apod_dtype_size(r->arrays[a].dtype);
		if (r->w->arrays[a].snapshot && b > most)
			most = b;
	}
	return most;
}

/* Probe k's row `row` of every series it owns (NULL for the others), each
 * in its series' type (run.h). */
static void series_rows(const struct apod_run *r, int k, long row, void **rows)
{
	for (int i = 0; i < r->nseries; i++) {
		const struct apod_series_data *d = &r->series[i];
		rows[i] = apod_series_probe(r->w, i) == k && row < d->rows ? apod_series_row(d, row) : NULL;
	}
}

/* Deferred probes (a stage with collect, apod/workload.h): bring probe k's
 * pending rows home, timed as the probe's phase, since the wait is its
 * work.  Rows are collected in the order they were issued: pending[k] of
 * them after the done[k] already home. */
struct deferred {
	long pending[APOD_MAX_PROBES], done[APOD_MAX_PROBES];
};

static int collect(struct apod_clock *c, struct apod_run *r, int k, struct deferred *q)
{
	void *rows[64];
	int phase = apod_phase_of_probe(r->w, k);
	if (!q->pending[k])
		return 0;
	series_rows(r, k, q->done[k], rows);
	/* The rows were counted as calls when they were issued. */
	if (apod_clock_enter(c, phase) ||
	    c->e->ops->collect(c->ctx, k, q->done[k], q->pending[k], (void *const *)rows) ||
	    apod_clock_leave(c, phase, 0))
		return -1;
	q->done[k] += q->pending[k];
	q->pending[k] = 0;
	return 0;
}

static int collect_all(struct apod_clock *c, struct apod_run *r, int nprobes, struct deferred *q)
{
	for (int k = 0; k < nprobes; k++)
		if (collect(c, r, k, q))
			return -1;
	return 0;
}

/* Probe k at step s, its row `row`: the stage fills the rows now, or (with
 * collect) issues the work and keeps the row until collected. */
static int probe(struct apod_clock *c, struct apod_run *r, int k, long s, long row,
                 struct deferred *q)
{
	const struct apod_stage_ops *o = c->e->ops;
	void *rows[64];
	int phase = apod_phase_of_probe(r->w, k);
	for (int i = 0; i < r->nseries; i++) {
		struct apod_series_data *d = &r->series[i];
		if (apod_series_probe(r->w, i) == k && row < d->rows)
			d->step[row] = s;
	}
	if (o->collect) {
		/* The stage's buffers hold defer_rows rows: make room first. */
		if (q->pending[k] == o->defer_rows && collect(c, r, k, q))
			return -1;
		if (apod_clock_enter(c, phase) || o->probe(c->ctx, k, s, row, NULL) ||
		    apod_clock_leave(c, phase, 1))
			return -1;
		q->pending[k]++;
		return 0;
	}
	series_rows(r, k, row, rows);
	if (apod_clock_enter(c, phase) || o->probe(c->ctx, k, s, row, (void *const *)rows) ||
	    apod_clock_leave(c, phase, 1))
		return -1;
	return 0;
}

/* One step of a stage without advance (every revision-4 stage): its fixed
 * list of step phases, each one occurrence, in order. */
static int fixed_step(struct apod_clock *c, long s, long steps)
{
	for (int j = 0; j < apod_step_phase_count(c->w); j++) {
		int phase = apod_phase_of_step(c->w, j);
		if (apod_clock_enter(c, phase) || c->e->ops->step(c->ctx, j, s, steps) ||
		    apod_clock_leave(c, phase, 1))
			return -1;
	}
	return 0;
}

static void touch_results(struct apod_run *r)
{
	for (int a = 0; a < r->narrays; a++)
		memset(r->arrays[a].data, 0, r->arrays[a].count * apod_dtype_size(r->arrays[a].dtype));
}

int apod_simulate(const struct apod_workload *w, const struct apod_stage *e, const void *params,
                  const void *problem, const char *outdir, unsigned flags, struct apod_run *r)
{
	long M = outdir && w->snapshot_every && !(flags & APOD_SIM_NO_SNAPSHOTS)
	         ? w->snapshot_every(params) : 0, s;
	int nprobes = apod_probe_count(w), advances = apod_stage_advances(w, e);
	int snap_phase = apod_phase_snapshot(w), fetch_phase = apod_phase_fetch(w);
	int report_phase = apod_phase_report(w), reports, trace = !!(flags & APOD_SIM_TRACE);
	long every[APOD_MAX_PROBES], row[APOD_MAX_PROBES] = { 0 };
	struct deferred q = { { 0 }, { 0 } };
	void *snap = NULL, *ctx = NULL;
	struct writer wr = { .e = e, .outdir = outdir };
	struct apod_progress prog;
	struct apod_clock clk;
	char label[96];
	double t0, t;

	/* One of several processes (apod/workload.h) writes nothing itself. */
	if ((reports = apod_stage_reporter(w, e)) < 0 || apod_run_alloc(r, w, params))
		return -1;
	if (r->nseries > 64)
		return apod_run_free(r), apod_fail("%s: more than 64 series", w->name);
	snprintf(r->stage, sizeof r->stage, "%s", e->name);
	r->problem = problem;
	/* This run counts its calls as they happen. */
	memset(r->calls, 0, sizeof r->calls);
	apod_clock_init(&clk, w, e, r, trace);
	r->width = apod_stage_width(e);
	/* Touch the result buffers before any timer runs: fetchResults then
	 * times the copy, not the kernel mapping fresh pages (which made one
	 * stage's fetch four times another's for the same memcpy). */
	touch_results(r);
	for (int k = 0; k < nprobes; k++)
		every[k] = apod_probe_every(w, k, params);
	if (M && !e->ops->snapshot_begin && snapshot_bytes(r) && !(snap = malloc(snapshot_bytes(r)))) {
		apod_fail("cannot allocate a snapshot buffer (%zu bytes)", snapshot_bytes(r));
		goto fail;
	}

	if (trace) {
		/* What was traced before this run (a stage's availability check, an
		 * earlier run) is not this run's. */
		double scrap[2][APOD_MAX_PHASES] = { { 0 } }, other = 0;
		if (apod_trace_start() ||
		    apod_trace_collect(scrap[0], scrap[1], APOD_MAX_PHASES, &other))
			goto fail;
	}
	apod_nvtx_stage(w, e->name);
	t0 = apod_now();
	apod_nvtx_push(0);
	if (trace && apod_trace_enter(0)) {
		apod_nvtx_pop();
		goto fail;
	}
	ctx = apod_stage_create(w, e, problem, &clk);
	r->phase[0] = apod_now() - t0;
	r->calls[0] = 1;
	apod_nvtx_pop();
	if (trace && apod_trace_leave()) {
		if (ctx)
			e->ops->destroy(ctx);
		goto fail;
	}
	if (!ctx)
		goto fail;
	wr.ctx = ctx;
	clk.ctx = ctx;

	snprintf(label, sizeof label, "%s %s", w->name, e->name);
	apod_progress_begin(&prog, label, r->steps);
	prog.on &= reports;   /* one progress line, the reporter's */
	/* Step 0: the probes that observe the state the stages start from. */
	for (int k = 0; k < nprobes; k++)
		if ((w->probes[k].at & APOD_AT_START) && probe(&clk, r, k, 0, row[k]++, &q))
			goto fail_ctx;
	for (s = 1; s <= r->steps; s++) {
		if (advances ? apod_clock_advance(&clk, s, r->steps) : fixed_step(&clk, s, r->steps))
			goto fail_ctx;
		for (int k = 0; k < nprobes; k++) {
			int due = every[k] > 0 && s % every[k] == 0;
			/* The end's row, where every() does not fall on the last step. */
			due |= s == r->steps && (w->probes[k].at & APOD_AT_END);
			if (due && probe(&clk, r, k, s, row[k]++, &q))
				goto fail_ctx;
		}

		if (M && s % M == 0) {
			/* A snapshot is a point where the rows so far are complete. */
			int bad;
			if (collect_all(&clk, r, nprobes, &q))
				goto fail_ctx;
			if (!(bad = apod_clock_enter(&clk, snap_phase))) {
				bad = snapshot(&wr, r, outdir, s, snap, reports);
				bad = apod_clock_leave(&clk, snap_phase, 1) || bad;
			}
			/* The reporter writes alone: every process learns whether it
			 * could, and the wait for that is the snapshot's too. */
			t = apod_now();
			if (apod_stage_agree(w, e, bad))
				goto fail_ctx;
			r->snapshots++;
			r->phase[snap_phase] += apod_now() - t;
		}
		apod_progress_update(&prog, s);
	}
	apod_progress_end(&prog);
	if (collect_all(&clk, r, nprobes, &q))
		goto fail_ctx;

	/* The last snapshot may still be streaming: it overlaps the report. */
	if (apod_clock_enter(&clk, fetch_phase))
		goto fail_ctx;
	for (int a = 0; a < r->narrays; a++)
		if (e->ops->fetch(ctx, a, r->arrays[a].data))
			goto fail_ctx;
	if (apod_clock_leave(&clk, fetch_phase, 1))
		goto fail_ctx;
	/* The device's times before the results are written: report.json
	 * carries them (the table reads each stage's run back from it).  The
	 * fetch has waited for the device, so every phase's events are in. */
	if (e->ops->device_seconds) {
		if (e->ops->device_seconds(ctx, r->device, r->nphases))
			goto fail_ctx;
		r->has_device = 1;
	}
	t = apod_now();
	if (outdir) {
		/* report.json cannot hold the time taken to write itself: it records
		 * the run up to this point, the in-memory run the whole. */
		r->total = apod_now() - t0;
		r->calls[report_phase] = 1;
		apod_nvtx_push(report_phase);
		if (apod_stage_agree(w, e, reports && apod_results_write(outdir, params, r))) {
			apod_nvtx_pop();
			goto fail_ctx;
		}
		apod_nvtx_pop();
		r->phase[report_phase] = apod_now() - t;
	}
	t = apod_now();
	if (writer_join(&wr))
		goto fail_ctx;
	r->phase[snap_phase] += apod_now() - t;
	r->background = wr.total;
	/* The wall time, not the phases' sum: the harness's own moments between
	 * phases are the run's too, and a device that is behind works through
	 * them, so its phases' times can only fit inside the wall time. */
	r->total = apod_now() - t0;
	e->ops->destroy(ctx);
	/* After destroy: by then the device has finished everything issued. */
	if (trace) {
		if (apod_trace_collect(r->busy, r->work, r->nphases, &r->busy_unattributed))
			goto fail;
		r->has_busy = 1;
	}
	free(snap);
	return 0;

fail_ctx:
	apod_progress_end(&prog);
	if (wr.active) {
		/* Wait for the writer, but report the failure that stopped the run. */
		char why[1024];
		int usage = apod_failure_status() == APOD_EXIT_USAGE;
		snprintf(why, sizeof why, "%s", apod_failure());
		writer_join(&wr);
		if (usage)
			apod_usage_fail("%s", why);
		else
			apod_fail("%s", why);
	}
	e->ops->destroy(ctx);
fail:
	if (trace)
		apod_trace_unwind();
	free(snap);
	apod_run_free(r);
	return -1;
}

int apod_retime_setup_fetch(const struct apod_workload *w, const struct apod_stage *e,
                            const void *params, const void *problem, double *setup, double *fetch)
{
	struct apod_run r;
	struct apod_clock clk;
	void *ctx;
	double t;
	int rc = -1;
	if (apod_run_alloc(&r, w, params))
		return -1;
	apod_clock_init(&clk, w, e, &r, 0);
	touch_results(&r);   /* as in a run */
	t = apod_now();
	ctx = apod_stage_create(w, e, problem, &clk);
	*setup = apod_now() - t;
	if (!ctx)
		goto out;
	t = apod_now();
	for (int a = 0; a < r.narrays; a++)
		if (e->ops->fetch(ctx, a, r.arrays[a].data))
			goto out_ctx;
	*fetch = apod_now() - t;
	rc = 0;
out_ctx:
	e->ops->destroy(ctx);
out:
	apod_run_free(&r);
	return rc;
}
