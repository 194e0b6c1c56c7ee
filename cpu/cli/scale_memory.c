/*
 * scale_memory.c: what `apod scale` reads to budget a grown problem's
 * memory: this process's resident set, now and at its peak, and what the
 * host has available.
 */
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

#include "scale.h"

/* KiB resident now (/proc/self/statm), the peak so far, and available. */
long long scale_rss_kib(void)
{
	long long size, res;
	FILE *f = fopen("/proc/self/statm", "r");
	int ok;
	if (!f)
		return -1;
	ok = fscanf(f, "%lld %lld", &size, &res) == 2;
	fclose(f);
	return ok ? res * (sysconf(_SC_PAGESIZE) / 1024) : -1;
}

long long scale_peak_rss_kib(void)
{
	struct rusage u;
	return getrusage(RUSAGE_SELF, &u) == 0 ? (long long)u.ru_maxrss : -1;
}

long long scale_available_kib(void)
{
	char line[256];
	long long kib = -1;
	FILE *f = fopen("/proc/meminfo", "r");
	if (f) {
		while (fgets(line, sizeof line, f))
			if (sscanf(line, "MemAvailable: %lld kB", &kib) == 1)
				break;
		fclose(f);
	}
	if (kib < 0) {
		long pages = sysconf(_SC_AVPHYS_PAGES), size = sysconf(_SC_PAGESIZE);
		if (pages > 0 && size > 0)
			kib = (long long)pages * (size / 1024);
	}
	return kib;
}
