/*
 * transfers.cu: lab 2, what a byte costs to cross between host and device.
 *
 *   - pageable (malloc), pinned (cudaMallocHost) and registered (malloc,
 *     then cudaHostRegister) host memory, both directions, 4 KiB to 1 GiB;
 *   - 1024 small copies of 4 KiB against one copy of 4 MiB;
 *   - zero-copy: a kernel reading mapped pinned memory once, against a copy
 *     to the device followed by the same kernel reading device memory.
 * Checked before timed: every kind of memory makes a round trip (host to
 * device to host) that must return its bytes unchanged, and the kernels'
 * output must equal their input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/copy4.cuh"
#include "kit.cuh"

enum { PAGEABLE, PINNED, REGISTERED, KINDS };
static const char *const kind_name[KINDS] = { "pageable", "pinned", "registered" };

/* A cudaHostRegister of memory held elsewhere, undone when it goes out of scope. */
struct host_registration {
	void *p = nullptr;

	host_registration() = default;
	host_registration(const host_registration &) = delete;
	host_registration &operator=(const host_registration &) = delete;
	~host_registration()
	{
		if (p)
			cudaHostUnregister(p);
	}
};

/* One kind of host memory: malloc'd (and registered, for REGISTERED) or cudaMallocHost'd. */
struct host_buf {
	host_array<unsigned char> mem;   /* declared first: freed after the registration is undone */
	host_registration reg;
};

static int host_alloc(struct host_buf *h, int kind, size_t bytes)
{
	if (kind == PINNED)
		return h->mem.alloc_pinned(bytes);
	if (h->mem.alloc(bytes))
		return -1;
	memset(h->mem.p, 0, bytes);   /* touch every page: no first-touch faults in the timings */
	if (kind == REGISTERED) {
		APOD_CUDA_TRY(cudaHostRegister(h->mem.p, bytes, cudaHostRegisterDefault));
		h->reg.p = h->mem.p;
	}
	return 0;
}

/* Mapped pinned memory (cudaHostAlloc), held by a host_array: cudaFreeHost gives it back too. */
static int alloc_mapped(host_array<unsigned char> *m, size_t bytes)
{
	unsigned char *p = NULL;
	m->reset();
	APOD_CUDA_TRY(cudaHostAlloc(&p, bytes, cudaHostAllocMapped));
	m->p = p, m->n = bytes, m->pinned = true;
	return 0;
}

static void fill(unsigned char *p, size_t bytes, unsigned seed)
{
	for (size_t i = 0; i < bytes; i++)
		p[i] = (unsigned char)((i * 2654435761u + seed) >> 13);
}

/* What every part uses: one device buffer and the host buffers, max bytes each. */
struct bufs {
	size_t max;
	int sms;
	dev_array<unsigned char> d;
	struct host_buf src, back, h[KINDS];   /* src: the bytes every copy must return */
};

static int alloc_bufs(struct bufs *b, size_t max)
{
	int dev = 0;
	b->max = max;
	APOD_CUDA_TRY(cudaGetDevice(&dev));
	APOD_CUDA_TRY(cudaDeviceGetAttribute(&b->sms, cudaDevAttrMultiProcessorCount, dev));
	if (b->d.alloc(max) || host_alloc(&b->src, PAGEABLE, max) || host_alloc(&b->back, PAGEABLE, max))
		return -1;
	fill(b->src.mem.p, max, 7);
	for (int k = 0; k < KINDS; k++)
		if (host_alloc(&b->h[k], k, max))
			return -1;
	return 0;
}

/* Every kind's round trip of max bytes, host to device to host, must return src unchanged. */
static int verify_round_trips(struct bufs *b, int ok[KINDS], int *failed)
{
	unsigned char *d = b->d.p, *src = b->src.mem.p;
	size_t max = b->max;
	for (int k = 0; k < KINDS; k++) {
		unsigned char *hk = b->h[k].mem.p;
		memcpy(hk, src, max);
		APOD_CUDA_TRY(cudaMemset(d, 0, max));
		APOD_CUDA_TRY(cudaMemcpy(d, hk, max, cudaMemcpyHostToDevice));
		memset(hk, 0, max);
		APOD_CUDA_TRY(cudaMemcpy(hk, d, max, cudaMemcpyDeviceToHost));
		ok[k] = memcmp(hk, src, max) == 0;
		*failed |= !ok[k];
	}
	return 0;
}

/* 1. Round trips, verified, then timed per size and direction: the lab's "rows". */
static int round_trips(const struct apod_lab_opts *o, struct bufs *b, const size_t *sizes, int nsizes,
                       json_object *rows, int *failed)
{
	unsigned char *d = b->d.p;
	int ok[KINDS], reps = o->reps;

	if (verify_round_trips(b, ok, failed))
		return -1;
	printf("host <-> device copies (cudaMemcpy), GB/s, median of %d; every kind's round trip "
	       "of %zu bytes checked: %s\n", reps, b->max, *failed ? "FAILED" : "ok");
	printf("  %10s", "bytes");
	for (int k = 0; k < KINDS; k++)
		printf(" %11s H2D %11s D2H", kind_name[k], kind_name[k]);
	printf("\n");
	for (int i = 0; i < nsizes && !o->check; i++) {
		printf("  %10zu", sizes[i]);
		for (int k = 0; k < KINDS; k++)
			for (int dir = 0; dir < 2; dir++) {
				unsigned char *hk = b->h[k].mem.p;
				double ms = 0;
				json_object *r;
				if (!ok[k]) {
					printf(" %15s", "-");
					continue;
				}
				if (time_it(reps, [&] {
					    return (dir == 0 ? cudaMemcpy(d, hk, sizes[i], cudaMemcpyHostToDevice)
					                     : cudaMemcpy(hk, d, sizes[i], cudaMemcpyDeviceToHost))
					           != cudaSuccess; }, &ms))
					return -1;
				printf(" %15.2f", sizes[i] / (ms * 1e-3) / 1e9);
				r = lab_row(rows);
				lab_put(r, "memory", kind_name[k]);
				lab_put(r, "direction", dir ? "D2H" : "H2D");
				lab_put(r, "bytes", sizes[i]);
				lab_put(r, "ms", ms);
				lab_put(r, "GB/s", sizes[i] / (ms * 1e-3) / 1e9);
			}
		printf("\n");
	}
	return 0;
}

/* 2. Many small copies against one batched copy (pinned, host to device). */
static int batching(const struct apod_lab_opts *o, struct bufs *b, json_object *out, int *failed)
{
	size_t piece = 4096, count = 1024, total = piece * count;
	unsigned char *d = b->d.p, *pinned = b->h[PINNED].mem.p, *back = b->back.mem.p;
	double ms_many = 0, ms_one = 0;
	struct lab_table t;
	int ok_many, ok_one, reps = o->reps;
	json_object *batch;

	if (total > b->max)
		count = b->max / piece, total = piece * count;
	APOD_CUDA_TRY(cudaMemset(d, 0, total));
	for (size_t i = 0; i < count; i++)
		APOD_CUDA_TRY(cudaMemcpy(d + i * piece, pinned + i * piece, piece, cudaMemcpyHostToDevice));
	APOD_CUDA_TRY(cudaMemcpy(back, d, total, cudaMemcpyDeviceToHost));
	ok_many = memcmp(back, pinned, total) == 0;
	APOD_CUDA_TRY(cudaMemset(d, 0, total));
	APOD_CUDA_TRY(cudaMemcpy(d, pinned, total, cudaMemcpyHostToDevice));
	APOD_CUDA_TRY(cudaMemcpy(back, d, total, cudaMemcpyDeviceToHost));
	ok_one = memcmp(back, pinned, total) == 0;
	*failed |= !ok_many || !ok_one;
	if (!o->check && ok_many && ok_one &&
	    (time_it(reps, [&] {
		     for (size_t i = 0; i < count; i++)
			     if (cudaMemcpyAsync(d + i * piece, pinned + i * piece, piece,
			                         cudaMemcpyHostToDevice) != cudaSuccess)
				     return true;
		     return false; }, &ms_many) ||
	     time_it(reps, [&] { return cudaMemcpyAsync(d, pinned, total,
	                                                cudaMemcpyHostToDevice) != cudaSuccess; }, &ms_one)))
		return -1;
	printf("\n%zu copies of %zu bytes against one copy of %zu bytes (pinned, host to device):\n",
	       count, piece, total);
	batch = json_object_new_object();
	lab_put(out, "batching", batch);
	lab_table_begin(&t, batch, "GB/s", 0, NULL, !o->check);
	lab_table_row(&t, "many small copies", ok_many, ms_many,
	              ms_many > 0 ? total / (ms_many * 1e-3) / 1e9 : 0, NULL);
	lab_table_row(&t, "one batched copy", ok_one, ms_one, ms_one > 0 ? total / (ms_one * 1e-3) / 1e9 : 0,
	              NULL);
	return 0;
}

/* 3. Zero-copy: read mapped host memory once from a kernel. */
static int zero_copy(const struct apod_lab_opts *o, struct bufs *b, json_object *out, int *failed)
{
	size_t bytes = b->max < ((size_t)256 << 20) ? b->max : ((size_t)256 << 20), n4 = bytes / 16;
	unsigned char *d = b->d.p, *back = b->back.mem.p, *mapped, *dmapped = NULL, *d2;
	host_array<unsigned char> mapped_mem;
	dev_array<unsigned char> d2_mem;
	double ms_zero = 0, ms_copy = 0;
	int ok_zero, ok_copy, sms = b->sms, reps = o->reps;
	struct lab_table t;
	json_object *zc;

	if (alloc_mapped(&mapped_mem, bytes))
		return -1;
	mapped = mapped_mem.p;
	APOD_CUDA_TRY(cudaHostGetDevicePointer(&dmapped, mapped, 0));
	fill(mapped, bytes, 11);
	if (d2_mem.alloc(bytes))
		return -1;
	d2 = d2_mem.p;
	APOD_CUDA_TRY(cudaMemset(d, 0, bytes));
	APOD_LAUNCH_TRY((copy4_kernel<<<4 * sms, 256>>>((const float4 *)dmapped, (float4 *)d, n4)));
	APOD_CUDA_TRY(cudaMemcpy(back, d, bytes, cudaMemcpyDeviceToHost));
	ok_zero = memcmp(back, mapped, n4 * 16) == 0;
	APOD_CUDA_TRY(cudaMemset(d, 0, bytes));
	APOD_CUDA_TRY(cudaMemcpy(d2, mapped, bytes, cudaMemcpyHostToDevice));
	APOD_LAUNCH_TRY((copy4_kernel<<<4 * sms, 256>>>((const float4 *)d2, (float4 *)d, n4)));
	APOD_CUDA_TRY(cudaMemcpy(back, d, bytes, cudaMemcpyDeviceToHost));
	ok_copy = memcmp(back, mapped, n4 * 16) == 0;
	*failed |= !ok_zero || !ok_copy;
	if (!o->check && ok_zero && ok_copy &&
	    (time_it(reps, [&] {
		     copy4_kernel<<<4 * sms, 256>>>((const float4 *)dmapped, (float4 *)d, n4);
		     return cudaGetLastError() != cudaSuccess; }, &ms_zero) ||
	     time_it(reps, [&] {
		     if (cudaMemcpyAsync(d2, mapped, bytes, cudaMemcpyHostToDevice) != cudaSuccess)
			     return true;
		     copy4_kernel<<<4 * sms, 256>>>((const float4 *)d2, (float4 *)d, n4);
		     return cudaGetLastError() != cudaSuccess; }, &ms_copy)))
		return -1;
	printf("\nreading %zu bytes of host memory once from a kernel:\n", bytes);
	zc = json_object_new_object();
	lab_put(out, "zero_copy", zc);
	lab_table_begin(&t, zc, "GB/s", 0, NULL, !o->check);
	lab_table_row(&t, "zero-copy: kernel reads mapped memory", ok_zero, ms_zero,
	              ms_zero > 0 ? bytes / (ms_zero * 1e-3) / 1e9 : 0, NULL);
	lab_table_row(&t, "copy to device, then the kernel", ok_copy, ms_copy,
	              ms_copy > 0 ? bytes / (ms_copy * 1e-3) / 1e9 : 0, NULL);
	return 0;
}

extern "C" int apod_lab_transfers(const struct apod_lab_opts *o, json_object *out)
{
	size_t max = lab_size(o, (size_t)1 << 30, 1u << 20);
	size_t sizes[16];
	int nsizes = 0, failed = 0;
	struct bufs b;
	json_object *rows;

	if (max < 4096)
		return apod_usage_fail("transfers: --size %zu is below 4 KiB", max);
	for (size_t s = 4096; s <= max && nsizes < 16; s *= 4)
		sizes[nsizes++] = s;
	max = sizes[nsizes - 1];
	rows = lab_array(out, "rows");
	lab_put(out, "unit", "GB/s");
	if (alloc_bufs(&b, max) || round_trips(o, &b, sizes, nsizes, rows, &failed) ||
	    batching(o, &b, out, &failed) || zero_copy(o, &b, out, &failed))
		return -1;
	return failed ? apod_fail("transfers: a copy did not return its bytes unchanged") : 0;
}
