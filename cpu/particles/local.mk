# particles' build: an automake fragment (cpu/heat/local.mk says what one holds).
particles_sources = shared/particles/update.h cpu/particles/particles.h cpu/particles/params.c \
	cpu/particles/stage_serial.c cpu/particles/stage_omp.c
noinst_LIBRARIES += libparticles.a
libparticles_a_SOURCES = $(particles_sources)
workload_libs += libparticles.a
program_sources += cpu/particles/particles_workload.h cpu/particles/stages.c cpu/particles/workload.c
pg_sources += $(particles_sources)
# Its gate on the small deck and what it promises of its own.
workload_tests += tests/particles.sh
gpu_sources += gpu/particles/stage_gpu.cu
# No decks and no committed reference: its defaults are its small run.
particles_sanitize_stages = gpu
particles_sanitize_args = --n=5000 --steps=20 --snapshot_every=10
