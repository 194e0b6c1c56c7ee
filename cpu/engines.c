/*
 * engines.c: the ladder of stages this build knows.
 *
 * A build without CUDA still lists the GPU stages, with the reason they
 * cannot run, so `apod stages` tells a user what they are missing.
 */
#include <stdio.h>
#include <string.h>

#include "engine.h"

extern const struct apod_engine apod_engine_serial;
extern const struct apod_engine apod_engine_omp;
#if defined(HAVE_CUDA) && !defined(APOD_NO_GPU_STAGES)
extern const struct apod_engine apod_engine_gpu1;
extern const struct apod_engine apod_engine_gpu2;
extern const struct apod_engine apod_engine_gpu3;
extern const struct apod_engine apod_engine_gpu4;
#else
static int no_cuda(char *why, size_t len)
{
	snprintf(why, len, "built without CUDA (configure found no nvcc, or --without-cuda)");
	return 0;
}
#define UNBUILT(id, label)                                  \
	static const struct apod_engine apod_engine_##id = {   \
		.name = #id, .about = label, .available = no_cuda \
	}
UNBUILT(gpu1, "GPU stage 1: genTimeStep on the device, field copied every step");
UNBUILT(gpu2, "GPU stage 2: field resident on the device, statistics reduced there");
UNBUILT(gpu3, "GPU stage 3: snapshots downloaded on a copy stream, overlapping steps");
UNBUILT(gpu4, "GPU stage 4: tuned kernels, statistics fused into the sweep");
#endif

const struct apod_engine *const apod_engines[] = {
	&apod_engine_serial,
	&apod_engine_omp,
	&apod_engine_gpu1,
	&apod_engine_gpu2,
	&apod_engine_gpu3,
	&apod_engine_gpu4,
	NULL,
};

const struct apod_engine *apod_engine_find(const char *name)
{
	for (int i = 0; apod_engines[i]; i++)
		if (!strcmp(apod_engines[i]->name, name))
			return apod_engines[i];
	return NULL;
}

const char *apod_phase_name(enum apod_phase p)
{
	static const char *const names[APOD_NPHASES] = {
		"setup", "genTimeStep", "calcStats", "calcSummaryData", "writeSnapshot", "writeReport",
	};
	return (unsigned)p < APOD_NPHASES ? names[p] : "?";
}
