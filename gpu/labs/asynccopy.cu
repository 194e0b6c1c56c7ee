/*
 * asynccopy.cu: lab 12b, the guide's asynchronous copy from global to
 * shared memory (seed-000 §9.2.3.4), against the synchronous copy it
 * replaces.
 *
 * Each block of 128 threads copies copy_count x 128 elements of type T
 * from global memory into shared memory, waits for the whole tile, then
 * computes on it: every thread sums the tile's column to its right (so
 * each warp needs words that another warp copied), and each warp writes
 * the sum of its 32 columns.  Two versions, in the guide's order:
 *   1. synchronous: global -> register -> shared, then __syncthreads;
 *   2. asynchronous: __pipeline_memcpy_async (cp.async, compute
 *      capability 8.0 and newer) straight from global to shared, one
 *      commit, wait for it, then __syncthreads;
 * for 4-, 8- and 16-byte elements (unsigned, uint2, uint4: the guide's
 * int, int2, int4 without signed overflow) and copy_count = 1..16, which
 * the kernels take at run time as the guide's do, so the compiler cannot
 * unroll the copy loop completely.
 *
 * Checked before timed: every warp's sums must equal, bit for bit, the
 * host's sums of the same words (unsigned addition wraps, so the order
 * does not matter and the result is exact).  Every input word is odd,
 * hence non-zero, so a word not copied, copied twice or read before it
 * arrived changes the sum.  The last block of a run is partial: words
 * past the end count as zero on both sides.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_pipeline.h>

#include "gpu/copy4.cuh"
#include "kit.cuh"

#define THREADS 128
#define WARPS (THREADS / 32)
#define MAX_COPY 16

/* Component-wise sums and shuffles for the three element types. */
static __host__ __device__ inline unsigned add(unsigned a, unsigned b) { return a + b; }
static __host__ __device__ inline uint2 add(uint2 a, uint2 b) { return make_uint2(a.x + b.x, a.y + b.y); }
static __host__ __device__ inline uint4 add(uint4 a, uint4 b)
{
	return make_uint4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}

static __device__ inline unsigned shfl_down(unsigned v, int off) { return __shfl_down_sync(0xffffffffu, v, off); }
static __device__ inline uint2 shfl_down(uint2 v, int off)
{
	return make_uint2(shfl_down(v.x, off), shfl_down(v.y, off));
}
static __device__ inline uint4 shfl_down(uint4 v, int off)
{
	return make_uint4(shfl_down(v.x, off), shfl_down(v.y, off), shfl_down(v.z, off), shfl_down(v.w, off));
}

/* One element from global to shared: through a register, or not. */
template <typename T, bool ASYNC> static __device__ __forceinline__ void copy_one(T *dst, const T *src)
{
#if __CUDA_ARCH__ >= 800
	if constexpr (ASYNC) {
		__pipeline_memcpy_async(dst, src, sizeof(T));
		return;
	}
#endif
	/* Synchronous, and the fallback on older devices (never launched
	 * there: the host checks the compute capability first). */
	*dst = *src;
}

template <typename T, bool ASYNC>
static __global__ void copy_compute(const T *__restrict__ in, size_t n, T *__restrict__ out, int copy_count)
{
	extern __shared__ __align__(16) unsigned char smem[];
	T *tile = reinterpret_cast<T *>(smem);
	size_t base = (size_t)blockIdx.x * blockDim.x * copy_count;
	unsigned right = (threadIdx.x + 1) % blockDim.x;
	T sum = T();

	/* Only the last block can run past the end; the others copy as the
	 * guide's kernels do, without a bound in the loop. */
	if (base + (size_t)blockDim.x * copy_count <= n)
		for (int i = 0; i < copy_count; i++)
			copy_one<T, ASYNC>(&tile[i * blockDim.x + threadIdx.x], &in[base + i * blockDim.x + threadIdx.x]);
	else
		for (int i = 0; i < copy_count; i++) {
			size_t g = base + i * blockDim.x + threadIdx.x;
			if (g < n)
				copy_one<T, ASYNC>(&tile[i * blockDim.x + threadIdx.x], &in[g]);
			else
				tile[i * blockDim.x + threadIdx.x] = T();
		}
#if __CUDA_ARCH__ >= 800
	if constexpr (ASYNC) {
		/* One batch: wait until this thread's copies have landed... */
		__pipeline_commit();
		__pipeline_wait_prior(0);
	}
#endif
	/* ...and until every other thread's have too. */
	__syncthreads();

	for (int i = 0; i < copy_count; i++)
		sum = add(sum, tile[i * blockDim.x + right]);
	for (int off = 16; off > 0; off >>= 1)
		sum = add(sum, shfl_down(sum, off));
	if ((threadIdx.x & 31) == 0)
		out[(size_t)blockIdx.x * WARPS + threadIdx.x / 32] = sum;
}

/* The host's sums, same layout: out[b * WARPS + w] for block b, warp w. */
template <typename T> static void reference(const T *in, size_t n, int copy_count, T *out, size_t blocks)
{
	size_t per_block = (size_t)THREADS * copy_count;
	for (size_t b = 0; b < blocks; b++) {
		int full = (b + 1) * per_block <= n;
		for (int w = 0; w < WARPS; w++) {
			T s = T();
			for (int i = 0; i < copy_count; i++) {
				size_t row = b * per_block + (size_t)i * THREADS;
				for (int t = 32 * w; t < 32 * w + 32; t++) {
					size_t g = row + ((t + 1) & (THREADS - 1));   /* the column to the right */
					if (full || g < n)
						s = add(s, in[g]);
				}
			}
			out[b * WARPS + w] = s;
		}
	}
}

struct bufs {
	host_array<unsigned char> h_in, h_out, h_ref;
	dev_array<unsigned char> d_in, d_out;
};

struct cell {
	int verified;
	double ms, gbs;
};

/* Both versions for one element type and one copy_count: check, then time. */
template <typename T>
static int run_pair(const struct apod_lab_opts *o, struct bufs *b, size_t bytes, int copy_count,
                    struct cell c[2])
{
	size_t n = bytes / sizeof(T), per_block = (size_t)THREADS * copy_count;
	size_t blocks = (n + per_block - 1) / per_block, out_bytes = blocks * WARPS * sizeof(T);
	size_t smem = per_block * sizeof(T);
	const T *in = reinterpret_cast<const T *>(b->d_in.p);
	T *out = reinterpret_cast<T *>(b->d_out.p);

	reference<T>(reinterpret_cast<const T *>(b->h_in.p), n, copy_count, reinterpret_cast<T *>(b->h_ref.p), blocks);
	for (int v = 0; v < 2; v++) {
		c[v].ms = c[v].gbs = 0;
		/* Zeros first, so that a version that writes nothing cannot pass
		 * on what the previous one left. */
		APOD_CUDA_TRY(cudaMemset(b->d_out.p, 0, out_bytes));
		if (v == 0)
			APOD_LAUNCH_TRY((copy_compute<T, false><<<(unsigned)blocks, THREADS, smem>>>(in, n, out, copy_count)));
		else
			APOD_LAUNCH_TRY((copy_compute<T, true><<<(unsigned)blocks, THREADS, smem>>>(in, n, out, copy_count)));
		APOD_CUDA_TRY(cudaMemcpy(b->h_out.p, b->d_out.p, out_bytes, cudaMemcpyDeviceToHost));
		c[v].verified = memcmp(b->h_out.p, b->h_ref.p, out_bytes) == 0;
		if (!c[v].verified || o->check)
			continue;
		if (time_it(o->reps, [&] {
			    if (v == 0)
				    copy_compute<T, false><<<(unsigned)blocks, THREADS, smem>>>(in, n, out, copy_count);
			    else
				    copy_compute<T, true><<<(unsigned)blocks, THREADS, smem>>>(in, n, out, copy_count);
			    return cudaGetLastError() != cudaSuccess; }, &c[v].ms))
			return -1;
		c[v].gbs = (n * sizeof(T) + out_bytes) / (c[v].ms * 1e-3) / 1e9;
	}
	return 0;
}

/* The most output any run writes: copy_count 1, whichever element size
 * rounds its last block up the most. */
static size_t most_out(size_t bytes)
{
	size_t most = 0;
	for (size_t e = 4; e <= 16; e *= 2) {
		size_t out = (bytes / e + THREADS - 1) / THREADS * WARPS * e;
		most = out > most ? out : most;
	}
	return most;
}

static const int esize[3] = { 4, 8, 16 };

/* Every cell: [element size][copy_count - 1][sync, async]. */
typedef struct cell cells_t[3][MAX_COPY][2];

/* The input (every word odd) on the host and the device, and room for the sums. */
static int prepare(struct bufs *b, size_t bytes)
{
	size_t max_out = most_out(bytes);
	if (b->h_in.alloc(bytes) || b->h_out.alloc(max_out) || b->h_ref.alloc(max_out))
		return -1;
	for (size_t k = 0; k < bytes / 4; k++)
		reinterpret_cast<unsigned *>(b->h_in.p)[k] = (unsigned)(k * 2654435761u + 0x632be5abu) | 1u;
	if (b->d_in.alloc(bytes) || b->d_out.alloc(max_out))
		return -1;
	APOD_CUDA_TRY(cudaMemcpy(b->d_in.p, b->h_in.p, bytes, cudaMemcpyHostToDevice));
	return 0;
}

/* Both versions for every element size and copy_count. */
static int run_all(const struct apod_lab_opts *o, struct bufs *b, size_t bytes, cells_t cells)
{
	for (int e = 0; e < 3; e++)
		for (int cc = 1; cc <= MAX_COPY; cc++) {
			int r = esize[e] == 4 ? run_pair<unsigned>(o, b, bytes, cc, cells[e][cc - 1])
			      : esize[e] == 8 ? run_pair<uint2>(o, b, bytes, cc, cells[e][cc - 1])
			                      : run_pair<uint4>(o, b, bytes, cc, cells[e][cc - 1]);
			if (r)
				return -1;
		}
	return 0;
}

/* One cell's two JSON rows. */
static void cell_rows(json_object *rows, const struct cell c[2], int e, int cc, double ceiling)
{
	for (int v = 0; v < 2; v++) {
		json_object *r = lab_row(rows);
		char name[64];
		snprintf(name, sizeof name, "%s, %d-byte elements, copy_count %d", v ? "async" : "sync",
		         esize[e], cc);
		lab_put(r, "version", name);
		lab_put(r, "copy", v ? "async" : "sync");
		lab_put(r, "element_bytes", esize[e]);
		lab_put(r, "copy_count", cc);
		lab_put(r, "bytes_per_block", THREADS * cc * esize[e]);
		lab_put(r, "verified", c[v].verified != 0);
		if (c[v].verified && c[v].ms > 0) {
			lab_put(r, "ms", c[v].ms);
			lab_put(r, "GB/s", c[v].gbs);
			if (ceiling > 0)
				lab_put(r, "fraction_of_ceiling", c[v].gbs / ceiling);
		}
	}
}

/* The table, one line per copy_count, and its rows in the JSON; returns 1 if a cell failed. */
static int print_table(const struct apod_lab_opts *o, json_object *rows, cells_t cells, int major, int minor,
                       size_t bytes, double ceiling)
{
	int failed = 0;

	printf("async copy, compute capability %d.%d: each block of %d threads copies copy_count x %d elements "
	       "into shared memory, then sums them; %zu bytes read per run (+ 1/(32 copy_count) of that written)\n",
	       major, minor, THREADS, THREADS, bytes);
	if (ceiling > 0)
		printf("copy ceiling (copy4 on %zu bytes, read + write): %.1f GB/s\n", bytes, ceiling);
	printf("  GB/s = (bytes read + bytes written) / median time; a/s = async GB/s / sync GB/s\n");
	printf("  %5s %10s |", "copy", "bytes per");
	for (int e = 0; e < 3; e++)
		printf(" %-24s |", esize[e] == 4 ? "4-byte elements" : esize[e] == 8 ? "8-byte elements"
		                                                                      : "16-byte elements");
	printf("\n  %5s %10s |", "count", "block (4B)");
	for (int e = 0; e < 3; e++)
		printf(" %8s %8s %6s |", "sync", "async", "a/s");
	printf("\n");
	for (int cc = 1; cc <= MAX_COPY; cc++) {
		printf("  %5d %10d |", cc, THREADS * cc * 4);
		for (int e = 0; e < 3; e++) {
			struct cell *c = cells[e][cc - 1];
			char s[2][16], ratio[16] = "";
			for (int v = 0; v < 2; v++) {
				failed |= !c[v].verified;
				if (!c[v].verified)
					snprintf(s[v], sizeof s[v], "FAILED");
				else if (o->check)
					snprintf(s[v], sizeof s[v], "ok");
				else
					snprintf(s[v], sizeof s[v], "%.1f", c[v].gbs);
			}
			if (!o->check && c[0].gbs > 0 && c[1].gbs > 0)
				snprintf(ratio, sizeof ratio, "%.2f", c[1].gbs / c[0].gbs);
			printf(" %8s %8s %6s |", s[0], s[1], ratio);
			cell_rows(rows, c, e, cc, ceiling);
		}
		printf("\n");
	}
	printf("  (bytes per block: with 4-byte elements; x2 and x4 for 8- and 16-byte ones)\n");
	return failed;
}

/* The guide's claims, counted: async faster in nearly every case and
 * best with 8 or 16 bytes; sync at its best where copy_count is a
 * multiple of 4 (a peak at 4, 8 and 12 above both neighbours). */
static void summarize(json_object *summary, cells_t cells)
{
	double best[2] = { 0, 0 };
	int best_e[2] = { 0, 0 };
	for (int e = 0; e < 3; e++) {
		int faster = 0, timed = 0, peaks[2] = { 0, 0 };
		double top[2] = { 0, 0 };
		json_object *s = lab_row(summary);
		for (int cc = 1; cc <= MAX_COPY; cc++) {
			struct cell *c = cells[e][cc - 1];
			for (int v = 0; v < 2; v++) {
				top[v] = c[v].gbs > top[v] ? c[v].gbs : top[v];
				if (cc % 4 == 0 && cc < MAX_COPY && c[v].gbs > 0 &&
				    c[v].gbs > cells[e][cc - 2][v].gbs && c[v].gbs > cells[e][cc][v].gbs)
					peaks[v]++;
			}
			if (c[0].gbs > 0 && c[1].gbs > 0) {
				timed++;
				faster += c[1].gbs > c[0].gbs;
			}
		}
		for (int v = 0; v < 2; v++)
			if (top[v] > best[v])
				best[v] = top[v], best_e[v] = esize[e];
		printf("  %2d-byte elements: async faster at %d of %d copy counts; best sync %.1f GB/s, best async "
		       "%.1f GB/s; copy_count 4, 8, 12 peaks of sync %d of 3, of async %d of 3\n", esize[e],
		       faster, timed, top[0], top[1], peaks[0], peaks[1]);
		lab_put(s, "element_bytes", esize[e]);
		lab_put(s, "async_faster", faster);
		lab_put(s, "compared", timed);
		lab_put(s, "best_sync_GB/s", top[0]);
		lab_put(s, "best_async_GB/s", top[1]);
		lab_put(s, "sync_peaks_at_multiples_of_4", peaks[0]);
		lab_put(s, "async_peaks_at_multiples_of_4", peaks[1]);
	}
	printf("  fastest sync with %d-byte elements, fastest async with %d-byte elements\n", best_e[0],
	       best_e[1]);
}

extern "C" int apod_lab_asynccopy(const struct apod_lab_opts *o, json_object *out)
{
	/* --check copies its own 3 MiB + 48 bytes, so that the last block of
	 * almost every copy_count is partial, whatever --size says. */
	size_t mib = lab_size(o, 256, 0);
	size_t bytes = o->check ? ((size_t)3 << 20) + 48 : mib << 20;
	struct bufs b;
	cells_t cells;
	int dev = 0, major = 0, minor = 0, failed;
	double ceiling = 0;
	json_object *rows, *summary;

	APOD_CUDA_TRY(cudaGetDevice(&dev));
	APOD_CUDA_TRY(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
	APOD_CUDA_TRY(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));
	rows = lab_array(out, "rows");
	lab_put(out, "unit", "GB/s");
	lab_put(out, "compute_capability", major + minor / 10.0);
	if (major < 8) {
		char why[128];
		snprintf(why, sizeof why, "compute capability %d.%d; cp.async needs 8.0 or newer", major, minor);
		printf("asynccopy: asynchronous global-to-shared copies not supported on this device: %s\n", why);
		lab_put(out, "supported", false);
		lab_put(out, "note", why);
		return 0;
	}
	lab_put(out, "supported", true);
	summary = lab_array(out, "summary");
	if (!o->check && (mib < 1 || mib > 4096))
		return apod_usage_fail("asynccopy: --size %zu MiB: the input must be 1 to 4096 MiB", mib);

	if (prepare(&b, bytes))
		return -1;
	if (!o->check && copy4_ceiling_gbs(bytes, o->reps, &ceiling))
		return -1;
	if (run_all(o, &b, bytes, cells))
		return -1;
	failed = print_table(o, rows, cells, major, minor, bytes, ceiling);
	if (!o->check)
		summarize(summary, cells);
	lab_put(out, "input_bytes", bytes);
	lab_put(out, "threads_per_block", THREADS);
	if (ceiling > 0) {
		lab_put(out, "ceiling", ceiling);
		lab_put(out, "ceiling_is", "copy4 read + write, same run");
	}
	return failed ? apod_fail("asynccopy: a version's sums differ from the host's") : 0;
}
