# nbody's build: an automake fragment (cpu/heat/local.mk says what one holds).
nbody_sources = shared/nbody/interact.h cpu/nbody/nbody.h cpu/nbody/params.c cpu/nbody/initial.c \
	cpu/nbody/host.c cpu/nbody/tolerance.c cpu/nbody/tolerance.h cpu/nbody/stage_serial.c \
	cpu/nbody/stage_omp.c
noinst_LIBRARIES += libnbody.a
libnbody_a_SOURCES = $(nbody_sources)
# -fno-math-errno: sqrtf may then be vectorised (sqrtps); it is IEEE either
# way, so no result changes.
libnbody_a_CFLAGS = $(AM_CFLAGS) -fno-math-errno
workload_libs += libnbody.a
program_sources += cpu/nbody/nbody_workload.h cpu/nbody/stages.c cpu/nbody/workload.c cpu/nbody/kernels.c
pg_sources += $(nbody_sources)
# Its gate on the small deck and what it promises of its own.
workload_tests += tests/nbody.sh
gpu_sources += gpu/nbody/stage1.cu gpu/nbody/resident.cu gpu/nbody/bench.cu
gpu_headers += gpu/nbody/forces.cuh gpu/nbody/nbody_resident.h

nbodydecksdir = $(pkgdatadir)/nbody
dist_nbodydecks_DATA = data/nbody/small.deck data/nbody/medium.deck data/nbody/large.deck
nbodyrefdir = $(pkgdatadir)/nbody/ref/small
dist_nbodyref_DATA = data/nbody/ref/small/SHA256SUMS data/nbody/ref/small/drift.csv \
	data/nbody/ref/small/energy.csv data/nbody/ref/small/momentum.csv data/nbody/ref/small/pos.npy \
	data/nbody/ref/small/report.json data/nbody/ref/small/stats.csv data/nbody/ref/small/vel.npy
nbody_small_deck = data/nbody/small.deck
nbody_ref = data/nbody/ref/small
nbody_ref_files = pos.npy vel.npy stats.csv momentum.csv energy.csv drift.csv
nbody_ref_drop = pos_*.npy vel_*.npy
nbody_ref_real = float
nbody_sanitize_stages = gpu1 gpu2 gpu3 gpu4
nbody_sanitize_args = --deck=$(srcdir)/data/nbody/small.deck --n=1000 --steps=4 --energy_every=2 \
	--snapshot_every=2
gpu_headers += gpu/nbody/probes.cuh

# nbody's mgpu stage (CUDA, MPI and NCCL), built as heat's is; its ranks
# are libapod's (apod/ranks.h).
nbody_mgpu_sources = gpu/nbody/stage_mgpu.cu
if HAVE_NCCL
noinst_LIBRARIES += libnbodymgpu.a
libnbodymgpu_a_SOURCES = $(nbody_mgpu_sources)
mgpu_libs += libnbodymgpu.a
gpu/nbody/stage_mgpu.o: gpu/nbody/stage_mgpu.cu
	$(AM_V_NVCC)$(NVCC) $(NVCCFLAGS) $(NVCC_DEFS) $(DEFAULT_INCLUDES) $(AM_CPPFLAGS) \
	  $(filter -I%,$(MPI_CFLAGS)) $(NCCL_CPPFLAGS) $(CPPFLAGS) -MD -MP -MF $(@:.o=.d) -MT $@ -c -o $@ $<
endif
EXTRA_DIST += $(nbody_mgpu_sources)
-include gpu/nbody/stage_mgpu.d
CLEANFILES += gpu/nbody/stage_mgpu.d
workload_tests += tests/nbody-mgpu.sh
