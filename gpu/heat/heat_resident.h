/*
 * heat_resident.h: a field that lives on the device for the whole run, and the
 * device-side statistics and summaries that go with it (gpu2 onwards).
 *
 * Each step only the small results come back: the moments (40 bytes), the
 * histogram (nbins counts) and, every K steps, the zone means.
 */
#ifndef APOD_HEAT_RESIDENT_H
#define APOD_HEAT_RESIDENT_H

#include <cuda_runtime.h>

#include "phase_events.h"
#include "problem.h"
#include "stats.h"

struct heat_resident {
	const struct heat_problem *p;
	cudaStream_t stream;           /* where every kernel and copy goes */
	heat_real *d_cur, *d_next;
	size_t *d_src_idx;
	heat_real *d_src_temp;
	int nparts;                    /* per-block partial moments */
	struct apod_moments *d_parts, *d_total;
	unsigned *d_hist;
	double *d_zones;
	struct apod_moments *h_total;  /* pinned, so the copies back can be async */
	unsigned *h_hist;
	double *h_zones;
	int stats_blocks, stats_threads;
	struct apod_phase_events *events;  /* device time per phase, on `stream` */
};

/* Allocate and upload; `extra_fields` more fields' worth of device memory
 * will be allocated by the stage and is counted in the size check. */
int resident_init(struct heat_resident *r, const struct heat_problem *p, const char *stage,
                  cudaStream_t stream, int nparts, int extra_fields);
void resident_free(struct heat_resident *r);

/* Device time per phase, on the resident field's stream (the harness's
 * mark and device_seconds, for every stage built on it). */
int resident_mark(struct heat_resident *r, int phase, int end);
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
