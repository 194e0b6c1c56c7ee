# montecarlo's build: an automake fragment (cpu/heat/local.mk says what one holds).
montecarlo_sources = shared/montecarlo/path.h shared/montecarlo/closed_form.h \
	cpu/montecarlo/montecarlo.h cpu/montecarlo/params.c cpu/montecarlo/host.c \
	cpu/montecarlo/stage_serial.c cpu/montecarlo/stage_omp.c
noinst_LIBRARIES += libmontecarlo.a
libmontecarlo_a_SOURCES = $(montecarlo_sources)
workload_libs += libmontecarlo.a
program_sources += cpu/montecarlo/montecarlo_workload.h cpu/montecarlo/stages.c \
	cpu/montecarlo/workload.c cpu/montecarlo/kernels.c
pg_sources += $(montecarlo_sources)
# Its gate on the small deck and what it promises of its own.
workload_tests += tests/montecarlo.sh
gpu_sources += gpu/montecarlo/stage_gpu.cu gpu/montecarlo/bench.cu
gpu_headers += gpu/montecarlo/kernels.cuh gpu/montecarlo/path3.cuh

montecarlodecksdir = $(pkgdatadir)/montecarlo
dist_montecarlodecks_DATA = data/montecarlo/small.deck data/montecarlo/medium.deck \
	data/montecarlo/large.deck
montecarlorefdir = $(pkgdatadir)/montecarlo/ref/small
dist_montecarloref_DATA = data/montecarlo/ref/small/SHA256SUMS data/montecarlo/ref/small/batch_mean.npy \
	data/montecarlo/ref/small/ci95.csv data/montecarlo/ref/small/exact.csv \
	data/montecarlo/ref/small/hist.csv data/montecarlo/ref/small/mean.csv \
	data/montecarlo/ref/small/report.json data/montecarlo/ref/small/stderr.csv \
	data/montecarlo/ref/small/variance.csv
montecarlo_small_deck = data/montecarlo/small.deck
montecarlo_ref = data/montecarlo/ref/small
montecarlo_ref_files = batch_mean.npy mean.csv variance.csv stderr.csv ci95.csv exact.csv hist.csv
# Double whatever the build: its reference serves either.
montecarlo_sanitize_stages = gpu1 gpu2 gpu3
montecarlo_sanitize_args = --deck=$(srcdir)/data/montecarlo/small.deck --paths_per_batch=3000 --batches=3
