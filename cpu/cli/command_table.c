/*
 * command_table.c: every command of the harness, described once, in the
 * order of apod --help: its name, its line there, its synopsis, what its
 * --help says, its own options and its main (each in its cmd_*.c).  The
 * help listing, the dispatch, the usage texts, the option names a workload
 * key may not take and tests/check_cli.c's check of doc/apod.1 all read
 * this one table.
 */
#include "commands.h"

/* What --runs, --budget and --stages do, for the table, bench and report. */
#define APOD_LADDER_ABOUT \
	"--runs=N: each stage runs up to N times (default 5, at least 3 where the budget\n" \
	"allows), in rounds, until the interval of its median time is within 2%; the\n" \
	"table gives the median, the spread and the runs, and calls a model broken only\n" \
	"when the whole interval lies beyond the bound.  --budget=SECONDS: the most the\n" \
	"runs after the first may add (default: half the first round, at least 5 s).\n" \
	"--stages=LIST: only these stages (comma-separated; serial always runs).\n"

const struct apod_cmd apod_cmd_table_entry = {
	.name = NULL,
	.help = "run the deck through every available stage and print the APOD table (time, "
	        "speedups, Amdahl bound, verification against serial); also 'table'",
	.synopsis = "[deck options] [--out=DIR] [--json=FILE] [--ceilings=FILE] [--trace] [--reverse] "
	            "[--ranks=N] [--runs=N] [--budget=SECONDS] [--stages=LIST]",
	.about = "Run every available stage and print the APOD table.  --out=DIR: the results\n"
	         "of each stage in DIR/STAGE; --json=FILE: the table's rows.  --ceilings=FILE:\n"
	         "hold the speed of light to that file's ceilings (`apod ceilings --json`, of\n"
	         "another machine, say) in place of this machine's (also APOD_CEILINGS).\n"
	         "--trace adds each stage's device busy time per phase to the JSON (CUPTI; it\n"
	         "slows CUDA calls).  --reverse runs the stages serial last: each runs in a\n"
	         "process of its own, so the times must not depend on the order.  --ranks=N:\n"
	         "under each stage that runs across ranks (mpi, mgpu), its weak scaling at N\n"
	         "ranks (the problem grown N times, under APOD_MPIRUN) beside Gustafson's bound.\n"
	         APOD_LADDER_ABOUT,
	.options = apod_table_options,
	.deck = 1,
	.main = apod_table_main,
};

const struct apod_cmd apod_cmd_run_entry = {
	.name = "run",
	.help = "run one stage: its phase timers, its results (--out), its report (--json)",
	.synopsis = "--stage=NAME [deck options] [--out=DIR] [--json=FILE] [--ceilings=FILE] [--trace] "
	            "[--no-snapshots]",
	.about = "Run one stage.  --out=DIR writes its results directory (swapped in whole\n"
	         "when the run succeeds); --json=FILE its report.  After the phase timers,\n"
	         "each phase's speed of light (its declared work over the ceilings of the\n"
	         "resource the stage runs on) beside the time it took; --ceilings=FILE holds\n"
	         "it to that file's ceilings in place of this machine's (also APOD_CEILINGS).\n"
	         "--trace adds the device's own time per phase, from CUPTI (it slows every\n"
	         "CUDA call).  --no-snapshots writes the results but takes no snapshots, as\n"
	         "the table runs each stage (in a process of its own).\n",
	.options = apod_run_options,
	.deck = 1,
	.main = apod_run_main,
};

const struct apod_cmd apod_cmd_stages_entry = {
	.name = "stages",
	.help = "list the workload's stages and whether each can run here",
	.synopsis = "[--workload=NAME]",
	.about = "List the stages of the workload (default: the first) and, for each that\n"
	         "cannot run here, why.\n",
	.options = apod_workload_option,
	.main = apod_stages_main,
};

const struct apod_cmd apod_cmd_workloads_entry = {
	.name = "workloads",
	.help = "list the workloads and their parameters",
	.synopsis = "[--workload=NAME] [--json=FILE]",
	.about = "List the workloads, their stages and keys; with --workload=NAME, that\n"
	         "workload's keys with their types, defaults, ranges and meanings.\n"
	         "--json=FILE writes that workload's key table as JSON, one key a line, each\n"
	         "with what it does to a run (sets the steps, a schedule, or the work, and\n"
	         "how: work ~ value^work_exponent), as a program drawing decks needs it.\n",
	.options = apod_workloads_options,
	.main = apod_workloads_main,
};

const struct apod_cmd apod_cmd_verify_entry = {
	.name = "verify",
	.help = "compare two results directories under their workload's tolerances",
	.synopsis = "[--any-deck] REFERENCE_DIR RESULT_DIR",
	.about = "Compare two results directories (as written by run --out) under the\n"
	         "tolerances their workload designs.  Exit 0 if they agree, 1 if they do not.\n"
	         "Runs of different decks are refused, naming the keys that differ; with\n"
	         "--any-deck they are compared anyway where their outputs have the same\n"
	         "shapes, under the reference's tolerances.\n",
	.options = apod_verify_options,
	.main = apod_verify_main,
};

const struct apod_cmd apod_cmd_assess_entry = {
	.name = "assess",
	.help = "profile the serial stage with gprof and print the hotspots and the Amdahl and "
	        "Gustafson bounds",
	.synopsis = "[deck options] [--out=DIR]",
	.about = "Profile the serial stage with gprof; write DIR/flat.txt,\n"
	         "DIR/callgraph.txt, DIR/phases.json and DIR/assess.json\n"
	         "(DIR defaults to ./profiles).\n",
	.options = apod_assess_options,
	.deck = 1,
	.main = apod_assess_main,
};

const struct apod_cmd apod_cmd_info_entry = {
	.name = "info",
	.help = "host (and device) facts",
	.synopsis = "",
	.about = "Print the host's processor, cores, memory and OpenMP threads, and the\n"
	         "devices this build can use.\n",
	.options = apod_help_option,
	.main = apod_info_main,
};

const struct apod_cmd apod_cmd_bench_entry = {
	.name = "bench",
	.help = "measure every stage (and, where there are some, the GPU kernels); write JSON",
	.synopsis = "[deck options] [--reps=N] [--kernels] [--json=FILE] [--ceilings=FILE] [--trace] "
	            "[--runs=N] [--budget=SECONDS] [--stages=LIST]",
	.about = "Measure every stage (whole runs, with snapshots) and the GPU kernels;\n"
	         "--kernels measures the kernels only, and fails where there are none to measure\n"
	         "(no GPU, or none for the workload).  --ceilings=FILE: the speed of light\n"
	         "against that file's ceilings (also APOD_CEILINGS).  --trace adds each stage's\n"
	         "device busy time per step (CUPTI; it slows every CUDA call, so whole runs are\n"
	         "slower).\n" APOD_LADDER_ABOUT,
	.options = apod_bench_options,
	.deck = 1,
	.main = apod_bench_main,
};

const struct apod_cmd apod_cmd_scale_entry = {
	.name = "scale",
	.help = "strong and weak scaling of the omp stage (or, --ranks, of a stage across MPI ranks) "
	        "against Amdahl and Gustafson; JSON and plot data",
	.synopsis = "[deck options] [--threads=LIST] [--stage=NAME] [--ranks=LIST] [--reps=N] "
	            "[--no-weak] [--json=FILE]",
	.about = "Measure strong scaling (the deck as it is: the omp stage at each thread count,\n"
	         "against serial and Amdahl's curve; every other stage that can run here once) and\n"
	         "weak scaling (the problem grown N times with N threads, against Gustafson's line).\n"
	         "  --threads=LIST  thread counts, e.g. 1,2,4,8 (default: 1, 2, 4, ... and every core;\n"
	         "                  1 is always measured)\n"
	         "  --stage=NAME --ranks=LIST\n"
	         "                  scale NAME, a stage that runs across ranks (mpi, mgpu), over rank\n"
	         "                  counts instead: each run under APOD_MPIRUN (default mpirun) with\n"
	         "                  APOD_MPIRUN_ARGS, one thread a rank, against serial and 1 rank\n"
	         "  --reps=N        runs per point; the median counts (default 3)\n"
	         "  --no-weak       strong scaling only\n"
	         "  --json=FILE     the measurements as JSON; beside it (FILE less a .json)\n"
	         "                  BASE.strong.dat, BASE.weak.dat and BASE.gp for doc/plots/scaling.gp\n",
	.options = apod_scale_options,
	.deck = 1,
	.main = apod_scale_main,
};

const struct apod_cmd apod_cmd_ceilings_entry = {
	.name = "ceilings",
	.help = "what this machine can do, measured once and cached: bandwidth, FMA, PCIe, launch",
	.synopsis = "[--refresh] [--ceilings=FILE] [--json=FILE]",
	.about = "What this machine can do, measured: bandwidth, FMA throughput, special\n"
	         "functions, PCIe and launch latency, of the host (one core, all cores) and\n"
	         "the GPU.  Measured once (seconds) and kept in a cache file named by the\n"
	         "host and the device; --refresh measures again; --ceilings=FILE shows\n"
	         "another machine's file; --json=FILE writes them (the cache file's format).\n"
	         "The table, run and bench hold each phase's speed of light against them.\n",
	.options = apod_ceilings_options,
	.main = apod_ceilings_main,
};

const struct apod_cmd apod_cmd_new_entry = {
	.name = "new",
	.help = "write a workload skeleton to start a port from (NAME/)",
	.synopsis = "NAME [--gpu] [--mpi]",
	.about = "Write a workload skeleton into ./NAME: a serial reference and an OpenMP\n"
	         "stage, their outputs and tolerances, main.c and a Makefile that builds\n"
	         "against the installed library with pkg-config.  Then: cd NAME && make && ./NAME\n"
	         "  --gpu  also a GPU stage, stage_gpu.cu (on <apod/cuda.h>), built by nvcc\n"
	         "  --mpi  also a stage of MPI ranks, stage_mpi.c (on <apod/ranks_mpi.h>); make\n"
	         "         check runs it at 1, 2 and 3 ranks under mpirun\n",
	.options = apod_new_options,
	.main = apod_new_main,
};

const struct apod_cmd apod_cmd_report_entry = {
	.name = "report",
	.help = "the APOD table as one HTML page: the ladder, a roofline of every phase, the "
	        "scaling curves, the hotspots",
	.synopsis = "[deck options] --out=FILE [--from=TABLE] [--scaling=SCALE] [--assess=DIR] "
	            "[--json=FILE] [--ceilings=FILE] [--runs=N] [--budget=SECONDS] [--stages=LIST]",
	.about = "Run every available stage (as apod with no command) and write one HTML page,\n"
	         "its pictures inline SVG drawn by gnuplot (needed: apt-get install gnuplot-nox):\n"
	         "the table, the ladder (each speedup beside its Amdahl and speed-of-light bounds),\n"
	         "a roofline of every phase of every stage under the measured ceilings, the\n"
	         "command, date and device.\n"
	         "  --out=FILE     the page (written whole, then renamed into place)\n"
	         "  --from=TABLE   no run: the table of `apod --json=TABLE` (its deck options unused)\n"
	         "  --scaling=SCALE the scaling curves, from `apod scale --json=SCALE` and its files\n"
	         "  --assess=DIR   the gprof hotspots of `apod assess --out=DIR`\n"
	         "  --json=FILE    also the table's JSON, as apod --json writes it\n"
	         "  --ceilings=FILE  the speed of light against that file's ceilings\n"
	         "  --runs, --budget, --stages  as for the table\n",
	.options = apod_report_options,
	.deck = 1,
	.main = apod_report_main,
};

const struct apod_cmd *const apod_commands[] = {
	&apod_cmd_table_entry, &apod_cmd_run_entry,   &apod_cmd_stages_entry,
	&apod_cmd_workloads_entry, &apod_cmd_verify_entry, &apod_cmd_assess_entry,
	&apod_cmd_info_entry,  &apod_cmd_bench_entry, &apod_cmd_scale_entry,
	&apod_cmd_report_entry, &apod_cmd_ceilings_entry, &apod_cmd_new_entry, NULL,
};
