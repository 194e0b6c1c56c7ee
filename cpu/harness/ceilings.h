/*
 * ceilings.h: the ceilings' cache file (JSON, written whole or not at all)
 * and the host's own measurements.  The struct and apod_ceilings_get are
 * public (apod/ceilings.h); the device's measurements come through the
 * program's hook (apod/apod.h), so this library links no CUDA.
 */
#ifndef APOD_HARNESS_CEILINGS_H
#define APOD_HARNESS_CEILINGS_H

#include <stddef.h>

#include <json-c/json.h>

#include "apod/ceilings.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The host's name, CPU model and the build of the host kernels, into c. */
void apod_ceilings_identify_host(struct apod_ceilings *c);
/* The CPU model from /proc/cpuinfo, or "unknown". */
void apod_host_cpu_model(char *buf, size_t len);

/* This machine's cache file, named by c's host, CPU and device:
 * $XDG_CACHE_HOME/apod/ceilings-HOST-CPUHASH-DEVICE.json (~/.cache without
 * XDG_CACHE_HOME).  0, or -1 with the reason. */
int apod_ceilings_cache_path(char *buf, size_t len, const struct apod_ceilings *c);

json_object *apod_ceilings_json(const struct apod_ceilings *c);
/* Read back what apod_ceilings_json wrote, checked: -1 with a usage
 * failure naming `what` (the file) and the fault. */
int apod_ceilings_from_json(struct apod_ceilings *c, json_object *o, const char *what);
/* Load a file: 0, 1 if it does not exist and missing_ok, else -1. */
int apod_ceilings_load(struct apod_ceilings *c, const char *path, int missing_ok);
/* Save to path (its folder made first), atomically; c->file becomes path. */
int apod_ceilings_save(struct apod_ceilings *c, const char *path);

/* STREAM's copy and triad and the FMA chains, on one core and on all:
 * fills c->r[APOD_CEIL_HOST_ONE] and [APOD_CEIL_HOST_ALL].  Each figure is
 * timed until two rounds agree (settle.h); those that never did are named
 * in unsettled ("" if none; len 0: not wanted). */
int apod_ceilings_measure_host(struct apod_ceilings *c, char *unsettled, size_t len);

/* Host figures that contradict each other: every core together slower than
 * one core alone in copy, triad, FP32 or FP64, the sign of a machine busy
 * while they were measured.  Arithmetic grows with the cores, so all of
 * them below (1 - APOD_CEILINGS_SLACK_FLOPS) of one is a contradiction; one
 * core can nearly fill the memory bus (a 2-core VM: 39 GB/s on one, 45 on
 * both), so bandwidth gets a wider margin.  0 if they agree; else 1, with
 * each contradiction named in why. */
#define APOD_CEILINGS_SLACK_FLOPS 0.10
#define APOD_CEILINGS_SLACK_BYTES 0.20
int apod_ceilings_contradict(const struct apod_ceilings *c, char *why, size_t len);

#ifdef __cplusplus
}
#endif

#endif
