/*
 * kit.cuh: what every lab is built from.  Include this one header (it
 * brings lab.h, apod/cuda.h, timing.cuh and report.cuh with it).
 *
 *   owners     dev_array<T>, host_array<T>, cuda_stream, cuda_event: each
 *              frees what it holds when it goes out of scope, so a lab can
 *              `return -1` (or APOD_CUDA_TRY) from anywhere without a leak.
 *   sizes      lab_size(): the one reading of --size and --check.
 *   JSON       lab_table (report.cuh) is a lab's main table, "rows"; any
 *              other table is an array made with lab_array() whose rows
 *              come from lab_row() and are filled with lab_put().
 *
 * Errors follow apod/cuda.h: a member that can fail returns 0, or -1
 * after recording why (apod_fail / apod_cuda_failed), and the failure names
 * the lab's own file and line (the caller's, through std::source_location),
 * so `if (d.alloc(n)) return -1;` is the whole error path.
 *
 * Converting a lab (see transpose.cu and devices.cu):
 *   1. #include "kit.cuh" (drop report.cuh, timing.cuh, apod/cuda.h, lab.h);
 *   2. size with lab_size(o, DEFAULT, CHECK_SIZE);
 *   3. every malloc / cudaMalloc / cudaMallocHost / cudaStreamCreate /
 *      cudaEventCreate becomes an owner's alloc()/create(), and every
 *      matching free/cudaFree/...Destroy goes away;
 *   4. every extra JSON table: lab_array + lab_row + lab_put; extra fields
 *      on a main-table row: lab_put on what lab_table_row() returns;
 *   5. split the entry function into helpers (set-up, verify, time,
 *      report) until it is well under 200 lines.
 * Kernels, launch configurations, timing and printed text do not change.
 */
#ifndef APOD_LAB_KIT_CUH
#define APOD_LAB_KIT_CUH

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <concepts>
#include <source_location>

#include <json-c/json.h>

#include "apod/cuda.h"
#include "lab.h"
#include "report.cuh"
#include "gpu/timing.cuh"

/* The caller's file and line, for the failure messages below. */
#define APOD_HERE std::source_location at = std::source_location::current()

/* Record a failed CUDA call as the caller's: "cudaMalloc of 96 bytes failed at transpose.cu:270". */
static inline int lab_cuda_fail(cudaError_t err, const char *what, size_t bytes,
                                const std::source_location &at)
{
	char call[96];
	snprintf(call, sizeof call, "%s of %zu bytes", what, bytes);
	return apod_cuda_failed(err, call, at.file_name(), (int)at.line());
}

/*
 * dev_array<T>, host_array<T>: n elements of T, owned, on the device or on
 * the host.
 *   dev_array<float> d;
 *   if (d.alloc(n)) return -1;           // cudaMalloc; 0, or -1 recorded
 *   kernel<<<g, b>>>(d.p, d.n);          // .p the pointer, .n the count
 *   cudaMemset(d.p, 0, d.bytes());       // .bytes() = n * sizeof(T)
 * A host_array's alloc() takes malloc's memory, alloc_pinned()
 * cudaMallocHost's (page-locked, for asynchronous copies), and .pinned says
 * which it holds.  The destructor gives the memory back the way it came
 * (its error, if any, is ignored: check kernels with a synchronising call
 * before the lab returns, as time_it and cudaMemcpy do).  alloc() on an
 * array that holds memory frees it first.  Not copyable; movable (a
 * moved-from array holds nothing).  Contents start undefined.  Both are
 * owned_array<T, OnDevice>: the owning is the same, only where the memory
 * comes from differs.
 */
template <class T, bool OnDevice> struct owned_array {
	T *p = nullptr;
	size_t n = 0;
	bool pinned = false;

	owned_array() = default;
	owned_array(const owned_array &) = delete;
	owned_array &operator=(const owned_array &) = delete;
	owned_array(owned_array &&o) noexcept : p(o.p), n(o.n), pinned(o.pinned) { o.p = nullptr; o.n = 0; }
	owned_array &operator=(owned_array &&o) noexcept
	{
		if (this != &o) {
			reset();
			p = o.p, n = o.n, pinned = o.pinned;
			o.p = nullptr, o.n = 0;
		}
		return *this;
	}
	~owned_array() { reset(); }

	size_t bytes() const { return n * sizeof(T); }

	int alloc(size_t count, APOD_HERE)
	{
		reset();
		if constexpr (OnDevice)
			return cuda_alloc([](void **q, size_t b) { return cudaMalloc(q, b); }, "cudaMalloc", count, at);
		if (count > SIZE_MAX / sizeof(T) ||
		    (count && !(p = (T *)malloc(count * sizeof(T)))))
			return apod_fail("cannot allocate %zu x %zu bytes of host memory (at %s:%d)", count,
			                 sizeof(T), at.file_name(), (int)at.line());
		n = count;
		return 0;
	}

	int alloc_pinned(size_t count, APOD_HERE)
	{
		static_assert(!OnDevice, "alloc_pinned is for host memory");
		reset();
		if (cuda_alloc([](void **q, size_t b) { return cudaMallocHost(q, b); }, "cudaMallocHost", count, at))
			return -1;
		pinned = true;
		return 0;
	}

	/* Free now (the destructor does it anyway). */
	void reset()
	{
		if (p && OnDevice)
			cudaFree(p);
		else if (p && pinned)
			cudaFreeHost(p);
		else
			free(p);
		p = nullptr, n = 0, pinned = false;
	}

private:
	/* cudaMalloc or cudaMallocHost of count elements, a failure recorded as the caller's. */
	int cuda_alloc(cudaError_t (*call)(void **, size_t), const char *name, size_t count,
	               const std::source_location &at)
	{
		if (count > SIZE_MAX / sizeof(T))
			return lab_cuda_fail(cudaErrorMemoryAllocation, name, SIZE_MAX, at);
		cudaError_t err = call((void **)&p, count * sizeof(T));
		if (err != cudaSuccess) {
			p = nullptr;
			return lab_cuda_fail(err, name, count * sizeof(T), at);
		}
		n = count;
		return 0;
	}
};

template <class T> using dev_array = owned_array<T, true>;
template <class T> using host_array = owned_array<T, false>;

/*
 * cuda_stream / cuda_event: one stream or event, owned; .h is the handle
 * (null until create() succeeds), destroyed with the owner.
 *   cuda_stream st;  if (st.create(cudaStreamNonBlocking)) return -1;
 *   cuda_event ev;   if (ev.create()) return -1;
 * An array of them (cuda_stream st[16]) works: create each one.  Both are
 * cuda_owned<Api>: the owning is the same, and Api names the handle type,
 * its create call (with flags), that call's name for the failure, the
 * default flags and the destroy call.
 */
template <class Api> struct cuda_owned {
	typename Api::handle h = nullptr;

	cuda_owned() = default;
	cuda_owned(const cuda_owned &) = delete;
	cuda_owned &operator=(const cuda_owned &) = delete;
	cuda_owned(cuda_owned &&o) noexcept : h(o.h) { o.h = nullptr; }
	cuda_owned &operator=(cuda_owned &&o) noexcept
	{
		if (this != &o) {
			reset();
			h = o.h;
			o.h = nullptr;
		}
		return *this;
	}
	~cuda_owned() { reset(); }

	int create(unsigned flags = Api::default_flags, APOD_HERE)
	{
		reset();
		cudaError_t err = Api::create(&h, flags);
		if (err != cudaSuccess) {
			h = nullptr;
			return apod_cuda_failed(err, Api::create_name, at.file_name(), (int)at.line());
		}
		return 0;
	}

	void reset()
	{
		if (h)
			Api::destroy(h);
		h = nullptr;
	}
};

struct cuda_stream_api {
	typedef cudaStream_t handle;
	static constexpr unsigned default_flags = cudaStreamDefault;
	static constexpr const char *create_name = "cudaStreamCreateWithFlags";
	static cudaError_t create(cudaStream_t *s, unsigned flags) { return cudaStreamCreateWithFlags(s, flags); }
	static void destroy(cudaStream_t s) { cudaStreamDestroy(s); }
};

struct cuda_event_api {
	typedef cudaEvent_t handle;
	static constexpr unsigned default_flags = cudaEventDefault;
	static constexpr const char *create_name = "cudaEventCreateWithFlags";
	static cudaError_t create(cudaEvent_t *e, unsigned flags) { return cudaEventCreateWithFlags(e, flags); }
	static void destroy(cudaEvent_t e) { cudaEventDestroy(e); }
};

typedef cuda_owned<cuda_stream_api> cuda_stream;
typedef cuda_owned<cuda_event_api> cuda_event;

#undef APOD_HERE

/*
 * The lab's problem size, in its own unit: the user's --size if given;
 * otherwise check_size under --check (small, odd where the lab wants its
 * bounds checks exercised) and dflt for a timed run.  A lab still
 * validates a user's --size itself (apod_usage_fail).
 */
static inline size_t lab_size(const struct apod_lab_opts *o, size_t dflt, size_t check_size)
{
	return o->size ? o->size : o->check ? check_size : dflt;
}

/*
 * JSON beyond the main table.  A second table is an array under its own
 * key, one object per row:
 *   json_object *sweep = lab_array(out, "strides");
 *   for (...) {
 *       json_object *r = lab_row(sweep);
 *       lab_put(r, "stride", s);  lab_put(r, "verified", ok != 0);
 *       if (timed) lab_put(r, "ms", ms);
 *   }
 * lab_put also sets a lab's top-level figures (lab_put(out, "final_gbs", g))
 * and adds fields to a main-table row (lab_put(lab_table_row(...), ...)).
 * The objects belong to `out`: nothing here needs freeing.
 */

/* A new empty array added to obj under key (replacing any value there). */
static inline json_object *lab_array(json_object *obj, const char *key)
{
	json_object *a = json_object_new_array();
	json_object_object_add(obj, key, a);
	return a;
}

/* A new empty object appended to the array `rows`. */
static inline json_object *lab_row(json_object *rows)
{
	json_object *r = json_object_new_object();
	json_object_array_add(rows, r);
	return r;
}

/* obj[key] = v, as a JSON number, integer, boolean, string (NULL: null) or value. */
static inline void lab_put(json_object *obj, const char *key, double v)
{
	json_object_object_add(obj, key, json_object_new_double(v));
}

static inline void lab_put(json_object *obj, const char *key, bool v)
{
	json_object_object_add(obj, key, json_object_new_boolean(v));
}

/* Every integer type (int, unsigned, size_t, int64_t...), as a 64-bit integer. */
template <std::integral I>
        requires(!std::same_as<I, bool>)
static inline void lab_put(json_object *obj, const char *key, I v)
{
	json_object_object_add(obj, key, json_object_new_int64((int64_t)v));
}

static inline void lab_put(json_object *obj, const char *key, const char *v)
{
	json_object_object_add(obj, key, v ? json_object_new_string(v) : NULL);
}

/* A value built elsewhere (an array, an object): obj takes it over. */
static inline void lab_put(json_object *obj, const char *key, json_object *v)
{
	json_object_object_add(obj, key, v);
}

#endif
