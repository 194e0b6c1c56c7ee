#include <string.h>

#include "apod/cuda.h"
#include "gpu/device.h"
#include "kernels.cuh"
#include "heat_resident.h"
#include "cpu/heat/heat_stage.h"

/* Slots a deferred probe's ring needs: RESIDENT_RING_SLOTS, or the rows
 * the run will have if fewer (at least one, so the buffers exist). */
static long ring_slots(long steps, long every)
{
	long rows = every > 0 ? steps / every : 0;
	if (rows > RESIDENT_RING_SLOTS)
		rows = RESIDENT_RING_SLOTS;
	return rows > 0 ? rows : 1;
}

/* Slices a zone for zones_sliced_kernel: about six blocks an SM in all
 * (measured best on the H200: 8 slices of 64 zones, 4 of 256), no more
 * than 64. */
static int zones_sliced_init(struct heat_resident *r)
{
	int dev, sms, nz = r->p->nzones;
	APOD_CUDA_TRY(cudaGetDevice(&dev));
	APOD_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
	r->zone_slices = (6 * sms + nz - 1) / nz;
	if (r->zone_slices > 64)
		r->zone_slices = 64;
	if (r->zone_slices < 1)
		r->zone_slices = 1;
	APOD_CUDA_TRY(cudaMalloc(&r->d_zone_parts, (size_t)nz * r->zone_slices * sizeof(double)));
	APOD_CUDA_TRY(cudaMalloc(&r->d_zone_arrived, (size_t)nz * sizeof(unsigned)));
	APOD_CUDA_TRY(cudaMemset(r->d_zone_arrived, 0, (size_t)nz * sizeof(unsigned)));
	return 0;
}

static int zones_issue(struct heat_resident *r, double *means)
{
	const struct heat_problem *p = r->p;
	if (resident_issue(r))
		return -1;
	APOD_LAUNCH_TRY((zones_sliced_kernel<<<dim3((unsigned)p->nzones, (unsigned)r->zone_slices), 256, 0,
	                                       r->stream>>>(r->d_cur, p->nx, p->ny, p->zones_x, p->zones_y,
	                                                    r->d_zone_parts, r->d_zone_arrived, means)));
	return 0;
}

int heat_sources_upload(const struct heat_problem *p, size_t **d_idx, heat_real **d_temp)
{
	APOD_CUDA_TRY(cudaMalloc(d_idx, (p->nsrc ? p->nsrc : 1) * sizeof(size_t)));
	APOD_CUDA_TRY(cudaMalloc(d_temp, (p->nsrc ? p->nsrc : 1) * sizeof(heat_real)));
	if (p->nsrc) {
		APOD_CUDA_TRY(cudaMemcpy(*d_idx, p->src_idx, p->nsrc * sizeof(size_t),
		                         cudaMemcpyHostToDevice));
		APOD_CUDA_TRY(cudaMemcpy(*d_temp, p->src_temp, p->nsrc * sizeof(heat_real),
		                         cudaMemcpyHostToDevice));
	}
	return 0;
}

/* Heat's phase `name` as a bit of phase_events' chained mask (0 for a
 * phase the harness does not know, which then simply closes at its end). */
static unsigned phase_bit(const char *name)
{
	int k = apod_phase_number(&heat_workload, name);
	return k >= 0 && k < 32 ? 1u << k : 0u;
}

int resident_init(struct heat_resident *r, const struct heat_problem *p, const char *stage,
                  cudaStream_t stream, int nparts, int extra_fields)
{
	size_t field = p->n * sizeof(heat_real);
	/* A calcStats row: the moments, then the counts, 8-byte aligned. */
	size_t stride = (sizeof(struct apod_moments) + (size_t)p->nbins * sizeof(unsigned) + 7) / 8 * 8;
	long stats_slots = ring_slots(p->deck->steps, 1);
	long zone_slots = ring_slots(p->deck->steps, p->deck->summary_every);
	size_t rings = (size_t)stats_slots * stride + (size_t)zone_slots * p->nzones * sizeof(double);
	size_t need = rings + (2 + (size_t)extra_fields) * field + p->nsrc * (sizeof(size_t) + sizeof(heat_real)) +
	              (size_t)nparts * sizeof(struct apod_moments) + (size_t)p->nbins * sizeof(unsigned) +
	              (size_t)p->nzones * sizeof(double) + (64u << 20); /* context and slack */
	int dev, sms;
	memset(r, 0, sizeof *r);
	r->p = p;
	r->stream = stream;
	r->nparts = nparts;
	r->stats_stride = stride;
	r->stats_slots = stats_slots;
	r->zone_slots = zone_slots;
	if (apod_gpu_require(stage, need))
		return -1;
	APOD_CUDA_TRY(cudaMalloc(&r->d_cur, field));
	APOD_CUDA_TRY(cudaMalloc(&r->d_next, field));
	if (heat_sources_upload(p, &r->d_src_idx, &r->d_src_temp))
		return -1;
	APOD_CUDA_TRY(cudaMalloc(&r->d_parts, (size_t)nparts * sizeof(struct apod_moments)));
	APOD_CUDA_TRY(cudaMalloc(&r->d_total, sizeof(struct apod_moments)));
	APOD_CUDA_TRY(cudaMalloc(&r->d_hist, (size_t)p->nbins * sizeof(unsigned)));
	APOD_CUDA_TRY(cudaMalloc(&r->d_zones, (size_t)p->nzones * sizeof(double)));
	APOD_CUDA_TRY(cudaMallocHost(&r->h_total, sizeof(struct apod_moments)));
	if (zones_sliced_init(r))
		return -1;
	APOD_CUDA_TRY(cudaMallocHost(&r->h_hist, (size_t)p->nbins * sizeof(unsigned)));
	APOD_CUDA_TRY(cudaMallocHost(&r->h_zones, (size_t)p->nzones * sizeof(double)));
	APOD_CUDA_TRY(cudaMalloc(&r->d_stats_ring, (size_t)stats_slots * stride));
	APOD_CUDA_TRY(cudaMallocHost(&r->h_stats_ring, (size_t)stats_slots * stride));
	APOD_CUDA_TRY(cudaMalloc(&r->d_zone_ring, (size_t)zone_slots * p->nzones * sizeof(double)));
	APOD_CUDA_TRY(cudaMallocHost(&r->h_zone_ring, (size_t)zone_slots * p->nzones * sizeof(double)));
	/* Both buffers start whole: the sweep never writes the fixed edges. */
	APOD_CUDA_TRY(cudaMemcpy(r->d_cur, p->init, field, cudaMemcpyHostToDevice));
	APOD_CUDA_TRY(cudaMemcpy(r->d_next, p->init, field, cudaMemcpyHostToDevice));
	/* The plain statistics kernel: enough blocks to fill the device a few
	 * times over, no more than there are partial slots. */
	APOD_CUDA_TRY(cudaGetDevice(&dev));
	APOD_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
	r->stats_threads = 256;
	r->stats_blocks = 8 * sms < nparts ? 8 * sms : nparts;
	/* Every phase of heat's, numbered as the harness marks them.  Events
	 * where the work changes phase (phase_events.h): gpu4's step computes
	 * calcStats's row itself, so a run of steps costs no event.  The step
	 * loop's phases (the step and the probes) stay open. */
	if (!(r->events = apod_phase_events_edges(stream, apod_phase_total(&heat_workload),
	                                          phase_bit("genTimeStep") | phase_bit("calcStats") |
	                                                  phase_bit("calcSummaryData"))))
		return -1;
	return 0;
}

int resident_settle(void)
{
	APOD_CUDA_TRY(cudaDeviceSynchronize());
	return 0;
}

int resident_issue(struct heat_resident *r)
{
	return r->events ? apod_phase_events_issue(r->events) : 0;
}

int resident_mark(struct heat_resident *r, int phase, int end)
{
	return apod_phase_events_mark(r->events, phase, end);
}

int resident_device_seconds(struct heat_resident *r, double *seconds, int nphases)
{
	return apod_phase_events_collect(r->events, seconds, nphases);
}

void resident_free(struct heat_resident *r)
{
	apod_phase_events_free(r->events);
	r->events = NULL;
	/* Teardown: nothing useful to do with a failure but go on freeing. */
	cudaFree(r->d_cur);
	cudaFree(r->d_next);
	cudaFree(r->d_src_idx);
	cudaFree(r->d_src_temp);
	cudaFree(r->d_parts);
	cudaFree(r->d_total);
	cudaFree(r->d_hist);
	cudaFree(r->d_zones);
	cudaFree(r->d_zone_parts);
	cudaFree(r->d_zone_arrived);
	cudaFreeHost(r->h_total);
	cudaFreeHost(r->h_hist);
	cudaFreeHost(r->h_zones);
	cudaFree(r->d_stats_ring);
	cudaFreeHost(r->h_stats_ring);
	cudaFree(r->d_zone_ring);
	cudaFreeHost(r->h_zone_ring);
	memset(r, 0, sizeof *r);
}

int resident_sweep(struct heat_resident *r)
{
	const struct heat_problem *p = r->p;
	dim3 block(SWEEP_BX, SWEEP_BY);
	dim3 grid = sweep_grid(p->nx, p->ny - 2);
	heat_real *t;
	if (resident_issue(r))
		return -1;
	APOD_LAUNCH_TRY((sweep_kernel<<<grid, block, 0, r->stream>>>(r->d_cur, r->d_next, p->nx, p->ny,
	                                                          p->alpha)));
	if (p->nsrc)
		APOD_LAUNCH_TRY((pin_kernel<<<(unsigned)((p->nsrc + 255) / 256), 256, 0, r->stream>>>(
			r->d_next, r->d_src_idx, r->d_src_temp, p->nsrc)));
	t = r->d_cur;
	r->d_cur = r->d_next;
	r->d_next = t;
	return 0;
}

/* Merge the partials and start the two copies home; nothing waits. */
static int stats_send(struct heat_resident *r, int nparts)
{
	const struct heat_problem *p = r->p;
	if (resident_issue(r))
		return -1;
	APOD_LAUNCH_TRY((merge_kernel<<<1, 256, 0, r->stream>>>(r->d_parts, nparts, r->d_total, NULL,
	                                                                   NULL, 0)));
	APOD_CUDA_TRY(cudaMemcpyAsync(r->h_total, r->d_total, sizeof *r->h_total, cudaMemcpyDeviceToHost,
	                         r->stream));
	APOD_CUDA_TRY(cudaMemcpyAsync(r->h_hist, r->d_hist, (size_t)p->nbins * sizeof *r->h_hist,
	                         cudaMemcpyDeviceToHost, r->stream));
	return 0;
}

/* Wait for the copies home: the moments into m, the counts stay in h_hist. */
static int stats_take(struct heat_resident *r, struct apod_moments *m)
{
	APOD_CUDA_TRY(cudaStreamSynchronize(r->stream));
	*m = *r->h_total;
	return 0;
}

int resident_stats_finish(struct heat_resident *r, int nparts, struct apod_moments *m)
{
	return stats_send(r, nparts) || stats_take(r, m) ? -1 : 0;
}

/* calcStats with the plain kernel, into d_parts and d_hist. */
static int stats_gather(struct heat_resident *r)
{
	const struct heat_problem *p = r->p;
	if (resident_issue(r))
		return -1;
	APOD_CUDA_TRY(cudaMemsetAsync(r->d_hist, 0, (size_t)p->nbins * sizeof(unsigned), r->stream));
	APOD_LAUNCH_TRY((stats_kernel<<<r->stats_blocks, r->stats_threads, (size_t)p->nbins * sizeof(unsigned),
	                           r->stream>>>(r->d_cur, p->n, p->hist_lo, p->hist_inv_width, p->nbins,
	                                        r->d_parts, r->d_hist)));
	return 0;
}

int resident_stats_issue(struct heat_resident *r)
{
	return stats_gather(r) || stats_send(r, r->stats_blocks) ? -1 : 0;
}

int resident_defer_plain_stats(struct heat_resident *r, long row)
{
	return stats_gather(r) || resident_defer_stats(r, r->stats_blocks, row) ? -1 : 0;
}

int resident_stats(struct heat_resident *r, struct apod_moments *m)
{
	return resident_stats_issue(r) || stats_take(r, m) ? -1 : 0;
}

int resident_zones(struct heat_resident *r, double *zone_means)
{
	const struct heat_problem *p = r->p;
	if (zones_issue(r, r->d_zones))
		return -1;
	APOD_CUDA_TRY(cudaMemcpyAsync(r->h_zones, r->d_zones, (size_t)p->nzones * sizeof(double),
	                         cudaMemcpyDeviceToHost, r->stream));
	APOD_CUDA_TRY(cudaStreamSynchronize(r->stream));
	memcpy(zone_means, r->h_zones, (size_t)p->nzones * sizeof(double));
	return 0;
}

/* The ring row of `row` in a ring of `slots` (the harness numbers its
 * rows so that none pending share a slot). */
static int ring_slot(long row, long slots, const char *what, long *slot)
{
	*slot = row % RESIDENT_RING_SLOTS;
	if (row < 0 || *slot >= slots)
		return apod_fail("%s: row %ld is beyond the %ld rows the run was sized for", what, row,
		                 slots);
	return 0;
}

int resident_defer_stats(struct heat_resident *r, int nparts, long row)
{
	const struct heat_problem *p = r->p;
	unsigned char *dst;
	long slot;
	if (ring_slot(row, r->stats_slots, "calcStats", &slot) || resident_issue(r))
		return -1;
	dst = r->d_stats_ring + (size_t)slot * r->stats_stride;
	APOD_LAUNCH_TRY((merge_kernel<<<1, 256, 0, r->stream>>>(
		r->d_parts, nparts, (struct apod_moments *)dst, r->d_hist,
		(unsigned *)(dst + sizeof(struct apod_moments)), p->nbins)));
	return 0;
}

int resident_defer_zones(struct heat_resident *r, long row)
{
	const struct heat_problem *p = r->p;
	long slot;
	if (ring_slot(row, r->zone_slots, "calcSummaryData", &slot))
		return -1;
	return zones_issue(r, r->d_zone_ring + (size_t)slot * p->nzones);
}

/* Copy slots first .. first+count-1 (mod slots) of a ring home, in one
 * piece or, where they wrap, two. */
static int ring_download(struct heat_resident *r, const void *dev, void *host, size_t stride,
                         long slots, long first, long count)
{
	long a = first % slots, n1 = count < slots - a ? count : slots - a;
	if (resident_issue(r))
		return -1;
	APOD_CUDA_TRY(cudaMemcpyAsync((char *)host + (size_t)a * stride,
	                         (const char *)dev + (size_t)a * stride, (size_t)n1 * stride,
	                         cudaMemcpyDeviceToHost, r->stream));
	if (count > n1)
		APOD_CUDA_TRY(cudaMemcpyAsync(host, dev, (size_t)(count - n1) * stride,
		                         cudaMemcpyDeviceToHost, r->stream));
	return 0;
}

int resident_collect(struct heat_resident *r, int k, long first, long count, void *const *rows)
{
	const struct heat_problem *p = r->p;
	int summary = k == HEAT_PROBE_SUMMARY;
	long slots = summary ? r->zone_slots : r->stats_slots, slot;
	size_t stride = summary ? (size_t)p->nzones * sizeof(double) : r->stats_stride;
	const char *what = summary ? "calcSummaryData" : "calcStats";
	if (count <= 0)
		return 0;
	if (count > slots)
		return apod_fail("%s: %ld rows to collect from a ring of %ld", what, count, slots);
	if (ring_slot(first, slots, what, &slot) || ring_slot(first + count - 1, slots, what, &slot))
		return -1;
	if (ring_download(r, summary ? (const void *)r->d_zone_ring : r->d_stats_ring,
	                  summary ? (void *)r->h_zone_ring : r->h_stats_ring, stride, slots, first,
	                  count))
		return -1;
	/* The one wait: every pending row's kernels and the copies. */
	APOD_CUDA_TRY(cudaStreamSynchronize(r->stream));
	for (long i = 0; i < count; i++) {
		long s = (first + i) % slots;
		if (summary) {
			if (rows[HEAT_SERIES_ZONES])
				memcpy((double *)rows[HEAT_SERIES_ZONES] + (size_t)i * p->nzones,
				       r->h_zone_ring + (size_t)s * p->nzones, (size_t)p->nzones * sizeof(double));
		} else {
			const unsigned char *src = r->h_stats_ring + (size_t)s * r->stats_stride;
			struct apod_moments m;
			void *row[3] = { NULL, NULL, NULL };
			memcpy(&m, src, sizeof m);
			if (rows[HEAT_SERIES_STATS])
				row[HEAT_SERIES_STATS] = (double *)rows[HEAT_SERIES_STATS] + (size_t)i * 4;
			if (rows[HEAT_SERIES_HIST])
				row[HEAT_SERIES_HIST] = (double *)rows[HEAT_SERIES_HIST] + (size_t)i * p->nbins;
			heat_stats_rows(p, &m, (const unsigned *)(src + sizeof m), row);
		}
	}
	return 0;
}

int resident_fetch(struct heat_resident *r, heat_real *dst)
{
	/* The copy below goes on the legacy stream: what the events time is
	 * the span from here to the phase's end mark, the copy included. */
	if (resident_issue(r))
		return -1;
	APOD_CUDA_TRY(cudaStreamSynchronize(r->stream));
	APOD_CUDA_TRY(cudaMemcpy(dst, r->d_cur, r->p->n * sizeof(heat_real), cudaMemcpyDeviceToHost));
	return 0;
}

int snapshots_init(struct snapshots *s, size_t n)
{
	memset(s, 0, sizeof *s);
	s->n = n;
	APOD_CUDA_TRY(cudaStreamCreateWithFlags(&s->copy, cudaStreamNonBlocking));
	APOD_CUDA_TRY(cudaMalloc(&s->d_stage, n * sizeof(heat_real)));
	for (int i = 0; i < 2; i++) {
		APOD_CUDA_TRY(cudaMallocHost(&s->h_chunk[i], SNAPSHOT_CHUNK));
		APOD_CUDA_TRY(cudaEventCreateWithFlags(&s->done[i], cudaEventDisableTiming));
	}
	APOD_CUDA_TRY(cudaEventCreateWithFlags(&s->staged, cudaEventDisableTiming));
	s->ready = 1;
	return 0;
}

void snapshots_free(struct snapshots *s)
{
	if (s->copy)
		cudaStreamSynchronize(s->copy);
	cudaFree(s->d_stage);
	for (int i = 0; i < 2; i++) {
		cudaFreeHost(s->h_chunk[i]);
		if (s->done[i])
			cudaEventDestroy(s->done[i]);
	}
	if (s->staged)
		cudaEventDestroy(s->staged);
	if (s->copy)
		cudaStreamDestroy(s->copy);
	memset(s, 0, sizeof *s);
}

int snapshots_begin(struct snapshots *s, struct heat_resident *r)
{
	/* Made on first use: a run without snapshots pays nothing for them. */
	if ((!s->ready && snapshots_init(s, r->p->n)) || resident_issue(r))
		return -1;
	/* The previous snapshot has been streamed out (the driver waited for
	 * it), so the staging buffer is free. */
	APOD_CUDA_TRY(cudaMemcpyAsync(s->d_stage, r->d_cur, s->n * sizeof(heat_real),
	                         cudaMemcpyDeviceToDevice, r->stream));
	APOD_CUDA_TRY(cudaEventRecord(s->staged, r->stream));
	return 0;
}

/* Enqueue the download of chunk k into pinned buffer k % 2. */
static int download_chunk(struct snapshots *s, size_t k, size_t per)
{
	size_t off = k * per, count = s->n - off < per ? s->n - off : per;
	APOD_CUDA_TRY(cudaMemcpyAsync(s->h_chunk[k % 2], s->d_stage + off, count * sizeof(heat_real),
	                         cudaMemcpyDeviceToHost, s->copy));
	APOD_CUDA_TRY(cudaEventRecord(s->done[k % 2], s->copy));
	return 0;
}

int snapshots_stream(struct snapshots *s, int (*sink)(const void *chunk, size_t bytes, void *arg),
                     void *arg)
{
	size_t per = SNAPSHOT_CHUNK / sizeof(heat_real), nchunks = (s->n + per - 1) / per;
	APOD_CUDA_TRY(cudaStreamWaitEvent(s->copy, s->staged, 0));
	if (download_chunk(s, 0, per))
		return -1;
	for (size_t k = 0; k < nchunks; k++) {
		size_t count = s->n - k * per < per ? s->n - k * per : per;
		/* Chunk k+1 travels while chunk k is written; its buffer was
		 * released when chunk k-1's sink returned. */
		if (k + 1 < nchunks && download_chunk(s, k + 1, per))
			return -1;
		APOD_CUDA_TRY(cudaEventSynchronize(s->done[k % 2]));
		if (sink(s->h_chunk[k % 2], count * sizeof(heat_real), arg))
			return -1;
	}
	return 0;
}
