/*
 * l2persist.cu: lab 12a, the guide's L2 persisting-access window (seed-000
 * §9.2.2), swept across the size of the data it is asked to keep.
 *
 * One kernel, the guide's sliding-window microbenchmark in 16-byte words:
 * a large streaming region (default 1 GiB, far larger than L2) is read
 * and written once per pass, and every streaming word adds the persistent
 * word at the same position modulo the persistent region's length, so the
 * small persistent region is read over and over.  The persistent region
 * is swept from 10% to 200% of the L2 set aside for persisting accesses
 * (the device's maximum, cudaDevAttrMaxPersistingL2CacheSize), and each
 * size runs under three policies on the kernel's stream, in the guide's
 * order:
 *   1. no access-policy window (the baseline: plain LRU);
 *   2. a window over the whole persistent region, hitRatio 1, hits
 *      persisting and misses streaming (the guide's first listing);
 *   3. the same window with hitRatio = min(1, set-aside / window), so that
 *      about as many lines are marked persisting as the set-aside can hold
 *      (the guide's tuning).
 * Persisting lines are reset to normal before every policy, and at the
 * end the window, the persisting lines and the set-aside limit are all put
 * back, so no later lab runs with part of L2 reserved.
 *
 * Checked before timed: in unsigned arithmetic, which wraps and is exact,
 * the streaming region after one pass must equal, word for word, its
 * initial contents plus the persistent word the host computes for each
 * position.  Every persistent word is odd, hence non-zero, so a word
 * skipped, added twice or taken from the wrong position changes the result.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/copy4.cuh"
#include "kit.cuh"

#define THREADS 256
#define MIB (1024.0 * 1024.0)

/*
 * A grid-stride pass: consecutive threads take consecutive 16-byte words of
 * both regions, so each step of the grid sweeps a contiguous stretch of the
 * persistent region, cyclically, as the guide's kernel does.  The position
 * in the persistent region advances by `step` (the grid's stride modulo
 * np) with one compare instead of a 64-bit division per word, so the pass
 * stays limited by memory, not by integer arithmetic.  Plain pointers, as
 * in the guide: ordinary global loads, not the read-only path.
 */
static __global__ void persist_kernel(const uint4 *persist, size_t np, uint4 *stream, size_t ns, size_t step)
{
	size_t stride = (size_t)gridDim.x * blockDim.x;
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	size_t j = i % np;
	for (; i < ns; i += stride) {
		uint4 p = persist[j], s = stream[i];
		s.x += p.x;
		s.y += p.y;
		s.z += p.z;
		s.w += p.w;
		stream[i] = s;
		j += step;           /* j < np and step < np: one subtraction is enough */
		if (j >= np)
			j -= np;
	}
}

/* Word e of each region; persistent words are odd so that none is zero. */
static inline unsigned stream_word(size_t e) { return (unsigned)(e * 2654435761u + 0x9e3779b9u); }
static inline unsigned persist_word(size_t e) { return (unsigned)(e * 40503u + 0x7f4a7c15u) | 1u; }

/* Mismatching 16-byte words after one pass over s0 with p. */
static size_t count_wrong(const uint4 *back, const uint4 *s0, const uint4 *p, size_t ns, size_t np)
{
	size_t bad = 0, j = 0;
	for (size_t i = 0; i < ns; i++) {
		bad += back[i].x != s0[i].x + p[j].x || back[i].y != s0[i].y + p[j].y ||
		       back[i].z != s0[i].z + p[j].z || back[i].w != s0[i].w + p[j].w;
		if (++j == np)
			j = 0;
	}
	return bad;
}

/* The stream's access-policy window; bytes = 0 removes it. */
static cudaError_t window_attr(cudaStream_t st, void *base, size_t bytes, float hit_ratio)
{
	cudaStreamAttrValue a;
	memset(&a, 0, sizeof a);
	a.accessPolicyWindow.base_ptr = base;
	a.accessPolicyWindow.num_bytes = bytes;
	a.accessPolicyWindow.hitRatio = hit_ratio;
	a.accessPolicyWindow.hitProp = bytes ? cudaAccessPropertyPersisting : cudaAccessPropertyNormal;
	a.accessPolicyWindow.missProp = bytes ? cudaAccessPropertyStreaming : cudaAccessPropertyNormal;
	return cudaStreamSetAttribute(st, cudaStreamAttributeAccessPolicyWindow, &a);
}

struct device_l2 {
	int major, minor, sms;
	size_t l2, max_persist, max_window, setaside;
	double ceiling;      /* copy4 GB/s, measured before any L2 is set aside (0 under --check) */
};

/* Everything the sweep allocates, freed whether it succeeds or not. */
struct buffers {
	host_array<uint4> h_s0, h_back, h_p;   /* h_back pinned */
	dev_array<uint4> d_s0, d_s, d_p;
	cuda_stream st;
};

/*
 * The persisting L2 as the lab found it.  Once the set-aside limit has been
 * changed (armed), put_back() removes the stream's window, resets the
 * persisting lines and restores the limit, even after a failure (whose
 * message, recorded first, is then the one reported); a return that never
 * reaches put_back() (an error already recorded) still puts L2 back,
 * silently, when the guard goes, so no later lab runs with part of L2
 * reserved.
 */
struct l2_guard {
	size_t old_limit = 0;
	bool armed = false;
	const struct buffers *b = nullptr;   /* the stream whose window to remove */

	int put_back(int rc);
	~l2_guard()
	{
		if (armed)
			(void)put_back(-1);
	}
};

enum { NO_WINDOW, HIT_ONE, HIT_TUNED, POLICIES };
static const char *const policy_name[POLICIES] = {
	"no window", "window, hitRatio 1", "window, hitRatio tuned",
};

static const double fractions[] = { 0.10, 0.25, 0.50, 0.75, 0.90, 1.00, 1.25, 1.50, 2.00 };
#define NFRAC (sizeof fractions / sizeof fractions[0])
#define MAXSIZES 10

int l2_guard::put_back(int rc)
{
	cudaError_t back[4];
	const char *what[4] = { "cudaStreamSetAttribute (window removed)", "cudaDeviceSynchronize",
	                        "cudaCtxResetPersistingL2Cache", "cudaDeviceSetLimit (set-aside restored)" };
	armed = false;
	back[0] = b && b->st.h ? window_attr(b->st.h, b->d_p.p, 0, 1.0f) : cudaSuccess;
	back[1] = cudaDeviceSynchronize();
	back[2] = cudaCtxResetPersistingL2Cache();
	back[3] = cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, old_limit);
	if (rc)
		return rc;
	for (int k = 0; k < 4; k++)
		if (back[k] != cudaSuccess)
			return apod_cuda_failed(back[k], what[k], __FILE__, __LINE__);
	return 0;
}

/* Persistent sizes in 16-byte words; returns how many.  The check adds
 * lengths that are not multiples of anything (and one longer than the stream). */
static size_t persistent_sizes(const struct apod_lab_opts *o, const struct device_l2 *d, size_t ns,
                               size_t np[MAXSIZES])
{
	size_t nsizes = 0;
	if (o->check) {
		size_t odd[] = { 1, 999, 65537, ns - 5, ns + 1000, (size_t)(1.5 * d->setaside) / 16 };
		for (size_t k = 0; k < sizeof odd / sizeof odd[0]; k++)
			np[nsizes++] = odd[k] ? odd[k] : 1;
	} else
		for (size_t k = 0; k < NFRAC; k++) {
			size_t w = (size_t)(fractions[k] * d->setaside) / 16;
			np[nsizes++] = w ? w : 1;
		}
	return nsizes;
}

/* Both regions on the host and the device, and the stream the kernel runs on. */
static int fill_buffers(struct buffers *b, size_t ns, size_t max_np)
{
	if (b->h_s0.alloc(ns) || b->h_p.alloc(max_np) || b->h_back.alloc_pinned(ns))
		return -1;
	for (size_t i = 0; i < ns; i++)
		b->h_s0.p[i] = make_uint4(stream_word(4 * i), stream_word(4 * i + 1), stream_word(4 * i + 2),
		                          stream_word(4 * i + 3));
	for (size_t i = 0; i < max_np; i++)
		b->h_p.p[i] = make_uint4(persist_word(4 * i), persist_word(4 * i + 1), persist_word(4 * i + 2),
		                         persist_word(4 * i + 3));
	if (b->d_s0.alloc(ns) || b->d_s.alloc(ns) || b->d_p.alloc(max_np))
		return -1;
	APOD_CUDA_TRY(cudaMemcpy(b->d_s0.p, b->h_s0.p, ns * 16, cudaMemcpyHostToDevice));
	APOD_CUDA_TRY(cudaMemcpy(b->d_p.p, b->h_p.p, max_np * 16, cudaMemcpyHostToDevice));
	/* A blocking stream: the legacy-stream copies below also wait for it. */
	return b->st.create();
}

/* The sweep's heading, and the set-up's figures in the JSON. */
static void report_setup(json_object *out, const struct device_l2 *d, size_t ns, double ceiling_sa)
{
	const double ceiling = d->ceiling;

	printf("L2 persisting-access window, compute capability %d.%d: L2 %.1f MiB; set aside %.2f MiB for "
	       "persisting accesses (the device's maximum %.2f MiB); window at most %.1f MiB\n",
	       d->major, d->minor, d->l2 / MIB, d->setaside / MIB, d->max_persist / MIB, d->max_window / MIB);
	printf("streaming region %.0f MiB, read and written once per pass; each pass reads %zu bytes of the "
	       "persistent region (pers. GB/s) and moves %zu bytes in all (all GB/s)\n",
	       ns * 16 / MIB, ns * 16, ns * 48);
	if (ceiling > 0)
		printf("copy ceiling (copy4 on %zu bytes, read + write): %.1f GB/s before the set-aside, %.1f GB/s with "
		       "it in force; \"of copy\" is all GB/s against the first\n", ns * 16, ceiling, ceiling_sa);
	printf("of s-a: the persistent region against the set-aside; vs none: the no-window time over this "
	       "policy's, same size\n");
	printf("  %12s %7s  %-24s %8s %10s %10s %10s %8s %8s  %s\n", "persistent", "of s-a", "policy", "hitRatio",
	       "ms", "pers. GB/s", "all GB/s", "of copy", "vs none", "check");

	lab_put(out, "unit", "GB/s");
	lab_put(out, "unit_is", "bytes of the persistent region read per second (16 per streaming word)");
	lab_put(out, "supported", true);
	lab_put(out, "compute_capability", d->major + d->minor / 10.0);
	lab_put(out, "l2_bytes", d->l2);
	lab_put(out, "max_persisting_l2_bytes", d->max_persist);
	lab_put(out, "setaside_bytes", d->setaside);
	lab_put(out, "max_window_bytes", d->max_window);
	lab_put(out, "streaming_bytes", ns * 16);
	lab_put(out, "persistent_bytes_read_per_pass", ns * 16);
	lab_put(out, "all_bytes_per_pass", ns * 48);
	/* Every persistent read served by L2 and the streaming traffic unchanged:
	 * 48 bytes per word from DRAM become 32. */
	lab_put(out, "model_max_speedup", 48.0 / 32.0);
	if (ceiling > 0) {
		lab_put(out, "ceiling", ceiling);
		lab_put(out, "ceiling_is", "copy4 read + write, same run, before the set-aside");
		lab_put(out, "ceiling_with_setaside", ceiling_sa);
	}
}

/* One persistent size under one policy: what it ran and what it found. */
struct point {
	size_t np, bytes, window;   /* the persistent region in words and bytes; the window over it */
	int pol;
	float ratio;
	size_t wrong;               /* words wrong after one pass */
	double ms, ms_none;         /* this policy's median, and the no-window one at this size */
};

/* Run one point once and check it, then time it (no persisting lines left from before). */
static int run_point(const struct apod_lab_opts *o, struct buffers *b, size_t ns, int blocks, struct point *p)
{
	size_t step = ((size_t)blocks * THREADS) % p->np, np = p->np;

	/* Nothing left persisting from the previous policy or size. */
	APOD_CUDA_TRY(cudaDeviceSynchronize());
	APOD_CUDA_TRY(cudaCtxResetPersistingL2Cache());
	APOD_CUDA_TRY(window_attr(b->st.h, b->d_p.p, p->pol == NO_WINDOW ? 0 : p->window, p->ratio));
	APOD_CUDA_TRY(cudaMemcpyAsync(b->d_s.p, b->d_s0.p, ns * 16, cudaMemcpyDeviceToDevice, b->st.h));
	APOD_LAUNCH_TRY((persist_kernel<<<blocks, THREADS, 0, b->st.h>>>(b->d_p.p, np, b->d_s.p, ns, step)));
	APOD_CUDA_TRY(cudaStreamSynchronize(b->st.h));
	APOD_CUDA_TRY(cudaMemcpy(b->h_back.p, b->d_s.p, ns * 16, cudaMemcpyDeviceToHost));
	p->wrong = count_wrong(b->h_back.p, b->h_s0.p, b->h_p.p, ns, np);
	if (!p->wrong && !o->check &&
	    time_it(o->reps, [&] {
		    persist_kernel<<<blocks, THREADS, 0, b->st.h>>>(b->d_p.p, np, b->d_s.p, ns, step);
		    return cudaGetLastError() != cudaSuccess; }, &p->ms, b->st.h))
		return -1;
	return 0;
}

/* One point's line of the table and its JSON row. */
static void report_point(const struct apod_lab_opts *o, json_object *rows, const struct device_l2 *d, size_t ns,
                         const struct point *p)
{
	const double ceiling = d->ceiling, ms = p->ms, ms_none = p->ms_none;
	const size_t bytes = p->bytes, window = p->window, wrong = p->wrong;
	const int pol = p->pol;
	double pers = ms > 0 ? ns * 16 / (ms * 1e-3) / 1e9 : 0, all = 3 * pers;
	char name[96];
	json_object *r;

	printf("  %8.2f MiB %6.0f%%  %-24s", bytes / MIB, 100.0 * bytes / d->setaside, policy_name[pol]);
	if (pol == NO_WINDOW)
		printf(" %8s", "-");
	else
		printf(" %8.3f", p->ratio);
	if (wrong)
		printf(" %10s %10s %10s %8s %8s  FAILED (%zu of %zu words wrong)\n", "-", "-", "-", "", "",
		       wrong, ns);
	else if (o->check)
		printf(" %10s %10s %10s %8s %8s  ok\n", "-", "-", "-", "", "");
	else
		printf(" %10.4f %10.1f %10.1f %7.1f%% %7.2fx  ok%s\n", ms, pers, all, 100 * all / ceiling,
		       ms_none > 0 ? ms_none / ms : 0, window < bytes && pol != NO_WINDOW ?
		       " (window capped at the device's maximum)" : "");

	r = lab_row(rows);
	snprintf(name, sizeof name, "%s, persistent %.2f MiB", policy_name[pol], bytes / MIB);
	lab_put(r, "version", name);
	lab_put(r, "policy", policy_name[pol]);
	lab_put(r, "persistent_bytes", bytes);
	lab_put(r, "fraction_of_setaside", (double)bytes / d->setaside);
	lab_put(r, "window_bytes", pol == NO_WINDOW ? (size_t)0 : window);
	lab_put(r, "hit_ratio", pol == NO_WINDOW ? 0.0 : p->ratio);
	lab_put(r, "verified", !wrong);
	if (!wrong && ms > 0) {
		lab_put(r, "ms", ms);
		lab_put(r, "GB/s", pers);
		lab_put(r, "all_accesses_GB/s", all);
		if (ceiling > 0)
			lab_put(r, "fraction_of_ceiling", all / ceiling);
		if (ms_none > 0)
			lab_put(r, "speedup_vs_no_window", ms_none / ms);
	}
}

static int sweep(const struct apod_lab_opts *o, json_object *out, const struct device_l2 *d, size_t ns,
                 struct buffers *b, int *failed)
{
	size_t np[MAXSIZES], nsizes, max_np = 0;
	int per_sm = 0, blocks;
	double ceiling_sa = 0;  /* the same copy with the set-aside in force */
	json_object *rows = lab_array(out, "rows");

	nsizes = persistent_sizes(o, d, ns, np);
	for (size_t k = 0; k < nsizes; k++)
		max_np = np[k] > max_np ? np[k] : max_np;
	if (fill_buffers(b, ns, max_np))
		return -1;
	APOD_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, persist_kernel, THREADS, 0));
	blocks = d->sms * (per_sm > 0 ? per_sm : 1);
	if (!o->check && copy4_ceiling_gbs(ns * 16, o->reps, &ceiling_sa))
		return -1;
	report_setup(out, d, ns, ceiling_sa);

	for (size_t k = 0; k < nsizes; k++) {
		size_t bytes = np[k] * 16, window = bytes < d->max_window ? bytes : d->max_window;
		double ms_none = 0;
		for (int pol = 0; pol < POLICIES; pol++) {
			struct point p = { np[k], bytes, window, pol, 1.0f, 0, 0, ms_none };
			if (pol == HIT_TUNED && window > d->setaside)
				p.ratio = (float)((double)d->setaside / window);
			if (run_point(o, b, ns, blocks, &p))
				return -1;
			*failed |= p.wrong != 0;
			if (pol == NO_WINDOW)
				ms_none = p.ms_none = p.ms;
			report_point(o, rows, d, ns, &p);
		}
	}
	return 0;
}

static void note_unsupported(json_object *out, const char *why)
{
	printf("l2persist: not supported on this device: %s; nothing to measure\n", why);
	lab_put(out, "supported", false);
	lab_put(out, "note", why);
	lab_array(out, "rows");
	lab_put(out, "unit", "GB/s");
}

/* The device's L2 and its persisting limits: 0, 1 where it has none (why says so), or -1. */
static int query_l2(struct device_l2 *d, char *why, size_t why_size)
{
	int dev = 0, l2 = 0, max_persist = 0, max_window = 0;

	APOD_CUDA_TRY(cudaGetDevice(&dev));
	APOD_CUDA_TRY(cudaDeviceGetAttribute(&d->major, cudaDevAttrComputeCapabilityMajor, dev));
	APOD_CUDA_TRY(cudaDeviceGetAttribute(&d->minor, cudaDevAttrComputeCapabilityMinor, dev));
	APOD_CUDA_TRY(cudaDeviceGetAttribute(&d->sms, cudaDevAttrMultiProcessorCount, dev));
	APOD_CUDA_TRY(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
	if (d->major < 8) {
		snprintf(why, why_size, "compute capability %d.%d; the persisting-access window needs 8.0 or newer",
		         d->major, d->minor);
		return 1;
	}
	APOD_CUDA_TRY(cudaDeviceGetAttribute(&max_persist, cudaDevAttrMaxPersistingL2CacheSize, dev));
	APOD_CUDA_TRY(cudaDeviceGetAttribute(&max_window, cudaDevAttrMaxAccessPolicyWindowSize, dev));
	if (max_persist <= 0 || max_window <= 0) {
		snprintf(why, why_size, "the device allows %d bytes of persisting L2 and a window of %d bytes "
		         "(MIG mode disables the set-aside)", max_persist, max_window);
		return 1;
	}
	d->l2 = (size_t)l2;
	d->max_persist = (size_t)max_persist;
	d->max_window = (size_t)max_window;
	return 0;
}

/* Set aside the most the device allows, as the guide does, sweep, and put L2 back. */
static int with_setaside(const struct apod_lab_opts *o, json_object *out, struct device_l2 *d, size_t ns,
                         int *failed)
{
	struct buffers b;
	struct l2_guard l2;   /* after b: put back while the stream still exists */
	cudaError_t e;
	char why[160];

	/* Under MPS the limit cannot be changed from here: not a failure of the lab. */
	APOD_CUDA_TRY(cudaDeviceGetLimit(&l2.old_limit, cudaLimitPersistingL2CacheSize));
	e = cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, d->max_persist);
	if (e == cudaErrorUnsupportedLimit || e == cudaErrorNotSupported) {
		cudaGetLastError();
		snprintf(why, sizeof why, "cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize) returned %s",
		         cudaGetErrorName(e));
		note_unsupported(out, why);
		return 0;
	}
	APOD_CUDA_TRY(e);
	l2.armed = true;
	APOD_CUDA_TRY(cudaDeviceGetLimit(&d->setaside, cudaLimitPersistingL2CacheSize));
	if (d->setaside == 0) {
		l2.armed = false;
		APOD_CUDA_TRY(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, l2.old_limit));
		note_unsupported(out, "the driver left the persisting set-aside at 0 bytes");
		return 0;
	}
	l2.b = &b;
	return l2.put_back(sweep(o, out, d, ns, &b, failed));
}

extern "C" int apod_lab_l2persist(const struct apod_lab_opts *o, json_object *out)
{
	struct device_l2 d = {};
	int failed = 0, rc;
	/* --check streams a fixed length of its own (below), whatever --size says. */
	size_t mib = lab_size(o, 1024, 0), ns;
	char why[160];

	if ((rc = query_l2(&d, why, sizeof why)) < 0)
		return -1;
	if (rc) {
		note_unsupported(out, why);
		return 0;
	}

	/* The streaming region: --size MiB, at least four times L2 so that it
	 * cannot stay cached.  The check uses a small odd length instead, but
	 * several times the grid's stride (132 SMs x 2048 threads = 270,336
	 * words on an H200), so that every thread goes round the loop and the
	 * wrap of the persistent position is exercised. */
	if (o->check)
		ns = ((size_t)1 << 21) + 77;
	else {
		if (mib * ((size_t)1 << 20) < 4 * d.l2 || mib > 8192)
			return apod_usage_fail("l2persist: --size %zu MiB: the streaming region must be between four "
			                       "times the L2 (%zu MiB here) and 8192 MiB", mib,
			                       (4 * d.l2 + (1 << 20) - 1) >> 20);
		ns = mib * ((size_t)1 << 20) / 16;
	}

	/* The copy ceiling, taken before any L2 is set aside: the condition of
	 * every other lab's ceiling.  (Taken with the set-aside in force, copy4
	 * on 1 GiB ran at 1437 GB/s on an H200, against 3500 to
	 * 3900 GB/s in the other labs; sweep() still measures that case.) */
	if (!o->check && copy4_ceiling_gbs(ns * 16, o->reps, &d.ceiling))
		return -1;
	if (with_setaside(o, out, &d, ns, &failed))
		return -1;
	return failed ? apod_fail("l2persist: a pass did not produce the host's result") : 0;
}
