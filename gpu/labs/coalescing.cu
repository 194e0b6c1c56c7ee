/*
 * coalescing.cu: lab 4, how the addresses a warp touches in global memory
 * set the bandwidth a copy gets, in the order the sources teach it:
 *
 *   1. misaligned copy (the guide's offsetCopy): thread i copies element
 *      i + offset of one array into the same element of another, offset
 *      0..32, so that a warp's 32 words start off a 32-byte boundary;
 *   2. strided copy (strideCopy): thread i copies element i * stride,
 *      stride 1..32, so that a warp's words spread over more sectors;
 *   3. array of structures against structure of arrays: particles of eight
 *      floats, updating one field (x += vx dt) or three (x, y, z), with the
 *      fields interleaved (AoS) or in eight separate arrays (SoA).
 *
 * Effective bandwidth counts the bytes a kernel uses (each 4-byte element
 * read or written once), as the guide does, and is shown beside the
 * copy4 ceiling measured on the same bytes.  Beside it the lab prints what
 * the 32-byte-sector rule predicts: the sectors each warp's request touches,
 * the bytes those sectors hold, and so the fraction of the ceiling a kernel
 * bound by sector traffic would reach (the model is in cpu/labs/lab_models.c).
 *
 * Checked before timed, bit for bit: the output array starts filled with a
 * sentinel (all bits set, never an input value), and after one launch
 * every element a version should write must equal its input and every
 * other element must still be the sentinel.  The misaligned copies are
 * checked at the timed size; each strided copy on its first 2^20 + 77
 * elements (at the timed size the 32 strided outputs span 528 n floats,
 * tens of seconds to read back and compare).  The particle updates use
 * integers and a dt of 0.25 so that every result is exact; all eight
 * fields of every particle are compared, the ones that must not change
 * included.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/copy4.cuh"
#include "kit.cuh"
#include "cpu/labs/lab_models.h"   /* the sector model: apod_model_sectors_*, apod_model_layout_* */

#define THREADS 256      /* a multiple of 32: every warp starts on a 32-element boundary */
#define MAX_OFFSET 32
#define MAX_STRIDE 32
#define GUARD 64         /* sentinel elements after the last one a misaligned copy may write */
#define SENTINEL 0xffu   /* memset byte: every float the copy must not touch is 0xffffffff */
#define SENTINEL_WORD 0xffffffffu
#define VERIFY_STRIDED ((size_t)1 << 20)

static __global__ void offset_copy(float *odata, const float *idata, size_t n, int offset)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		odata[i + offset] = idata[i + offset];
}

static __global__ void stride_copy(float *odata, const float *idata, size_t n, int stride)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		odata[i * stride] = idata[i * stride];
}

/* One particle: 32 bytes, so each starts a 32-byte sector of its own. */
struct particle {
	float x, y, z, vx, vy, vz, mass, charge;
};
static_assert(sizeof(struct particle) == 32, "the AoS model takes a particle to be one 32-byte sector");

/* The same fields as eight arrays of n floats in one allocation, field f at
 * f * ld, ld being n rounded up to 64 floats: every field starts on a
 * 256-byte boundary, as a cudaMalloc of its own would, so that each warp's
 * 32 floats are 4 whole sectors at any particle count. */
#define SOA_ALIGN 64
struct particles_soa {
	float *x, *y, *z, *vx, *vy, *vz, *mass, *charge;
};

static __global__ void aos_push_x(struct particle *p, size_t n, float dt)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		p[i].x = fmaf(p[i].vx, dt, p[i].x);
}

static __global__ void soa_push_x(struct particles_soa p, size_t n, float dt)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		p.x[i] = fmaf(p.vx[i], dt, p.x[i]);
}

static __global__ void aos_push_xyz(struct particle *p, size_t n, float dt)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		struct particle *q = p + i;
		q->x = fmaf(q->vx, dt, q->x);
		q->y = fmaf(q->vy, dt, q->y);
		q->z = fmaf(q->vz, dt, q->z);
	}
}

static __global__ void soa_push_xyz(struct particles_soa p, size_t n, float dt)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		p.x[i] = fmaf(p.vx[i], dt, p.x[i]);
		p.y[i] = fmaf(p.vy[i], dt, p.y[i]);
		p.z[i] = fmaf(p.vz[i], dt, p.z[i]);
	}
}

/* Input element j: an integer below 2^24, exact in float, never the sentinel. */
static inline float input_value(size_t j)
{
	return (float)(((uint32_t)j * 2654435761u) >> 8);
}

static int blocks_for(size_t n)
{
	return (int)((n + THREADS - 1) / THREADS);
}

struct result {
	int verified;
	double ms, gbs;
};

static double gb_per_s(double bytes, double ms)
{
	return ms > 0 ? bytes / (ms * 1e-3) / 1e9 : 0;
}

/* The common part of every JSON row. */
static json_object *row_json(json_object *rows, const char *experiment, const char *version,
                             const struct result *r, double ceiling, int timed)
{
	json_object *o = lab_row(rows);
	lab_put(o, "experiment", experiment);
	lab_put(o, "version", version);
	lab_put(o, "verified", r->verified != 0);
	if (r->verified && timed) {
		lab_put(o, "ms", r->ms);
		lab_put(o, "GB/s", r->gbs);
		if (ceiling > 0)
			lab_put(o, "fraction_of_ceiling", r->gbs / ceiling);
	}
	return o;
}

/* "  0.0651   4123.1   100.0%" or dashes when not timed. */
static void print_measure(const struct result *r, double ceiling, int timed)
{
	if (r->verified && timed)
		printf(" %10.4f %10.1f %9.1f%%", r->ms, r->gbs, ceiling > 0 ? 100 * r->gbs / ceiling : 0);
	else
		printf(" %10s %10s %10s", "-", "-", "");
}

/* A version checked (ok: *failed set where not) and, where it passed and
 * this is no --check run, timed: o->reps runs of launch (nonzero where
 * its launch failed), used bytes over the time.  -1 where timing failed. */
template <class F>
static int measure(struct result *r, int ok, int *failed, const struct apod_lab_opts *o, double used,
                   F launch)
{
	r->verified = ok;
	*failed |= !ok;
	if (ok && !o->check) {
		if (time_it(o->reps, launch, &r->ms))
			return -1;
		r->gbs = gb_per_s(used, r->ms);
	}
	return 0;
}

/* The row of a copy numbered by key ("offset", "stride"): the number and
 * the measure printed (the caller ends the line), and its JSON row begun,
 * "offset 3" with the number under key. */
static json_object *numbered_row(json_object *rows, const char *key, int number,
                                 const struct result *r, double ceiling, int timed)
{
	char name[32];
	json_object *j;
	printf("  %6d", number);
	print_measure(r, ceiling, timed);
	snprintf(name, sizeof name, "%s %d", key, number);
	j = row_json(rows, key, name, r, ceiling, timed);
	lab_put(j, key, number);
	return j;
}

/* A copy's sector model on its JSON row: the bytes it uses, the sectors a
 * warp requests, the bytes those sectors hold (under fetched_key) and the
 * fraction of them used. */
static void put_sector_model(json_object *j, double used, double sectors_per_warp,
                             const char *fetched_key, double fetched)
{
	lab_put(j, "bytes_used", used);
	lab_put(j, "sectors_per_warp", sectors_per_warp);
	lab_put(j, fetched_key, fetched);
	lab_put(j, "model_fraction", used / fetched);
}

/* A copy's arrays: len words of input (input_value) and of output on the
 * host; dev_len (>= len) of each on the device, the input's first len
 * uploaded and the rest zero. */
struct copy_arrays {
	host_array<float> h_in;
	host_array<uint32_t> h_out;
	dev_array<float> d_in, d_out;
};

static int copy_arrays_setup(struct copy_arrays *a, size_t len, size_t dev_len)
{
	if (a->h_in.alloc(len) || a->h_out.alloc(len))
		return -1;
	for (size_t j = 0; j < len; j++)
		a->h_in.p[j] = input_value(j);
	if (a->d_in.alloc(dev_len) || a->d_out.alloc(dev_len))
		return -1;
	if (dev_len > len)
		APOD_CUDA_TRY(cudaMemset(a->d_in.p, 0, dev_len * sizeof(float)));
	APOD_CUDA_TRY(cudaMemcpy(a->d_in.p, a->h_in.p, len * sizeof(float), cudaMemcpyHostToDevice));
	return 0;
}

/* 1. offsetCopy, offsets 0..32, verified then timed. */
static int offsets(size_t n, const struct apod_lab_opts *o, double ceiling, json_object *rows, int *failed)
{
	size_t len = n + GUARD, bytes = len * sizeof(float);
	struct copy_arrays a;
	double used = 2.0 * n * sizeof(float);

	if (copy_arrays_setup(&a, len, len))
		return -1;
	const float *h_in = a.h_in.p, *d_in = a.d_in.p;
	uint32_t *h_out = a.h_out.p;
	float *d_out = a.d_out.p;

	printf("\n1. misaligned copy (offsetCopy): out[i + offset] = in[i + offset] for i < n = %zu;\n"
	       "   bytes used per copy: n reads + n writes of 4 bytes = %.0f; each warp's 32 words begin "
	       "offset words after a 128-byte boundary\n", n, used);
	printf("  %6s %10s %10s %10s %13s %12s %12s  %s\n", "offset", "ms", "GB/s", "of ceiling",
	       "sectors/warp", "model: req.", "model: dist.", "check");
	for (int off = 0; off <= MAX_OFFSET; off++) {
		struct result r = { 0, 0, 0 };
		uint64_t req = apod_model_sectors_requested(n, off, 1), dist = apod_model_sectors_distinct(n, off, 1);
		double fetched = 2.0 * 32 * req, fetched_dist = 2.0 * 32 * dist;
		json_object *j;
		int ok;

		APOD_CUDA_TRY(cudaMemset(d_out, SENTINEL, bytes));
		APOD_LAUNCH_TRY((offset_copy<<<blocks_for(n), THREADS>>>(d_out, d_in, n, off)));
		APOD_CUDA_TRY(cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost));
		/* Written: [off, off + n) equal to the input; elsewhere the sentinel. */
		ok = memcmp(h_out + off, h_in + off, n * sizeof(float)) == 0;
		for (size_t k = 0; ok && k < (size_t)off; k++)
			ok = h_out[k] == SENTINEL_WORD;
		for (size_t k = off + n; ok && k < len; k++)
			ok = h_out[k] == SENTINEL_WORD;
		if (measure(&r, ok, failed, o, used, [&] {
			    offset_copy<<<blocks_for(n), THREADS>>>(d_out, d_in, n, off);
			    return cudaGetLastError() != cudaSuccess; }))
			return -1;
		j = numbered_row(rows, "offset", off, &r, ceiling, !o->check);
		printf(" %13.2f %11.1f%% %11.1f%%  %s\n", (double)req / ((n + 31) / 32), 100 * used / fetched,
		       100 * used / fetched_dist, ok ? "ok" : "FAILED");
		put_sector_model(j, used, (double)req / ((n + 31) / 32), "bytes_requested_model", fetched);
		lab_put(j, "bytes_distinct_model", fetched_dist);
		lab_put(j, "distinct_model_fraction", used / fetched_dist);
	}
	printf("  model: req. = bytes used / bytes in the sectors the warps request (the guide's 4 of 5);\n"
	       "         dist. = bytes used / bytes in distinct sectors (neighbouring warps share one)\n");
	return 0;
}

/* The output words after a strided copy of n_v elements: the input at every
 * multiple of the stride below n_v * stride, the sentinel everywhere else. */
static int check_strided(const uint32_t *h_out, size_t len, size_t n_v, size_t stride)
{
	for (size_t k = 0; k < n_v; k++) {
		size_t j = k * stride;
		float want = input_value(j);
		if (memcmp(&h_out[j], &want, sizeof want))
			return 0;
		for (size_t q = j + 1; q < j + stride && q < len; q++)
			if (h_out[q] != SENTINEL_WORD)
				return 0;
	}
	for (size_t q = n_v * stride; q < len; q++)
		if (h_out[q] != SENTINEL_WORD)
			return 0;
	return 1;
}

/* 2. strideCopy, strides 1..32: verified on n_v elements, timed on n_s. */
static int strides(size_t n, const struct apod_lab_opts *o, double ceiling, json_object *rows,
                   json_object *out, int *failed)
{
	size_t n_s = n, free_b = 0, total_b = 0, n_v, alloc, len, gran = 0;
	struct copy_arrays a;

	/* Both arrays hold 32 n floats; halve n until they fit in 60% of free memory. */
	APOD_CUDA_TRY(cudaMemGetInfo(&free_b, &total_b));
	while (n_s > 4096 && 2.0 * MAX_STRIDE * n_s * sizeof(float) > 0.6 * free_b)
		n_s /= 2;
	n_v = n_s < VERIFY_STRIDED + 77 ? n_s : VERIFY_STRIDED + 77;
	alloc = MAX_STRIDE * n_s;
	len = MAX_STRIDE * n_v;  /* the part verified: every stride's writes stay below 32 n_v */
	if (copy_arrays_setup(&a, len, alloc))
		return -1;
	const float *d_in = a.d_in.p;
	uint32_t *h_out = a.h_out.p;
	float *d_out = a.d_out.p;
	lab_put(out, "n_strided", n_s);
	lab_put(out, "n_strided_verified", n_v);

	/* The L2's fetch granularity from DRAM (a hint the driver keeps): above 32
	 * bytes, a lone sector may cost a larger fetch than the model's. */
	if (cudaDeviceGetLimit(&gran, cudaLimitMaxL2FetchGranularity) != cudaSuccess) {
		(void)cudaGetLastError();
		gran = 0;
	}
	lab_put(out, "l2_fetch_granularity_bytes", gran);

	printf("\n2. strided copy (strideCopy): out[i * stride] = in[i * stride] for i < n = %zu%s;\n"
	       "   arrays of %d n floats; bytes used per copy: n reads + n writes of 4 bytes = %.0f;\n"
	       "   each stride is checked on a copy of its first %zu elements (all %zu words of that output\n"
	       "   compared), then timed on n; the driver's L2 fetch granularity hint: %zu bytes\n",
	       n_s, n_s < n ? " (halved to fit in device memory)" : "", MAX_STRIDE, 2.0 * n_s * sizeof(float),
	       n_v, len, gran);
	printf("  %6s %10s %10s %10s %13s %15s %8s  %s\n", "stride", "ms", "GB/s", "of ceiling",
	       "sectors/warp", "bytes fetched", "model", "check");
	for (int s = 1; s <= MAX_STRIDE; s++) {
		struct result r = { 0, 0, 0 };
		double used = 2.0 * n_s * sizeof(float);
		uint64_t req = apod_model_sectors_requested(n_s, 0, s);
		double fetched = 2.0 * 32 * req;
		json_object *j;
		int ok;

		APOD_CUDA_TRY(cudaMemset(d_out, SENTINEL, len * sizeof(float)));
		APOD_LAUNCH_TRY((stride_copy<<<blocks_for(n_v), THREADS>>>(d_out, d_in, n_v, s)));
		APOD_CUDA_TRY(cudaMemcpy(h_out, d_out, len * sizeof(float), cudaMemcpyDeviceToHost));
		ok = check_strided(h_out, len, n_v, s);
		if (measure(&r, ok, failed, o, used, [&] {
			    stride_copy<<<blocks_for(n_s), THREADS>>>(d_out, d_in, n_s, s);
			    return cudaGetLastError() != cudaSuccess; }))
			return -1;
		j = numbered_row(rows, "stride", s, &r, ceiling, !o->check);
		printf(" %13.2f %15.0f %7.1f%%  %s\n", (double)req / ((n_s + 31) / 32), fetched, 100 * used / fetched,
		       ok ? "ok" : "FAILED");
		put_sector_model(j, used, (double)req / ((n_s + 31) / 32), "bytes_fetched_model", fetched);
	}
	printf("  model = bytes used / bytes fetched = 1 / min(stride, 8): the fraction of the ceiling a copy\n"
	       "         moving whole sectors at the ceiling's rate would show\n");
	return 0;
}

/* Particle i's starting state: small integers, so x + v * 0.25 is exact. */
static void particle_init(struct particle *p, size_t i)
{
	uint32_t h = (uint32_t)i * 2654435761u, g = h ^ (h >> 15);
	p->x = (float)(h >> 16);
	p->y = (float)(h & 0xffff);
	p->z = (float)((h >> 8) & 0xffff);
	p->vx = (float)((int)(g & 0xff) - 128);
	p->vy = (float)((int)((g >> 8) & 0xff) - 128);
	p->vz = (float)((int)((g >> 16) & 0xff) - 128);
	p->mass = (float)(1 + (g >> 24));
	p->charge = (float)((int)(h & 3) - 1);
}

static const struct {
	const char *name;
	int soa, fields;   /* fields updated: 1 (x) or 3 (x, y, z) */
} layout_versions[] = {
	{ "AoS: x += vx*dt (2 of 8 fields)", 0, 1 },
	{ "SoA: x += vx*dt (2 of 8 fields)", 1, 1 },
	{ "AoS: x,y,z += v*dt (6 of 8 fields)", 0, 3 },
	{ "SoA: x,y,z += v*dt (6 of 8 fields)", 1, 3 },
};

/* Part 3's particles: the starting state, a host buffer in either layout, the device copy. */
struct layout_bufs {
	size_t n, ld, bytes, soa_bytes;   /* ld: n rounded up to SOA_ALIGN; soa_bytes >= bytes */
	host_array<struct particle> h_init;
	host_array<float> h_buf;
	dev_array<float> d;
	struct particles_soa soa;         /* the eight fields of d */
};

/* Fresh data on the device in version v's layout. */
static int upload_layout(struct layout_bufs *L, int v)
{
	size_t n = L->n, ld = L->ld;
	float *h_buf = L->h_buf.p;
	if (layout_versions[v].soa) {
		memset(h_buf, 0, L->soa_bytes);   /* the padding, never read */
		for (size_t i = 0; i < n; i++) {
			const struct particle *p = &L->h_init.p[i];
			h_buf[i] = p->x;
			h_buf[ld + i] = p->y;
			h_buf[2 * ld + i] = p->z;
			h_buf[3 * ld + i] = p->vx;
			h_buf[4 * ld + i] = p->vy;
			h_buf[5 * ld + i] = p->vz;
			h_buf[6 * ld + i] = p->mass;
			h_buf[7 * ld + i] = p->charge;
		}
		APOD_CUDA_TRY(cudaMemcpy(L->d.p, h_buf, L->soa_bytes, cudaMemcpyHostToDevice));
	} else
		APOD_CUDA_TRY(cudaMemcpy(L->d.p, L->h_init.p, L->bytes, cudaMemcpyHostToDevice));
	return 0;
}

/* Version v's result, read back: every field of every particle, the ones that must not change included. */
static int check_layout(struct layout_bufs *L, int v, float dt, int *ok)
{
	size_t n = L->n, ld = L->ld;
	const float *h_buf = L->h_buf.p;
	int f3 = layout_versions[v].fields == 3;
	APOD_CUDA_TRY(cudaMemcpy(L->h_buf.p, L->d.p, layout_versions[v].soa ? L->soa_bytes : L->bytes,
	                    cudaMemcpyDeviceToHost));
	*ok = 1;
	for (size_t i = 0; *ok && i < n; i++) {
		struct particle want = L->h_init.p[i], got;
		/* Exact either way: the GPU's fused multiply-add and this product and sum agree. */
		want.x = want.x + want.vx * dt;
		if (f3) {
			want.y = want.y + want.vy * dt;
			want.z = want.z + want.vz * dt;
		}
		if (layout_versions[v].soa) {
			got.x = h_buf[i];
			got.y = h_buf[ld + i];
			got.z = h_buf[2 * ld + i];
			got.vx = h_buf[3 * ld + i];
			got.vy = h_buf[4 * ld + i];
			got.vz = h_buf[5 * ld + i];
			got.mass = h_buf[6 * ld + i];
			got.charge = h_buf[7 * ld + i];
		} else
			memcpy(&got, (const char *)h_buf + i * sizeof got, sizeof got);
		*ok = memcmp(&want, &got, sizeof want) == 0;
	}
	return 0;
}

static int alloc_layouts(struct layout_bufs *L, size_t n)
{
	float *d;
	L->n = n;
	L->bytes = n * sizeof(struct particle);
	L->ld = (n + SOA_ALIGN - 1) / SOA_ALIGN * SOA_ALIGN;
	L->soa_bytes = 8 * L->ld * sizeof(float);   /* >= bytes: the SoA layout with its padding */
	if (L->h_init.alloc(n) || L->h_buf.alloc(8 * L->ld))
		return -1;
	for (size_t i = 0; i < n; i++)
		particle_init(&L->h_init.p[i], i);
	if (L->d.alloc(8 * L->ld))
		return -1;
	d = L->d.p;
	L->soa.x = d;
	L->soa.y = d + L->ld;
	L->soa.z = d + 2 * L->ld;
	L->soa.vx = d + 3 * L->ld;
	L->soa.vy = d + 4 * L->ld;
	L->soa.vz = d + 5 * L->ld;
	L->soa.mass = d + 6 * L->ld;
	L->soa.charge = d + 7 * L->ld;
	return 0;
}

/* 3. AoS against SoA on n particles (the lab passes its n / 4, so the particles
 * fill 8 n bytes, as much as the copies' two arrays): each version verified on
 * fresh data, then timed. */
static int layouts(size_t n, const struct apod_lab_opts *o, double ceiling, json_object *rows, int *failed)
{
	const float dt = 0.25f;
	struct layout_bufs L;

	if (alloc_layouts(&L, n))
		return -1;
	float *d = L.d.p;
	struct particles_soa soa = L.soa;

	printf("\n3. array of structures against structure of arrays: %zu particles (n / 4) of 8 floats\n"
	       "   (x y z vx vy vz mass charge, 32 bytes each), updated in place with dt = 0.25;\n"
	       "   bytes used: each field read or written counted once (12 bytes a particle for x, 36 for x, y, z)\n", n);
	printf("  %-36s %10s %10s %10s %12s %14s %8s  %s\n", "version", "ms", "GB/s", "of ceiling", "bytes used",
	       "bytes fetched", "model", "check");
	for (int v = 0; v < 4; v++) {
		struct result r = { 0, 0, 0 };
		int ok = 1;
		double used = apod_model_layout_bytes_used(n, layout_versions[v].fields);
		/* AoS: every particle's sector is read and written back whole; SoA: only what is used. */
		double fetched = apod_model_layout_bytes_fetched(n, layout_versions[v].fields, layout_versions[v].soa,
		                                                 sizeof(struct particle));
		json_object *j;

		/* Fresh data in this version's layout. */
		if (upload_layout(&L, v))
			return -1;
		switch (v) {
		case 0: APOD_LAUNCH_TRY((aos_push_x<<<blocks_for(n), THREADS>>>((struct particle *)d, n, dt))); break;
		case 1: APOD_LAUNCH_TRY((soa_push_x<<<blocks_for(n), THREADS>>>(soa, n, dt))); break;
		case 2: APOD_LAUNCH_TRY((aos_push_xyz<<<blocks_for(n), THREADS>>>((struct particle *)d, n, dt))); break;
		default: APOD_LAUNCH_TRY((soa_push_xyz<<<blocks_for(n), THREADS>>>(soa, n, dt))); break;
		}
		if (check_layout(&L, v, dt, &ok))
			return -1;
		/* Timed on the data the check left: positions keep moving, nothing overflows. */
		if (measure(&r, ok, failed, o, used, [&] {
			    switch (v) {
			    case 0: aos_push_x<<<blocks_for(n), THREADS>>>((struct particle *)d, n, dt); break;
			    case 1: soa_push_x<<<blocks_for(n), THREADS>>>(soa, n, dt); break;
			    case 2: aos_push_xyz<<<blocks_for(n), THREADS>>>((struct particle *)d, n, dt); break;
			    default: soa_push_xyz<<<blocks_for(n), THREADS>>>(soa, n, dt); break;
			    }
			    return cudaGetLastError() != cudaSuccess; }))
			return -1;
		printf("  %-36s", layout_versions[v].name);
		print_measure(&r, ceiling, !o->check);
		printf(" %12.0f %14.0f %7.1f%%  %s\n", used, fetched, 100 * used / fetched, ok ? "ok" : "FAILED");
		j = row_json(rows, "layout", layout_versions[v].name, &r, ceiling, !o->check);
		lab_put(j, "layout", layout_versions[v].soa ? "SoA" : "AoS");
		lab_put(j, "fields_updated", layout_versions[v].fields);
		lab_put(j, "bytes_used", used);
		lab_put(j, "bytes_fetched_model", fetched);
		lab_put(j, "model_fraction", used / fetched);
	}
	printf("  model = bytes used / bytes fetched: an AoS particle's whole 32-byte sector is read and written\n"
	       "         back (64 bytes per particle); SoA moves only the fields used\n");
	return 0;
}

extern "C" int apod_lab_coalescing(const struct apod_lab_opts *o, json_object *out)
{
	size_t n = lab_size(o, (size_t)1 << 25, 100003);
	double ceiling = 0;
	int failed = 0;
	json_object *rows;

	if (n < 1024 || n > ((size_t)1 << 27))
		return apod_usage_fail("coalescing: --size %zu must be 1024 to 2^27 elements", n);
	rows = lab_array(out, "rows");
	lab_put(out, "unit", "GB/s");
	lab_put(out, "n", n);
	lab_put(out, "particles", n / 4);
	lab_put(out, "threads_per_block", THREADS);

	/* The yardstick: copy4 over the same n floats in, n out. */
	if (!o->check) {
		if (copy4_ceiling_gbs(n * sizeof(float), o->reps, &ceiling))
			return -1;
		lab_put(out, "ceiling", ceiling);
		lab_put(out, "ceiling_is", "copy4 (16-byte loads and stores) on the same n floats");
	}
	printf("coalescing: n = %zu floats per copy, blocks of %d threads; GB/s = bytes used / time / 1e9\n",
	       n, THREADS);
	if (!o->check)
		printf("copy ceiling: %.1f GB/s (copy4, 16-byte loads and stores, n floats in and n out)\n", ceiling);

	if (offsets(n, o, ceiling, rows, &failed) || strides(n, o, ceiling, rows, out, &failed) ||
	    layouts(n / 4, o, ceiling, rows, &failed))
		return -1;
	return failed ? apod_fail("coalescing: a version's output differs from the CPU reference") : 0;
}
