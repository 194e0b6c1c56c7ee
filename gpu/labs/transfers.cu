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

#include "copy4.cuh"
#include "cuda_check.h"
#include "lab.h"
#include "report.cuh"
#include "timing.cuh"

enum { PAGEABLE, PINNED, REGISTERED, KINDS };
static const char *const kind_name[KINDS] = { "pageable", "pinned", "registered" };

struct host_buf {
	unsigned char *p;
	int kind;
};

static int host_alloc(struct host_buf *h, int kind, size_t bytes)
{
	h->kind = kind;
	h->p = NULL;
	if (kind == PINNED) {
		CUDA_TRY(cudaMallocHost(&h->p, bytes));
		return 0;
	}
	if (!(h->p = (unsigned char *)malloc(bytes)))
		return apod_fail("transfers: cannot allocate %zu bytes of host memory", bytes);
	memset(h->p, 0, bytes);   /* touch every page: no first-touch faults in the timings */
	if (kind == REGISTERED)
		CUDA_TRY(cudaHostRegister(h->p, bytes, cudaHostRegisterDefault));
	return 0;
}

static void host_free(struct host_buf *h)
{
	if (!h->p)
		return;
	if (h->kind == PINNED)
		cudaFreeHost(h->p);
	else {
		if (h->kind == REGISTERED)
			cudaHostUnregister(h->p);
		free(h->p);
	}
	h->p = NULL;
}

static void fill(unsigned char *p, size_t bytes, unsigned seed)
{
	for (size_t i = 0; i < bytes; i++)
		p[i] = (unsigned char)((i * 2654435761u + seed) >> 13);
}

extern "C" int apod_lab_transfers(const struct apod_lab_opts *o, json_object *out)
{
	size_t max = o->check ? (1u << 20) : (o->size ? o->size : (size_t)1 << 30);
	size_t sizes[16];
	int nsizes = 0, failed = 0, sms = 0, dev = 0;
	struct host_buf src = { 0 }, back = { 0 }, h[KINDS] = { { 0 } };
	unsigned char *d = NULL;
	json_object *rows = json_object_new_array();
	int reps = o->reps;

	if (max < 4096)
		return apod_usage_fail("transfers: --size %zu is below 4 KiB", max);
	for (size_t s = 4096; s <= max && nsizes < 16; s *= 4)
		sizes[nsizes++] = s;
	max = sizes[nsizes - 1];
	json_object_object_add(out, "rows", rows);
	json_object_object_add(out, "unit", json_object_new_string("GB/s"));
	CUDA_TRY(cudaGetDevice(&dev));
	CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
	CUDA_TRY(cudaMalloc(&d, max));
	if (host_alloc(&src, PAGEABLE, max) || host_alloc(&back, PAGEABLE, max))
		return -1;
	fill(src.p, max, 7);
	for (int k = 0; k < KINDS; k++)
		if (host_alloc(&h[k], k, max))
			return -1;

	/* 1. Round trips, verified, then timed per size and direction. */
	{
		int ok[KINDS];
		for (int k = 0; k < KINDS; k++) {
			memcpy(h[k].p, src.p, max);
			CUDA_TRY(cudaMemset(d, 0, max));
			CUDA_TRY(cudaMemcpy(d, h[k].p, max, cudaMemcpyHostToDevice));
			memset(h[k].p, 0, max);
			CUDA_TRY(cudaMemcpy(h[k].p, d, max, cudaMemcpyDeviceToHost));
			ok[k] = memcmp(h[k].p, src.p, max) == 0;
			failed |= !ok[k];
		}
		printf("host <-> device copies (cudaMemcpy), GB/s, median of %d; every kind's round trip "
		       "of %zu bytes checked: %s\n", reps, max, failed ? "FAILED" : "ok");
		printf("  %10s", "bytes");
		for (int k = 0; k < KINDS; k++)
			printf(" %11s H2D %11s D2H", kind_name[k], kind_name[k]);
		printf("\n");
		for (int i = 0; i < nsizes && !o->check; i++) {
			printf("  %10zu", sizes[i]);
			for (int k = 0; k < KINDS; k++)
				for (int dir = 0; dir < 2; dir++) {
					double ms = 0;
					json_object *r = json_object_new_object();
					if (!ok[k]) {
						printf(" %15s", "-");
						continue;
					}
					if (time_it(reps, [&] {
						    return (dir == 0 ? cudaMemcpy(d, h[k].p, sizes[i], cudaMemcpyHostToDevice)
						                     : cudaMemcpy(h[k].p, d, sizes[i], cudaMemcpyDeviceToHost))
						           != cudaSuccess; }, &ms))
						return -1;
					printf(" %15.2f", sizes[i] / (ms * 1e-3) / 1e9);
					json_object_object_add(r, "memory", json_object_new_string(kind_name[k]));
					json_object_object_add(r, "direction", json_object_new_string(dir ? "D2H" : "H2D"));
					json_object_object_add(r, "bytes", json_object_new_int64((int64_t)sizes[i]));
					json_object_object_add(r, "ms", json_object_new_double(ms));
					json_object_object_add(r, "GB/s", json_object_new_double(sizes[i] / (ms * 1e-3) / 1e9));
					json_object_array_add(rows, r);
				}
			printf("\n");
		}
	}

	/* 2. Many small copies against one batched copy (pinned, host to device). */
	{
		size_t piece = 4096, count = 1024, total = piece * count;
		double ms_many = 0, ms_one = 0;
		struct lab_table t;
		int ok_many, ok_one;
		json_object *batch = json_object_new_object();
		if (total > max)
			count = max / piece, total = piece * count;
		CUDA_TRY(cudaMemset(d, 0, total));
		for (size_t i = 0; i < count; i++)
			CUDA_TRY(cudaMemcpy(d + i * piece, h[PINNED].p + i * piece, piece, cudaMemcpyHostToDevice));
		CUDA_TRY(cudaMemcpy(back.p, d, total, cudaMemcpyDeviceToHost));
		ok_many = memcmp(back.p, h[PINNED].p, total) == 0;
		CUDA_TRY(cudaMemset(d, 0, total));
		CUDA_TRY(cudaMemcpy(d, h[PINNED].p, total, cudaMemcpyHostToDevice));
		CUDA_TRY(cudaMemcpy(back.p, d, total, cudaMemcpyDeviceToHost));
		ok_one = memcmp(back.p, h[PINNED].p, total) == 0;
		failed |= !ok_many || !ok_one;
		if (!o->check && ok_many && ok_one &&
		    (time_it(reps, [&] {
			     for (size_t i = 0; i < count; i++)
				     if (cudaMemcpyAsync(d + i * piece, h[PINNED].p + i * piece, piece,
				                         cudaMemcpyHostToDevice) != cudaSuccess)
					     return true;
			     return false; }, &ms_many) ||
		     time_it(reps, [&] { return cudaMemcpyAsync(d, h[PINNED].p, total,
		                                                cudaMemcpyHostToDevice) != cudaSuccess; }, &ms_one)))
			return -1;
		printf("\n%zu copies of %zu bytes against one copy of %zu bytes (pinned, host to device):\n",
		       count, piece, total);
		json_object_object_add(out, "batching", batch);
		lab_table_begin(&t, batch, "GB/s", 0, NULL, !o->check);
		lab_table_row(&t, "many small copies", ok_many, ms_many,
		              ms_many > 0 ? total / (ms_many * 1e-3) / 1e9 : 0, NULL);
		lab_table_row(&t, "one batched copy", ok_one, ms_one, ms_one > 0 ? total / (ms_one * 1e-3) / 1e9 : 0,
		              NULL);
	}

	/* 3. Zero-copy: read mapped host memory once from a kernel. */
	{
		size_t bytes = max < ((size_t)256 << 20) ? max : ((size_t)256 << 20), n4 = bytes / 16;
		unsigned char *mapped = NULL, *dmapped = NULL;
		double ms_zero = 0, ms_copy = 0;
		int ok_zero, ok_copy;
		struct lab_table t;
		json_object *zc = json_object_new_object();
		CUDA_TRY(cudaHostAlloc(&mapped, bytes, cudaHostAllocMapped));
		CUDA_TRY(cudaHostGetDevicePointer(&dmapped, mapped, 0));
		fill(mapped, bytes, 11);
		unsigned char *d2 = NULL;
		CUDA_TRY(cudaMalloc(&d2, bytes));
		CUDA_TRY(cudaMemset(d, 0, bytes));
		LAUNCH_TRY((copy4_kernel<<<4 * sms, 256>>>((const float4 *)dmapped, (float4 *)d, n4)));
		CUDA_TRY(cudaMemcpy(back.p, d, bytes, cudaMemcpyDeviceToHost));
		ok_zero = memcmp(back.p, mapped, n4 * 16) == 0;
		CUDA_TRY(cudaMemset(d, 0, bytes));
		CUDA_TRY(cudaMemcpy(d2, mapped, bytes, cudaMemcpyHostToDevice));
		LAUNCH_TRY((copy4_kernel<<<4 * sms, 256>>>((const float4 *)d2, (float4 *)d, n4)));
		CUDA_TRY(cudaMemcpy(back.p, d, bytes, cudaMemcpyDeviceToHost));
		ok_copy = memcmp(back.p, mapped, n4 * 16) == 0;
		failed |= !ok_zero || !ok_copy;
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
		json_object_object_add(out, "zero_copy", zc);
		lab_table_begin(&t, zc, "GB/s", 0, NULL, !o->check);
		lab_table_row(&t, "zero-copy: kernel reads mapped memory", ok_zero, ms_zero,
		              ms_zero > 0 ? bytes / (ms_zero * 1e-3) / 1e9 : 0, NULL);
		lab_table_row(&t, "copy to device, then the kernel", ok_copy, ms_copy,
		              ms_copy > 0 ? bytes / (ms_copy * 1e-3) / 1e9 : 0, NULL);
		cudaFree(d2);
		cudaFreeHost(mapped);
	}

	for (int k = 0; k < KINDS; k++)
		host_free(&h[k]);
	host_free(&src);
	host_free(&back);
	cudaFree(d);
	return failed ? apod_fail("transfers: a copy did not return its bytes unchanged") : 0;
}
