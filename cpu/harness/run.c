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
#include "dtype.h"
#include "fail.h"
#include "npy.h"
#include "nvtx.h"
#include "outfile.h"
#include "progress.h"
#include "results.h"
#include "run.h"
#include "timer.h"
#include "trace.h"

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

/* One run of a stage, as apod_simulate's parts share it. */
struct sim {
	const struct apod_workload *w;
	const struct apod_stage *e;
	const void *params;
	const char *outdir;
	struct apod_run *r;
	long snapshot_every;          /* 0: no snapshots */
	int nprobes, reports, trace;
	long every[APOD_MAX_PROBES], row[APOD_MAX_PROBES];
	struct deferred q;
	void *snap;                   /* a snapshot's buffer, for a stage without snapshot_begin */
	void *ctx;                    /* the stage's, once created */
	struct writer wr;
	struct apod_progress prog;
	struct apod_clock clk;
	double t0;                    /* when setup began: the run's wall time starts there */
};

/* setup: the stage created on the problem, timed (and traced) as phase 0. */
static int sim_create(struct sim *m, const void *problem)
{
	if (m->trace) {
		/* What was traced before this run (a stage's availability check, an
		 * earlier run) is not this run's. */
		double scrap[2][APOD_MAX_PHASES] = { { 0 } }, other = 0;
		if (apod_trace_start() ||
		    apod_trace_collect(scrap[0], scrap[1], APOD_MAX_PHASES, &other))
			return -1;
	}
	apod_nvtx_stage(m->w, m->e->name);
	m->t0 = apod_now();
	apod_nvtx_push(0);
	if (m->trace && apod_trace_enter(0)) {
		apod_nvtx_pop();
		return -1;
	}
	m->ctx = apod_stage_create(m->w, m->e, problem, &m->clk);
	m->r->phase[0] = apod_now() - m->t0;
	m->r->calls[0] = 1;
	apod_nvtx_pop();
	if (m->trace && apod_trace_leave()) {
		if (m->ctx)
			m->e->ops->destroy(m->ctx);
		m->ctx = NULL;
		return -1;
	}
	m->wr.ctx = m->clk.ctx = m->ctx;
	return m->ctx ? 0 : -1;
}

/* writeSnapshot at step s, once the rows so far are complete. */
static int sim_snapshot(struct sim *m, long s)
{
	int phase = apod_phase_snapshot(m->w), bad;
	double t;
	if (collect_all(&m->clk, m->r, m->nprobes, &m->q))
		return -1;
	if (!(bad = apod_clock_enter(&m->clk, phase))) {
		bad = snapshot(&m->wr, m->r, m->outdir, s, m->snap, m->reports);
		bad = apod_clock_leave(&m->clk, phase, 1) || bad;
	}
	/* The reporter writes alone: every process learns whether it could,
	 * and the wait for that is the snapshot's too. */
	t = apod_now();
	if (apod_stage_agree(m->w, m->e, bad))
		return -1;
	m->r->snapshots++;
	m->r->phase[phase] += apod_now() - t;
	return 0;
}

/* The steps, each followed by the probes due and a snapshot where one is. */
static int sim_steps(struct sim *m)
{
	struct apod_run *r = m->r;
	int advances = apod_stage_advances(m->w, m->e);
	/* Step 0: the probes that observe the state the stages start from. */
	for (int k = 0; k < m->nprobes; k++)
		if ((m->w->probes[k].at & APOD_AT_START) && probe(&m->clk, r, k, 0, m->row[k]++, &m->q))
			return -1;
	for (long s = 1; s <= r->steps; s++) {
		if (advances ? apod_clock_advance(&m->clk, s, r->steps) : fixed_step(&m->clk, s, r->steps))
			return -1;
		for (int k = 0; k < m->nprobes; k++) {
			int due = m->every[k] > 0 && s % m->every[k] == 0;
			/* The end's row, where every() does not fall on the last step. */
			due |= s == r->steps && (m->w->probes[k].at & APOD_AT_END);
			if (due && probe(&m->clk, r, k, s, m->row[k]++, &m->q))
				return -1;
		}
		if (m->snapshot_every && s % m->snapshot_every == 0 && sim_snapshot(m, s))
			return -1;
		apod_progress_update(&m->prog, s);
	}
	return 0;
}

/* The probes' rows still pending, fetchResults, the device's times,
 * writeReport, and the last snapshot's wait; the run's wall time. */
static int sim_finish(struct sim *m)
{
	struct apod_run *r = m->r;
	const struct apod_stage_ops *o = m->e->ops;
	int fetch_phase = apod_phase_fetch(m->w), report_phase = apod_phase_report(m->w);
	double t;
	if (collect_all(&m->clk, r, m->nprobes, &m->q))
		return -1;
	/* The last snapshot may still be streaming: it overlaps the report. */
	if (apod_clock_enter(&m->clk, fetch_phase))
		return -1;
	for (int a = 0; a < r->narrays; a++)
		if (o->fetch(m->ctx, a, r->arrays[a].data))
			return -1;
	if (apod_clock_leave(&m->clk, fetch_phase, 1))
		return -1;
	/* The device's times before the results are written: report.json
	 * carries them (the table reads each stage's run back from it).  The
	 * fetch has waited for the device, so every phase's events are in. */
	if (o->device_seconds) {
		if (o->device_seconds(m->ctx, r->device, r->nphases))
			return -1;
		r->has_device = 1;
	}
	t = apod_now();
	if (m->outdir) {
		int bad;
		/* report.json cannot hold the time taken to write itself: it records
		 * the run up to this point, the in-memory run the whole. */
		r->total = apod_now() - m->t0;
		r->calls[report_phase] = 1;
		apod_nvtx_push(report_phase);
		bad = apod_stage_agree(m->w, m->e, m->reports && apod_results_write(m->outdir, m->params, r));
		apod_nvtx_pop();
		if (bad)
			return -1;
		r->phase[report_phase] = apod_now() - t;
	}
	t = apod_now();
	if (writer_join(&m->wr))
		return -1;
	r->phase[apod_phase_snapshot(m->w)] += apod_now() - t;
	r->background = m->wr.total;
	/* The wall time, not the phases' sum: the harness's own moments between
	 * phases are the run's too, and a device that is behind works through
	 * them, so its phases' times can only fit inside the wall time. */
	r->total = apod_now() - m->t0;
	return 0;
}

/* The run's state before setup: its results allocated and touched, its
 * probes' intervals, the snapshot buffer. */
static int sim_prepare(struct sim *m, const void *problem)
{
	struct apod_run *r = m->r;
	size_t bytes;
	/* One of several processes (apod/workload.h) writes nothing itself. */
	if ((m->reports = apod_stage_reporter(m->w, m->e)) < 0 || apod_run_alloc(r, m->w, m->params))
		return -1;
	if (r->nseries > 64)
		return apod_run_free(r), apod_fail("%s: more than 64 series", m->w->name);
	snprintf(r->stage, sizeof r->stage, "%s", m->e->name);
	r->problem = problem;
	/* This run counts its calls as they happen. */
	memset(r->calls, 0, sizeof r->calls);
	apod_clock_init(&m->clk, m->w, m->e, r, m->trace);
	r->width = apod_stage_width(m->e);
	/* Touch the result buffers before any timer runs: fetchResults then
	 * times the copy, not the kernel mapping fresh pages (which made one
	 * stage's fetch four times another's for the same memcpy). */
	touch_results(r);
	for (int k = 0; k < m->nprobes; k++)
		m->every[k] = apod_probe_every(m->w, k, m->params);
	bytes = snapshot_bytes(r);
	if (m->snapshot_every && !m->e->ops->snapshot_begin && bytes && !(m->snap = malloc(bytes))) {
		apod_run_free(r);
		return apod_fail("cannot allocate a snapshot buffer (%zu bytes)", bytes);
	}
	return 0;
}

/* A failed run's stage destroyed, once the snapshot writer (if it runs)
 * has stopped; the failure reported is the one that stopped the run. */
static void sim_abandon(struct sim *m)
{
	if (m->wr.active) {
		char why[1024];
		int usage = apod_failure_status() == APOD_EXIT_USAGE;
		snprintf(why, sizeof why, "%s", apod_failure());
		writer_join(&m->wr);
		if (usage)
			apod_usage_fail("%s", why);
		else
			apod_fail("%s", why);
	}
	m->e->ops->destroy(m->ctx);
}

int apod_simulate(const struct apod_workload *w, const struct apod_stage *e, const void *params,
                  const void *problem, const char *outdir, unsigned flags, struct apod_run *r)
{
	struct sim m = {
		.w = w, .e = e, .params = params, .outdir = outdir, .r = r,
		.nprobes = apod_probe_count(w), .trace = !!(flags & APOD_SIM_TRACE),
		.wr = { .e = e, .outdir = outdir },
	};
	char label[96];
	int failed;
	if (outdir && w->snapshot_every && !(flags & APOD_SIM_NO_SNAPSHOTS))
		m.snapshot_every = w->snapshot_every(params);
	if (sim_prepare(&m, problem))
		return -1;
	if (sim_create(&m, problem))
		goto fail;
	snprintf(label, sizeof label, "%s %s", w->name, e->name);
	apod_progress_begin(&m.prog, label, r->steps);
	m.prog.on &= m.reports;   /* one progress line, the reporter's */
	failed = sim_steps(&m);
	apod_progress_end(&m.prog);
	if (failed || sim_finish(&m)) {
		sim_abandon(&m);
		goto fail;
	}
	e->ops->destroy(m.ctx);
	/* After destroy: by then the device has finished everything issued. */
	if (m.trace) {
		if (apod_trace_collect(r->busy, r->work, r->nphases, &r->busy_unattributed))
			goto fail;
		r->has_busy = 1;
	}
	free(m.snap);
	return 0;
fail:
	if (m.trace)
		apod_trace_unwind();
	free(m.snap);
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
