# The rules every port's Makefile would otherwise repeat: build the program
# against the installed apod (pkg-config's flags), its GPU stage with nvcc,
# its profiling build, its gate (`make check`) and `make clean`.  A port's
# Makefile sets what is its own, then includes this file last:
#
#   PROGRAM = mywork
#   SOURCES = main.c workload.c
#   HEADERS = mywork.h
#   CHECK_DECK = --n=20000 --steps=30
#   include $(or $(shell pkg-config --variable=makefile apod),$(error pkg-config finds no apod))
#
# What a port's Makefile may set (only PROGRAM and SOURCES are required):
#   PROGRAM         the program's name
#   SOURCES         its C (.c) and C++ (.cpp) sources, anywhere; their objects
#                   are written in the folder make runs in
#   HEADERS         what every object also depends on (the Makefiles always)
#   CUDA_SOURCES    its .cu files: built by $(NVCC) and linked with the CUDA
#                   runtime where nvcc is found, left out where it is not
#   CUDA_REQUIRED   yes: no nvcc stops the build instead
#   GPU_CFLAGS      every compiler's flags where the .cu files are built in
#                   (such as -DMY_GPU, for the code that names the stage)
#   PORT_CFLAGS, PORT_CXXFLAGS, PORT_NVCCFLAGS, PORT_LDLIBS
#                   the port's own flags; CFLAGS, CXXFLAGS, NVCCFLAGS,
#                   CUDA_ARCH, LDFLAGS and LDLIBS stay the user's to set
#   CHECK_DECK      the deck `make check` runs, as --KEY=VALUE options
#   CHECK_STAGES    the stages `make check` writes to disk and verifies against
#                   serial (default: omp); gpu is added where it was built
#   MPI_RANKS       the numbers of ranks at which `make check` runs the mpi
#                   stage under $(MPIRUN) $(MPIRUN_FLAGS)
#   CHECK_MORE      lines of the port's own (define CHECK_MORE ... endef) that
#                   `make check` runs after the stages' runs
#   CHECK_FILES     what CHECK_MORE writes, for `make clean`

ifeq ($(strip $(PROGRAM)),)
$(error set PROGRAM, the program's name, before including $(lastword $(MAKEFILE_LIST)))
endif
ifeq ($(strip $(SOURCES)),)
$(error set SOURCES, the program's .c and .cpp files, before including $(lastword $(MAKEFILE_LIST)))
endif
ifneq ($(filter-out %.c %.cpp,$(SOURCES)),)
$(error SOURCES holds $(filter-out %.c %.cpp,$(SOURCES)): only .c and .cpp files (.cu files go in CUDA_SOURCES))
endif

.DEFAULT_GOAL := all
APOD_MAKEFILES := $(MAKEFILE_LIST)
APOD_CFLAGS := $(shell pkg-config --cflags apod)
APOD_LIBS := $(shell pkg-config --libs apod)

C_SOURCES = $(filter %.c,$(SOURCES))
CXX_SOURCES = $(filter %.cpp,$(SOURCES))
OBJS = $(notdir $(C_SOURCES:.c=.o) $(CXX_SOURCES:.cpp=.o))
CUDA_ALL_OBJS = $(notdir $(CUDA_SOURCES:.cu=.o))
ifneq ($(words $(OBJS) $(CUDA_ALL_OBJS)),$(words $(sort $(OBJS) $(CUDA_ALL_OBJS))))
$(error two sources share a name ($(SOURCES) $(CUDA_SOURCES)): their objects would be one file)
endif
# The objects are made here from sources that may be elsewhere.
vpath %.c $(sort $(dir $(C_SOURCES)))
vpath %.cpp $(sort $(dir $(CXX_SOURCES)))
vpath %.cu $(sort $(dir $(CUDA_SOURCES)))

CFLAGS ?= -O2 -g
CXXFLAGS ?= -O2 -g
NVCCFLAGS ?= -O3
NVCC ?= nvcc
# Empty: nvcc's default, its oldest architecture plus PTX that newer GPUs
# compile when the program starts; CUDA_ARCH=-arch=native builds for the GPU
# of this machine.
CUDA_ARCH ?=
MPIRUN ?= mpirun
MPIRUN_FLAGS ?=
CHECK_STAGES ?= omp

ifneq ($(strip $(CUDA_SOURCES)),)
ifneq ($(shell command -v $(NVCC) 2>/dev/null),)
CUDA_OBJS = $(CUDA_ALL_OBJS)
APOD_GPU_CFLAGS = $(GPU_CFLAGS)
# The CUDA runtime, from the toolkit nvcc says it belongs to (its TOP: the
# nvcc on the PATH may be a wrapper script in another folder).
CUDA_HOME ?= $(shell $(NVCC) --dryrun -c -x cu /dev/null -o /dev/null 2>&1 | sed -n 's/^\#\$$ TOP=//p' | head -n1)
CUDA_LIBS = -L$(CUDA_HOME)/lib64 -L$(CUDA_HOME)/lib -Wl,-rpath,$(CUDA_HOME)/lib64 -lcudart -lstdc++
else ifeq ($(CUDA_REQUIRED),yes)
ifneq ($(MAKECMDGOALS),clean)
$(error no nvcc '$(NVCC)': put the CUDA toolkit's bin on PATH, or make NVCC=/path/to/nvcc)
endif
endif
endif

# -ffp-contract=off: no fused multiply-adds on the host, so that serial and
# omp round alike wherever they run the same operations.
APOD_HOST_FLAGS = -Wall -Wextra -ffp-contract=off -fopenmp $(APOD_GPU_CFLAGS) $(APOD_CFLAGS)
APOD_ALL_CFLAGS = -std=gnu11 $(APOD_HOST_FLAGS) $(PORT_CFLAGS) $(CPPFLAGS) $(CFLAGS)
APOD_ALL_CXXFLAGS = -std=c++17 $(APOD_HOST_FLAGS) $(PORT_CXXFLAGS) $(CPPFLAGS) $(CXXFLAGS)
APOD_ALL_NVCCFLAGS = -std=c++20 $(CUDA_ARCH) -Xcompiler -Wall $(APOD_GPU_CFLAGS) $(APOD_CFLAGS) \
	$(PORT_NVCCFLAGS) $(NVCCFLAGS)
APOD_LINK = $(if $(CXX_SOURCES),$(CXX),$(CC))
APOD_ALL_LIBS = $(PORT_LDLIBS) $(APOD_LIBS) $(CUDA_LIBS) $(LDLIBS)

all: $(PROGRAM)

$(PROGRAM): $(OBJS) $(CUDA_OBJS)
	$(APOD_LINK) $(LDFLAGS) -fopenmp -o $@ $(OBJS) $(CUDA_OBJS) $(APOD_ALL_LIBS)

$(OBJS) $(CUDA_ALL_OBJS): $(HEADERS) $(APOD_MAKEFILES)
%.o: %.c
	$(CC) $(APOD_ALL_CFLAGS) -c -o $@ $<
%.o: %.cpp
	$(CXX) $(APOD_ALL_CXXFLAGS) -c -o $@ $<
%.o: %.cu
	$(NVCC) $(APOD_ALL_NVCCFLAGS) -c -o $@ $<

# The profiling build `./PROGRAM assess` looks for beside the program: the C
# sources compiled with -pg, for gprof's profile of the serial stage.
# -fno-inline keeps the port's helpers functions of their own in the
# profile (inlined into a loop called from the library, gprof would see no
# calls at all).  A port with C++ sources writes its own: which compiler
# links it, and with which runtime, is the port's to say.
ifeq ($(CXX_SOURCES),)
$(PROGRAM)-pg: $(C_SOURCES) $(HEADERS) $(APOD_MAKEFILES) $(CUDA_OBJS)
	$(CC) $(APOD_ALL_CFLAGS) -pg -fno-inline -o $@ $(C_SOURCES) $(CUDA_OBJS) \
	  $(LDFLAGS) -fopenmp -pg $(APOD_ALL_LIBS)
endif

# The gate: the table (every stage, each verified against serial; kept in
# check-table.txt for CHECK_MORE), then serial and CHECK_STAGES written to
# disk and compared, the mpi stage at MPI_RANKS, the port's own CHECK_MORE,
# and the gpu stage where there is a GPU.  Fails where any stage disagrees.
check: $(PROGRAM)
	@echo ./$(PROGRAM) $(CHECK_DECK); ./$(PROGRAM) $(CHECK_DECK) > check-table.txt; \
	  status=$$?; cat check-table.txt; exit $$status
	./$(PROGRAM) run --stage=serial $(CHECK_DECK) --out=check-serial
	@for s in $(CHECK_STAGES); do \
	  echo ./$(PROGRAM) run --stage=$$s $(CHECK_DECK) --out=check-$$s; \
	  ./$(PROGRAM) run --stage=$$s $(CHECK_DECK) --out=check-$$s || exit 1; \
	  echo ./$(PROGRAM) verify check-serial check-$$s; \
	  ./$(PROGRAM) verify check-serial check-$$s || exit 1; \
	done
ifneq ($(strip $(MPI_RANKS)),)
	@for np in $(MPI_RANKS); do \
	  echo $(MPIRUN) -np $$np $(MPIRUN_FLAGS) ./$(PROGRAM) run --stage=mpi $(CHECK_DECK) --out=check-mpi$$np; \
	  $(MPIRUN) -np $$np $(MPIRUN_FLAGS) ./$(PROGRAM) run --stage=mpi $(CHECK_DECK) --out=check-mpi$$np && \
	  ./$(PROGRAM) verify check-serial check-mpi$$np || exit 1; \
	done
endif
	$(CHECK_MORE)
ifneq ($(CUDA_OBJS),)
	@if ./$(PROGRAM) stages | grep -q '^gpu  *available '; then \
	  echo ./$(PROGRAM) run --stage=gpu $(CHECK_DECK) --out=check-gpu; \
	  ./$(PROGRAM) run --stage=gpu $(CHECK_DECK) --out=check-gpu && \
	  ./$(PROGRAM) verify check-serial check-gpu; \
	else echo "no usable GPU here (./$(PROGRAM) stages says why): the gpu stage was not run"; fi
else ifneq ($(strip $(CUDA_SOURCES)),)
	@echo "no nvcc '$(NVCC)': the gpu stage was not built, nor run"
endif

# What this file's rules wrote, and CHECK_FILES: nothing else.
clean:
	rm -rf $(PROGRAM) $(PROGRAM)-pg $(OBJS) $(CUDA_ALL_OBJS) gmon.out check-table.txt check-serial \
	  $(addprefix check-,$(CHECK_STAGES)) $(if $(CUDA_SOURCES),check-gpu) \
	  $(addprefix check-mpi,$(MPI_RANKS)) $(CHECK_FILES)

.PHONY: all check clean
