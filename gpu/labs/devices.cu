/*
 * devices.cu: lab 1, the course's first exercise.  How many CUDA devices,
 * what each one is, and how its memory bandwidth on paper compares with a
 * copy measured on it.
 *
 * Theoretical bandwidth is computed as the guide does: memory clock x 2
 * (double data rate) x bus width in bytes.  Effective bandwidth counts the
 * bytes a copy must move, read n + write n, over its measured time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "copy4.cuh"
#include "cuda_check.h"
#include "gpu_info.h"
#include "lab.h"
#include "report.cuh"
#include "timing.cuh"

extern "C" int apod_lab_devices(const struct apod_lab_opts *o, json_object *out)
{
	size_t bytes = o->check ? (4u << 20) : (o->size ? o->size : (size_t)512 << 20);
	size_t n4 = bytes / 16, nbytes = n4 * 16;
	int count = 0, dev = 0, sms = 0, mem_khz = 0, bus = 0, ok, ok_memcpy;
	float4 *h = NULL, *back = NULL, *d_in = NULL, *d_out = NULL;
	double ms_kernel = 0, ms_memcpy = 0, theory;
	struct lab_table t;
	cudaDeviceProp p;
	json_object *devs = json_object_new_array();

	if (nbytes == 0) {
		json_object_put(devs);
		return apod_usage_fail("devices: --size %zu is below one 16-byte word", bytes);
	}
	json_object_object_add(out, "devices", devs);
	CUDA_TRY(cudaGetDeviceCount(&count));
	printf("%d CUDA device(s)\n", count);
	for (int i = 0; i < count; i++) {
		json_object *d = json_object_new_object();
		CUDA_TRY(cudaGetDeviceProperties(&p, i));
		CUDA_TRY(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, i));
		CUDA_TRY(cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, i));
		theory = 2.0 * mem_khz * 1e3 * (bus / 8) / 1e9;
		json_object_object_add(d, "name", json_object_new_string(p.name));
		json_object_object_add(d, "compute_capability", json_object_new_double(p.major + p.minor / 10.0));
		json_object_object_add(d, "sms", json_object_new_int(p.multiProcessorCount));
		json_object_object_add(d, "memory_bytes", json_object_new_int64((int64_t)p.totalGlobalMem));
		json_object_object_add(d, "theoretical_gb_per_s", json_object_new_double(theory));
		json_object_array_add(devs, d);
	}
	apod_gpu_print_info(stdout);

	/* The measured side, on the current device. */
	CUDA_TRY(cudaGetDevice(&dev));
	CUDA_TRY(cudaGetDeviceProperties(&p, dev));
	CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
	CUDA_TRY(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, dev));
	CUDA_TRY(cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, dev));
	theory = 2.0 * mem_khz * 1e3 * (bus / 8) / 1e9;
	if (!(h = (float4 *)malloc(nbytes)) || !(back = (float4 *)malloc(nbytes))) {
		free(h);
		return apod_fail("devices: cannot allocate %zu bytes of host memory", 2 * nbytes);
	}
	for (size_t k = 0; k < n4; k++)
		h[k] = make_float4((float)k, (float)(k ^ 0x5a5a), -(float)k, 0.5f * (float)k);
	CUDA_TRY(cudaMalloc(&d_in, nbytes));
	CUDA_TRY(cudaMalloc(&d_out, nbytes));
	CUDA_TRY(cudaMemcpy(d_in, h, nbytes, cudaMemcpyHostToDevice));

	/* Verified first: each copy must reproduce its input exactly. */
	CUDA_TRY(cudaMemset(d_out, 0, nbytes));
	LAUNCH_TRY((copy4_kernel<<<4 * sms, 512>>>(d_in, d_out, n4)));
	CUDA_TRY(cudaMemcpy(back, d_out, nbytes, cudaMemcpyDeviceToHost));
	ok = memcmp(h, back, nbytes) == 0;
	CUDA_TRY(cudaMemset(d_out, 0, nbytes));
	CUDA_TRY(cudaMemcpy(d_out, d_in, nbytes, cudaMemcpyDeviceToDevice));
	CUDA_TRY(cudaMemcpy(back, d_out, nbytes, cudaMemcpyDeviceToHost));
	ok_memcpy = memcmp(h, back, nbytes) == 0;
	free(h);
	free(back);
	if (!o->check && ok && ok_memcpy) {
		if (time_it(o->reps, [&] { copy4_kernel<<<4 * sms, 512>>>(d_in, d_out, n4);
		                           return cudaGetLastError() != cudaSuccess; }, &ms_kernel) ||
		    time_it(o->reps, [&] { return cudaMemcpyAsync(d_out, d_in, nbytes,
		                                                  cudaMemcpyDeviceToDevice) != cudaSuccess; },
		            &ms_memcpy))
			return -1;
	}
	cudaFree(d_in);
	cudaFree(d_out);

	printf("\n%s: theoretical %.0f GB/s; copies of %zu MiB (read n + write n bytes counted):\n",
	       p.name, theory, nbytes >> 20);
	lab_table_begin(&t, out, "GB/s", theory, "theoretical bandwidth from the device attributes",
	                !o->check);
	lab_table_row(&t, "copy kernel, 16-byte accesses", ok, ms_kernel,
	              o->check ? 0 : 2.0 * nbytes / (ms_kernel * 1e-3) / 1e9, NULL);
	lab_table_row(&t, "cudaMemcpy device to device", ok_memcpy, ms_memcpy,
	              o->check ? 0 : 2.0 * nbytes / (ms_memcpy * 1e-3) / 1e9, NULL);
	return ok && ok_memcpy ? 0 : apod_fail("devices: a copy did not reproduce its input");
}
