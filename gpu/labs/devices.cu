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

#include "gpu/copy4.cuh"
#include "gpu/gpu_info.h"
#include "kit.cuh"

/* The guide's theoretical bandwidth of device dev, in GB/s: memory clock x 2 x bus bytes. */
static int theoretical_gbs(int dev, double *gbs)
{
	int mem_khz = 0, bus = 0;
	APOD_CUDA_TRY(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, dev));
	APOD_CUDA_TRY(cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, dev));
	*gbs = 2.0 * mem_khz * 1e3 * (bus / 8) / 1e9;
	return 0;
}

/* Every device, in the JSON's "devices" table and in apod_gpu_print_info's words. */
static int list_devices(json_object *out)
{
	json_object *devs = lab_array(out, "devices");
	int count = 0;
	cudaDeviceProp p;
	double theory;

	APOD_CUDA_TRY(cudaGetDeviceCount(&count));
	printf("%d CUDA device(s)\n", count);
	for (int i = 0; i < count; i++) {
		json_object *d = lab_row(devs);
		APOD_CUDA_TRY(cudaGetDeviceProperties(&p, i));
		if (theoretical_gbs(i, &theory))
			return -1;
		lab_put(d, "name", p.name);
		lab_put(d, "compute_capability", p.major + p.minor / 10.0);
		lab_put(d, "sms", p.multiProcessorCount);
		lab_put(d, "memory_bytes", p.totalGlobalMem);
		lab_put(d, "theoretical_gb_per_s", theory);
	}
	apod_gpu_print_info(stdout);
	return 0;
}

/*
 * Copy d_in to d_out with the copy kernel and with cudaMemcpy, each onto a
 * zeroed d_out, and compare each result with the input on the host.
 */
static int verify_copies(const dev_array<float4> &d_in, const dev_array<float4> &d_out, int sms,
                         int *ok, int *ok_memcpy)
{
	size_t n4 = d_in.n, nbytes = d_in.bytes();
	host_array<float4> h, back;

	if (h.alloc(n4) || back.alloc(n4))
		return -1;
	for (size_t k = 0; k < n4; k++)
		h.p[k] = make_float4((float)k, (float)(k ^ 0x5a5a), -(float)k, 0.5f * (float)k);
	APOD_CUDA_TRY(cudaMemcpy(d_in.p, h.p, nbytes, cudaMemcpyHostToDevice));
	APOD_CUDA_TRY(cudaMemset(d_out.p, 0, nbytes));
	APOD_LAUNCH_TRY((copy4_kernel<<<4 * sms, 512>>>(d_in.p, d_out.p, n4)));
	APOD_CUDA_TRY(cudaMemcpy(back.p, d_out.p, nbytes, cudaMemcpyDeviceToHost));
	*ok = memcmp(h.p, back.p, nbytes) == 0;
	APOD_CUDA_TRY(cudaMemset(d_out.p, 0, nbytes));
	APOD_CUDA_TRY(cudaMemcpy(d_out.p, d_in.p, nbytes, cudaMemcpyDeviceToDevice));
	APOD_CUDA_TRY(cudaMemcpy(back.p, d_out.p, nbytes, cudaMemcpyDeviceToHost));
	*ok_memcpy = memcmp(h.p, back.p, nbytes) == 0;
	return 0;
}

/* The same two copies timed: the kernel's median and cudaMemcpy's, in ms. */
static int time_copies(const struct apod_lab_opts *o, const dev_array<float4> &d_in,
                       const dev_array<float4> &d_out, int sms, double *ms_kernel, double *ms_memcpy)
{
	size_t n4 = d_in.n, nbytes = d_in.bytes();
	if (time_it(o->reps, [&] { copy4_kernel<<<4 * sms, 512>>>(d_in.p, d_out.p, n4);
	                           return cudaGetLastError() != cudaSuccess; }, ms_kernel) ||
	    time_it(o->reps, [&] { return cudaMemcpyAsync(d_out.p, d_in.p, nbytes,
	                                                  cudaMemcpyDeviceToDevice) != cudaSuccess; },
	            ms_memcpy))
		return -1;
	return 0;
}

extern "C" int apod_lab_devices(const struct apod_lab_opts *o, json_object *out)
{
	size_t bytes = lab_size(o, (size_t)512 << 20, 4u << 20);
	size_t n4 = bytes / 16, nbytes = n4 * 16;
	int dev = 0, sms = 0, ok = 0, ok_memcpy = 0;
	double ms_kernel = 0, ms_memcpy = 0, theory;
	dev_array<float4> d_in, d_out;
	struct lab_table t;
	cudaDeviceProp p;

	if (nbytes == 0)
		return apod_usage_fail("devices: --size %zu is below one 16-byte word", bytes);
	if (list_devices(out))
		return -1;

	/* The measured side, on the current device. */
	APOD_CUDA_TRY(cudaGetDevice(&dev));
	APOD_CUDA_TRY(cudaGetDeviceProperties(&p, dev));
	APOD_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
	if (theoretical_gbs(dev, &theory) || d_in.alloc(n4) || d_out.alloc(n4))
		return -1;
	/* Verified first: each copy must reproduce its input exactly. */
	if (verify_copies(d_in, d_out, sms, &ok, &ok_memcpy))
		return -1;
	if (!o->check && ok && ok_memcpy && time_copies(o, d_in, d_out, sms, &ms_kernel, &ms_memcpy))
		return -1;

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
