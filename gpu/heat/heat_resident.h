/*
 * heat_resident.h: a field that lives on the device for the whole run, and the
 * device-side statistics and summaries that go with it (gpu2 onwards).
 *
 * Each step only the small results come back: the moments (40 bytes), the
 * histogram (nbins counts) and, every K steps, the zone means.  They come
 * back in batches (deferred probes, apod/workload.h): each probe writes its
 * row into a ring on the device and returns without waiting; the harness
 * collects the pending rows in one copy and one wait (doc/parallelize.md).
 */
#ifndef APOD_HEAT_RESIDENT_H
#define APOD_HEAT_RESIDENT_H

#include <cuda_runtime.h>

#include "gpu/phase_events.h"
#include "cpu/heat/problem.h"
#include "shared/stats.h"

struct heat_resident {
	const struct heat_problem *p;
	cudaStream_t stream;           /* where every kernel and copy goes, after resident_issue() */
	heat_real *d_cur, *d_next;
	size_t *d_src_idx;
	heat_real *d_src_temp;
	int nparts;                    /* per-block partial moments */
	struct apod_moments *d_parts, *d_total;
	unsigned *d_hist;
	double *d_zones;
	int zone_slices;               /* zones_sliced_kernel's slices a zone */
	double *d_zone_parts;          /* nzones x zone_slices partial sums */
	unsigned *d_zone_arrived;      /* a counter a zone */
	struct apod_moments *h_total;  /* pinned, so the copies back can be async */
	unsigned *h_hist;
	double *h_zones;
	int stats_blocks, stats_threads;
	struct apod_phase_events *events;  /* device time per phase, on `stream` */
	/* The deferred probes' rings: row `row` of a probe lives in slot
	 * row % RESIDENT_RING_SLOTS; a run with fewer rows gets fewer slots. */
	size_t stats_stride;           /* bytes of a calcStats row: moments, then nbins counts */
	long stats_slots, zone_slots;
	unsigned char *d_stats_ring, *h_stats_ring;   /* h_: pinned, the rows collected */
	double *d_zone_ring, *h_zone_ring;
};

/* Rows a deferred probe holds on the device before the harness collects
 * them (the stages' defer_rows): 128 calcStats rows of the largest
 * histogram are 2 MB; the summary's ring is sized to the run's rows. */
#define RESIDENT_DEFER_ROWS 128
/* A slot more than the rows the stages declare pending: gpu4's step writes
 * its calcStats row itself, and the harness collects a full ring only
 * after that step, before the step's probe. */
#define RESIDENT_RING_SLOTS (RESIDENT_DEFER_ROWS + 1)

/* The fixed sources on the device: their indices and temperatures
 * allocated (room for one where there are none) and uploaded.  Returns 0,
 * or -1 with the failure recorded; what was allocated is the caller's to
 * free either way. */
int heat_sources_upload(const struct heat_problem *p, size_t **d_idx, heat_real **d_temp);

/* Wait until setup's uploads have landed: they go on the legacy stream
 * (and a cudaMemcpy from pageable memory returns before its copy reaches
 * the device), while the stages work on non-blocking streams, which do not
 * wait for it.  The first step, launched early with nothing in its stream
 * ahead of it, read a heater mask not yet there (gate-gpu.sh, once). */
int resident_settle(void);

/* Allocate and upload; `extra_fields` more fields' worth of device memory
 * will be allocated by the stage and is counted in the size check. */
int resident_init(struct heat_resident *r, const struct heat_problem *p, const char *stage,
                  cudaStream_t stream, int nparts, int extra_fields);
void resident_free(struct heat_resident *r);

/* Device time per phase, on the resident field's stream (the harness's
 * mark and device_seconds, for every stage built on it). */
int resident_mark(struct heat_resident *r, int phase, int end);
/* Before every launch, copy or memset on `stream`: tells the phase timers
 * that the current phase's device work begins (phase_events.h: the events
 * are recorded where the work changes phase, not at every mark). */
int resident_issue(struct heat_resident *r);
int resident_device_seconds(struct heat_resident *r, double *seconds, int nphases);

/* genTimeStep with the plain sweep and pin kernels; swaps cur and next. */
int resident_sweep(struct heat_resident *r);
/* calcStats with the plain statistics kernel, then resident_stats_finish:
 * the moments in m, the histogram's counts in h_hist. */
int resident_stats(struct heat_resident *r, struct apod_moments *m);
/* The same calls without the wait at the end (the results land in h_total
 * and h_hist once the stream gets there): what bench captures as a graph. */
int resident_stats_issue(struct heat_resident *r);
/* Merge d_parts (filled by some kernel, d_hist too) and bring them home. */
int resident_stats_finish(struct heat_resident *r, int nparts, struct apod_moments *m);
int resident_zones(struct heat_resident *r, double *zone_means);

/* Deferred: resident_defer_stats merges the nparts partials in d_parts and
 * copies d_hist, both into calcStats's ring row `row`, in the kernel
 * resident_stats_finish merges with (so the rows are the same bit for bit);
 * resident_defer_zones computes the zone means into the summary's ring row.
 * Neither waits.  resident_collect brings probe k's rows first ..
 * first+count-1 home (one copy, two where the ring wraps, and one wait)
 * and writes them into the harness's rows as resident_probe would. */
int resident_defer_stats(struct heat_resident *r, int nparts, long row);
int resident_defer_zones(struct heat_resident *r, long row);
/* calcStats with the plain statistics kernel, deferred (gpu2, gpu3). */
int resident_defer_plain_stats(struct heat_resident *r, long row);
int resident_collect(struct heat_resident *r, int k, long first, long count, void *const *rows);
int resident_fetch(struct heat_resident *r, heat_real *dst);

/* Snapshots that overlap the steps (gpu3 onwards).  The field is copied on
 * the device to a staging buffer (a fraction of a step); the writer thread
 * then downloads it on a copy stream in chunks, through two small pinned
 * buffers used in turn, and hands each chunk to the file while the next
 * one is on its way.  Meanwhile the compute stream goes on stepping. */
#define SNAPSHOT_CHUNK (8u << 20)   /* bytes per chunk: big enough for full PCIe speed */

struct snapshots {
	int ready;                     /* buffers are made at the first snapshot */
	cudaStream_t copy;
	heat_real *d_stage;
	size_t n;
	heat_real *h_chunk[2];
	cudaEvent_t staged, done[2];
};
int snapshots_init(struct snapshots *s, size_t n);   /* snapshots_begin calls it */
void snapshots_free(struct snapshots *s);
int snapshots_begin(struct snapshots *s, struct heat_resident *r);
/* sink as the harness's snapshot_stream gives it (apod/workload.h). */
int snapshots_stream(struct snapshots *s, int (*sink)(const void *chunk, size_t bytes, void *arg),
                     void *arg);

#endif
