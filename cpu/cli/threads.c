#include <stdio.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "cli.h"
#include "threads.h"

void apod_cap_threads(void)
{
#ifdef _OPENMP
	/* Before any parallel region: the team of the first one is made at
	 * the size asked for, and that is where too large a size crashes. */
	int procs = omp_get_num_procs(), want = omp_get_max_threads();
	int cap = procs > 0 ? APOD_THREADS_PER_PROC * procs : APOD_THREADS_PER_PROC;
	if (want <= cap)
		return;
	omp_set_num_threads(cap);
	fprintf(stderr, "%s: %d OpenMP threads asked for (OMP_NUM_THREADS); using %d, %d for each "
	        "of the %d processors here\n", apod_prog && apod_prog->name ? apod_prog->name : "apod",
	        want, cap, APOD_THREADS_PER_PROC, procs);
#endif
}
