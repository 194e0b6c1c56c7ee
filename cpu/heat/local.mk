# heat's build: an automake fragment, included from Makefile.am through
# cpu/workloads.mk because cpu/workloads.def lists heat.  A workload's
# fragment adds its files to the lists that Makefile.am builds from:
#   workload_libs      its own library (its host code), linked after the GPU's;
#   program_sources    its registration (workload.c, stages.c): what names the stages;
#   pg_sources         the host code of the profiling build, apod-pg;
#   gpu_sources, gpu_headers   its .cu files and their headers, where it has a GPU stage;
#   workload_tests     its own tests (heat's, which also test the harness, are in Makefile.am's script_tests);
# and states its facts, each named NAME_FACT (empty or unset where it has none):
#   NAME_small_deck    the small deck, from the top of the tree (empty: the defaults);
#   NAME_ref           the folder of the small deck's committed serial reference;
#   NAME_ref_files     the files that SHA256SUMS covers there;
#   NAME_ref_drop      what a run writes that the reference does not keep;
#   NAME_ref_real      float: `make reference W=NAME` refuses a double build;
#   NAME_sanitize_stages   the GPU stages `make check-sanitize` runs;
#   NAME_sanitize_args     their options (a small deck, few steps);
#   NAME_sanitize_STAGE_args   more options for one stage.
heat_sources = shared/stats.h shared/heat/cell.h shared/heat/hist.h shared/heat/passes.h \
	shared/heat/real.h cpu/heat/heat.h cpu/heat/params.c cpu/heat/problem.c cpu/heat/problem.h \
	cpu/heat/heat_stage.h cpu/heat/rowops.c cpu/heat/rowops.h cpu/heat/hostphases.c \
	cpu/heat/hostphases.h cpu/heat/hostfield.c cpu/heat/hostfield.h cpu/heat/rows.c \
	cpu/heat/stage_serial.c cpu/heat/stage_omp.c
noinst_LIBRARIES += libheat.a
libheat_a_SOURCES = $(heat_sources)
workload_libs += libheat.a
program_sources += cpu/heat/heat_workload.h cpu/heat/stages.c cpu/heat/workload.c cpu/heat/kernels.c
pg_sources += $(heat_sources)
gpu_sources += gpu/heat/resident.cu gpu/heat/stage1.cu gpu/heat/stage2.cu gpu/heat/stage3.cu \
	gpu/heat/stage4.cu gpu/heat/stage5.cu gpu/heat/temporal.cu gpu/heat/bench.cu
gpu_headers += gpu/heat/kernels.cuh gpu/heat/reduce.cuh gpu/heat/heat_resident.h \
	gpu/heat/thread_stats.cuh gpu/heat/tuned.cuh gpu/heat/resident_stage.cuh \
	gpu/heat/temporal.cuh gpu/heat/temporal.h

# ---- MPI: heat's stage of several processes and its rows over the ranks
# (the ranks are libapod's, apod/ranks.h), compiled with MPI's headers
heat_mpi_sources = cpu/heat/mpi_comm.c cpu/heat/mpi_comm.h cpu/heat/stage_mpi.c
if HAVE_MPI
noinst_LIBRARIES += libheatmpi.a
libheatmpi_a_SOURCES = $(heat_mpi_sources)
libheatmpi_a_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS)
mpi_libs += libheatmpi.a
endif
EXTRA_DIST += $(heat_mpi_sources)

# heat's mgpu stage: CUDA, MPI and NCCL, in a library of its own; its one
# file is compiled with MPI's and NCCL's headers, which no other file sees.
heat_mgpu_sources = gpu/heat/stage_mgpu.cu
if HAVE_NCCL
noinst_LIBRARIES += libheatmgpu.a
libheatmgpu_a_SOURCES = $(heat_mgpu_sources)
mgpu_libs += libheatmgpu.a
gpu/heat/stage_mgpu.o: gpu/heat/stage_mgpu.cu
	$(AM_V_NVCC)$(NVCC) $(NVCCFLAGS) $(NVCC_DEFS) $(DEFAULT_INCLUDES) $(AM_CPPFLAGS) \
	  $(filter -I%,$(MPI_CFLAGS)) $(NCCL_CPPFLAGS) $(CPPFLAGS) -MD -MP -MF $(@:.o=.d) -MT $@ -c -o $@ $<
endif
EXTRA_DIST += $(heat_mgpu_sources)
-include gpu/heat/stage_mgpu.d
CLEANFILES += gpu/heat/stage_mgpu.d

# The decks, and the committed serial reference of the small one, installed
# so that an installed apod can be verified against it
# (`apod verify PKGDATADIR/heat/ref/small DIR`).
heatdecksdir = $(pkgdatadir)/heat
dist_heatdecks_DATA = data/heat/small.deck data/heat/medium.deck data/heat/large.deck
heatrefdir = $(pkgdatadir)/heat/ref/small
dist_heatref_DATA = data/heat/ref/small/SHA256SUMS data/heat/ref/small/field.npy data/heat/ref/small/hist.csv \
	data/heat/ref/small/report.json data/heat/ref/small/stats.csv data/heat/ref/small/zones.csv
heat_small_deck = data/heat/small.deck
heat_ref = data/heat/ref/small
heat_ref_files = field.npy stats.csv hist.csv zones.csv
heat_ref_drop = snap_*.npy
heat_ref_real = float
# gpu5 runs at a width its kernel takes (a multiple of 4; at 317 it would run
# gpu4's), with statistics every 3rd step so that both kinds of pass run.
heat_sanitize_stages = gpu1 gpu2 gpu3 gpu4 gpu5
heat_sanitize_args = --deck=$(srcdir)/data/heat/small.deck --steps=40
heat_sanitize_gpu5_args = --size=320x203 --stats_every=3
