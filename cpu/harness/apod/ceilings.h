/*
 * apod/ceilings.h: what this machine can do, measured, not taken from
 * datasheets: the ceilings a phase's speed of light is held against.
 *
 * Five resources, each measured or absent with the reason:
 *   host, one core    STREAM's copy and triad on one thread; FP32 and FP64
 *                     multiply-add throughput of the build's own code
 *   host, all cores   the same on every OpenMP thread at once
 *   device            the copy kernel (copy4), FP32 and FP64 FMA, the
 *                     special-function unit (rsqrt), an empty kernel's launch
 *   pcie h2d, d2h     a large pinned buffer copied with cudaMemcpyAsync
 *
 * `apod ceilings` measures them (in seconds) and keeps them in a cache file
 * named by the host and the device; apod_ceilings_get() loads that file, or
 * another machine's.  A figure a resource does not have (a host's launch
 * latency, PCIe's FLOP/s) is 0; `measured` says whether the resource's
 * figures were measured at all.
 */
#ifndef APOD_CEILINGS_H
#define APOD_CEILINGS_H

#include "apod.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The cache file's format revision ("apod_ceilings" in the file). */
#define APOD_CEILINGS_FORMAT 1

enum apod_resource {
	APOD_CEIL_HOST_ONE,     /* one host core */
	APOD_CEIL_HOST_ALL,     /* every OpenMP thread of the host */
	APOD_CEIL_DEVICE,       /* the GPU */
	APOD_CEIL_H2D,          /* PCIe (or the link there is), host to device, pinned */
	APOD_CEIL_D2H,          /* the same, device to host */
	APOD_CEIL_COUNT
};

struct apod_ceiling {
	int measured;            /* 1: the figures below were measured; 0: see why */
	char why[256];           /* not measured: why (no GPU, no CUDA in this build, ...) */
	int threads;             /* host: the threads that ran; 0 elsewhere */
	double bandwidth;        /* bytes/s of a copy, read + written counted (STREAM's copy on
	                            the host, copy4 on the device, the transfer itself on PCIe) */
	double triad;            /* bytes/s of STREAM's triad a = b + s*c, 3 arrays counted (host) */
	double fp32, fp64;       /* flop/s of independent multiply-add chains, 2 flops each */
	double special;          /* op/s of a special function (device: rsqrt.approx, one MUFU op) */
	double launch;           /* s: an empty kernel, from launch to the host seeing it done */
	double launch_interval;  /* s: between back-to-back launches of an empty kernel */
};

struct apod_ceilings {
	char host[128];          /* the host's name */
	char cpu[256];           /* its CPU model */
	char device[256];        /* the GPU's name; "" where there is none */
	char device_id[64];      /* its UUID in hex; "" where there is none */
	char build[256];         /* how the host kernels were compiled (compiler, vector ISA) */
	char measured_at[32];    /* UTC, ISO 8601 */
	double seconds;          /* how long measuring took */
	char file[4096];         /* the file these were read from or saved to */
	struct apod_ceiling r[APOD_CEIL_COUNT];
	/* The host's 1-minute load average just before measuring, and its
	 * cores then: a cache is never kept from a host busier than its cores.
	 * -1 and 0 in a file that does not record them. */
	double load;
	int cores;
};

enum {
	APOD_CEILINGS_CACHED = 0,    /* read the cache file only; 1 if there is none */
	APOD_CEILINGS_MEASURE = 1,   /* measure (and save) if the cache file is missing */
	APOD_CEILINGS_REFRESH = 2    /* measure and save whether or not it is there */
};

/*
 * The ceilings: from `file` when it is not NULL (another machine's, say:
 * checked, a malformed file is a usage error), else from this machine's
 * cache file, measured first as `how` says (APOD_CEILINGS_*).  Measuring
 * needs the program's device hook (apod_main's program, apod/apod.h); a
 * program without one gets the host's ceilings and the device's reason.
 * Returns 0, 1 (APOD_CEILINGS_CACHED and no cache file yet), or -1 with
 * apod_fail / apod_usage_fail.  Host figures that contradict each other
 * (every core slower than one: a busy machine) are measured once more and
 * then refused, not cached: -1, with c holding them and c->file "".
 * Defined with `apod ceilings` (cpu/cli/cmd_ceilings.c), whose cache it
 * reads and fills; declared here for a program's own commands and hooks.
 */
APOD_API int apod_ceilings_get(struct apod_ceilings *c, const char *file, int how);

/* Mark every device resource of c as not measured, for this reason: what a
 * program's `ceilings` hook (apod/apod.h) does where there is no usable
 * device (apod/cuda_ceilings.cuh's apod_cuda_ceilings does it for you). */
APOD_API void apod_ceilings_no_device(struct apod_ceilings *c, const char *why);

/* The resource's name in the cache file and in messages ("host_one_core"...). */
APOD_API const char *apod_ceiling_name(enum apod_resource k);

#ifdef __cplusplus
}
#endif

#endif
