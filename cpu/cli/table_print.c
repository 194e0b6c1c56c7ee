/*
 * table_print.c: the APOD table on the terminal: its rows (as cells, the
 * words `apod report` puts on its page too), what its columns mean, the
 * state of the host, and the verdicts under it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/harness/fail.h"
#include "table_print.h"
#include "table_rows.h"

const char *const apod_table_columns[APOD_TABLE_NCOLS] = {
	"stage", "time (s)", "spread", "runs", "vs serial", "vs omp", "P", "Amdahl at N",
	"SoL bound", "% SoL", "limit", "held to", "verification",
};

/* Widths on the terminal; the last column takes what it needs. */
static const int widths[APOD_TABLE_NCOLS] = { -7, 10, 6, 4, 9, 8, 7, 13, 11, 7, 8, 7, 0 };

static const char *held_to(const struct row *w)
{
	return w->bound_kind == BOUND_AMDAHL ? "Amdahl" : w->bound_kind == BOUND_SOL ? "SoL" :
	       w->bound_kind == BOUND_LIMIT ? "limit" : "-";
}

void apod_table_row_cells(const struct ladder *l, int i, struct apod_table_cells *c)
{
	const struct row *w = &l->rows[i];
	int digits = 3;
	memset(c, 0, sizeof *c);
	for (int k = 1; k < APOD_TABLE_NCOLS; k++)
		snprintf(c->c[k], sizeof c->c[k], "-");
	snprintf(c->c[0], sizeof c->c[0], "%s", w->e->name);
	snprintf(c->c[1], sizeof c->c[1], "%.4f", w->total);
	if (w->total_s.n >= 2)
		snprintf(c->c[2], sizeof c->c[2], "%.1f%%", 100 * apod_spread_rel(&w->total_s));
	snprintf(c->c[3], sizeof c->c[3], "%d", w->total_s.n);
	snprintf(c->c[4], sizeof c->c[4], "%.2fx", l->rows[0].total / w->total);
	if (l->omp_total > 0)
		snprintf(c->c[5], sizeof c->c[5], "%.2fx", l->omp_total / w->total);
	/* P to as many places as it takes not to read 1 where the limit is
	 * finite ('-' there: P within 1e-5 of 1). */
	while (digits < 5 && w->b.p < 1 && 1 - w->b.p >= 1e-5 &&
	       floor(w->b.p * pow(10, digits) + 0.5) >= pow(10, digits))
		digits++;
	snprintf(c->c[6], sizeof c->c[6], "%.*f", digits, w->b.p);
	if (apod_table_is_algorithm(w) && w->ports)
		snprintf(c->c[7], sizeof c->c[7], "algo %.3gx", w->b.n);
	else if (w->has_width && w->ports)
		snprintf(c->c[7], sizeof c->c[7], "%.4gx (N=%.3g)", w->b.amdahl_n, w->b.n);
	if (w->sol.have && w->ports)
		snprintf(c->c[8], sizeof c->c[8], "%.4gx", w->sol.speedup);
	if (w->sol.have)
		snprintf(c->c[9], sizeof c->c[9], "%.1f%%%s", 100 * w->sol.reached,
		         w->sol.resident ? "*" : "");
	/* 1/(1-P) where P rounds to 1 says nothing a reader can use. */
	if (w->ports && isfinite(w->b.limit) && w->b.limit <= 1e5)
		snprintf(c->c[10], sizeof c->c[10], "%.1fx", w->b.limit);
	snprintf(c->c[11], sizeof c->c[11], "%s", held_to(w));
	if (i == 0)
		snprintf(c->c[12], sizeof c->c[12], "reference");
	else
		apod_verdict_line(&w->v, c->c[12], sizeof c->c[12]);
}

static void print_cells(const char *const *cells)
{
	for (int k = 0; k < APOD_TABLE_NCOLS; k++)
		if (widths[k])
			printf("%*s ", widths[k], cells[k]);
		else
			printf(" %s\n", cells[k]);
}

/* Whether two rows ran the step's phases and the probes as often. */
static int same_calls(const struct apod_workload *wl, const struct row *a, const struct row *b)
{
	for (int k = 1; k <= apod_step_phase_count(wl) + apod_probe_count(wl); k++)
		if (a->calls[k] != b->calls[k])
			return 0;
	return 1;
}

/* How often the step's phases and the probes ran: the reference's, and a
 * stage's own where they differ from it (a stage that runs the program's
 * step its own way). */
static void print_calls(const struct apod_workload *wl, const struct row *w, int reference,
                        long steps)
{
	int col;
	col = printf("%s %s's calls in %ld steps:", reference ? "phases," : "   ", w->e->name, steps);
	for (int k = 1; k <= apod_step_phase_count(wl) + apod_probe_count(wl); k++) {
		char item[160];
		int n = snprintf(item, sizeof item, " %s %ld%s", apod_phase_name(wl, k), w->calls[k],
		                 k < apod_step_phase_count(wl) + apod_probe_count(wl) ? "," : "");
		if (col + n > 88)
			col = printf("\n   ") - 1;
		col += printf("%s", item);
	}
	putchar('\n');
}

static void print_rows(const struct ladder *l)
{
	printf("\n");
	print_cells(apod_table_columns);
	for (int i = 0; i < l->nrows; i++) {
		const struct row *w = &l->rows[i];
		struct apod_table_cells c;
		const char *cells[APOD_TABLE_NCOLS];
		if (!w->ran) {
			/* Six GPU stages without a driver give one reason: said once. */
			int same = -1;
			for (int k = 0; k < i && same < 0 && w->chosen && !w->available; k++)
				if (!l->rows[k].ran && l->rows[k].chosen && !l->rows[k].available &&
				    !strcmp(l->rows[k].why, w->why))
					same = k;
			if (same >= 0)
				printf("%-7s not available: as %s\n", w->e->name, l->rows[same].e->name);
			else
				printf("%-7s %s\n", w->e->name, w->why);
			continue;
		}
		apod_table_row_cells(l, i, &c);
		for (int k = 0; k < APOD_TABLE_NCOLS; k++)
			cells[k] = c.c[k];
		print_cells(cells);
		if (w->has_weak)
			apod_table_weak_print(w->e, &w->weak);
	}
	for (int i = 0; i < l->nrows; i++)
		if (l->rows[i].ran && (i == 0 || !same_calls(l->wl, &l->rows[0], &l->rows[i])))
			print_calls(l->wl, &l->rows[i], i == 0, l->wl->steps(l->params));
}

static void print_legend(const struct ladder *l)
{
	printf("\n%s", apod_table_legend);
	printf("The ceilings are measured once and cached: `%s ceilings` shows them, `%s ceilings\n"
	       "--refresh` measures them again (on an idle machine), --ceilings=FILE takes\n"
	       "another's.\n", apod_prog->name, apod_prog->name);
	if (l->o->ranks > 0)
		printf("weak (--ranks=N): the problem grown N times (the workload's grow hook) at N\n"
		       "ranks against the deck at 1 rank, both under the launcher, one thread a rank.\n"
		       "efficiency: T(1) / T(N); scaled speedup: N T(1) / T(N) (assumes the work\n"
		       "linear in N); Gustafson: N + (1 - p)(1 - N), p the 1-rank run's fraction in\n"
		       "the phases the stage ports.  '<': the bound the scaled speedup is held to.\n");
	for (int i = 0; i < l->nrows; i++)
		if (l->rows[i].ran && apod_table_is_algorithm(&l->rows[i])) {
			printf("algo: a stage that changes the algorithm, not the hardware (its role): its\n"
			       "gain on the phases it changes, measured.  No count of workers makes it, so\n"
			       "it is held to the limit and its speed of light, not to Amdahl at N.\n");
			break;
		}
	for (int i = 0; i < l->nrows; i++)
		if (l->rows[i].ran && l->rows[i].sol.resident) {
			printf("*: some phase's data fit in the last-level cache, which can beat the main-\n"
			       "memory speed of light: that phase is not held to it.\n");
			break;
		}
}

/* Where the speed of light came from, and the host's state. */
static void print_machine(FILE *f, const struct ladder *l)
{
	const struct row *ref = &l->rows[0];
	if (!l->m)
		fprintf(f, "No speed of light: %s\n", l->no_machine);
	for (int i = 0; i < l->nrows; i++)
		if (l->rows[i].ran && !l->rows[i].sol.have && l->m) {
			fprintf(f, "No speed of light for %s: %s\n", l->rows[i].e->name, l->rows[i].sol.why);
			break;
		}
	if (l->ceilings.have) {
		fprintf(f, "ceilings: measured %s", l->ceilings.measured_at);
		if (l->ceilings.load >= 0 && l->ceilings.cores > 0)
			fprintf(f, " at load average %.2f on %d cores", l->ceilings.load, l->ceilings.cores);
		else
			fprintf(f, " (the load then not recorded)");
		fprintf(f, ", %s\n", l->ceilings.file);
	}
	if (!apod_table_busy(l))
		return;
	fprintf(f, "BUSY HOST: ");
	if (l->cores > 0 && fmax(l->load_start, l->load_end) > (double)l->cores)
		fprintf(f, "load average %.2f on %ld cores", fmax(l->load_start, l->load_end), l->cores);
	if (ref->ran && ref->total_s.n >= APOD_SPREAD_MIN_RUNS &&
	    apod_spread_rel(&ref->total_s) > APOD_SPREAD_BUSY)
		fprintf(f, "%sserial's %d runs spread %.0f%% (%.4f-%.4f s)",
		       l->cores > 0 && fmax(l->load_start, l->load_end) > (double)l->cores ? "; " : "",
		       ref->total_s.n, 100 * apod_spread_rel(&ref->total_s), ref->total_s.lo,
		       ref->total_s.hi);
	fprintf(f, ".\n  The times above are slower and less steady than this machine can do, and\n"
	       "  a verdict needs its whole interval beyond the bound.  Run again when the\n"
	       "  machine is idle (stop builds and other jobs, or take a node of your own), or\n"
	       "  give more runs (--runs=N --budget=SECONDS); --stages=LIST times fewer stages.\n");
}

/* One phase of a row against serial's, with both intervals. */
static void print_phase(FILE *f, const struct ladder *l, const struct row *w, int k)
{
	const struct row *ref = &l->rows[0];
	fprintf(f, "  %s's %s took %.4f s (%.4f-%.4f, %d runs) against serial's %.4f s "
	       "(%.4f-%.4f, %d runs): %.1f%% less\n", w->e->name, apod_phase_name(l->wl, k),
	       w->phase[k], w->phase_s[k].lo, w->phase_s[k].hi, w->phase_s[k].n, ref->phase[k],
	       ref->phase_s[k].lo, ref->phase_s[k].hi, ref->phase_s[k].n,
	       100 * (1 - w->phase[k] / ref->phase[k]));
}

static void print_faster_than_light(FILE *f, const struct ladder *l, const struct row *w,
                                    unsigned long long faster)
{
	char list[256];
	apod_table_phase_list(l->wl, faster & ~APOD_SOL_LOOP, w->nphases, list, sizeof list);
	fprintf(f, "MODEL BROKEN for %s: faster than its speed of light in %s%s: the work "
	       "%s declares there, or this machine's ceilings, are wrong\n", w->e->name,
	       list, faster & APOD_SOL_LOOP ? (*list ? " and in its step and "
	       "probes together" : "its step and probes together") : "", l->wl->name);
	for (int k = 0; k < w->nphases; k++)
		if (faster & (1ull << k))
			fprintf(f, "  %s's %s took %.4g s at its slowest; its speed of light is %.4g s\n",
			       w->e->name, apod_phase_name(l->wl, k), w->phase_s[k].hi, w->sol.phase[k]);
}

static void print_broken(FILE *f, const struct ladder *l, const struct row *w)
{
	char list[256];
	const char *beyond = !w->beyond_sure ? "" :
	                     w->b.above_limit ? "its speedup exceeds its Amdahl limit" :
	                     w->above_bound ? "its speedup exceeds its bound" :
	                     "its speedup exceeds Amdahl's law at its N";
	apod_table_phase_list(l->wl, w->undeclared_sure, w->nphases, list, sizeof list);
	fprintf(f, "MODEL BROKEN for %s: %s%s%s%s%s\n", w->e->name, beyond,
	        *beyond && *list ? "; " : "", *list ? "faster than serial in " : "", list,
	        *list ? ", which it does not declare (its ports)" : "");
	if (w->beyond_sure && w->bound_kind != BOUND_NONE)
		fprintf(f, "  its speedup %.3gx, %.3gx-%.3gx over its %d run%s and serial's %d, "
		        "against its bound %.3gx\n", w->b.speedup, w->speedup_lo, w->speedup_hi,
		        w->total_s.n, w->total_s.n == 1 ? "" : "s", l->rows[0].total_s.n, w->bound);
	for (int k = 0; k < w->nphases; k++)
		if (w->undeclared_sure & (1ull << k))
			print_phase(f, l, w, k);
}

static void print_too_noisy(FILE *f, const struct ladder *l, const struct row *w, int reference)
{
	const struct row *ref = &l->rows[0];
	unsigned long long phases = w->b.undeclared_faster & ~w->undeclared_sure;
	fprintf(f, "too noisy to tell for %s: ", w->e->name);
	if (w->sol.faster & ~w->faster_sure)
		fprintf(f, "faster than its speed of light at its median, not at its slowest run; ");
	if (!reference && (w->above_bound || w->b.above_n || w->b.above_limit) && !w->beyond_sure)
		fprintf(f, "its speedup %.3gx is beyond its bound %.3gx, but its runs and serial's allow "
		       "%.3gx-%.3gx; ", w->b.speedup, w->bound_kind != BOUND_NONE ? w->bound :
		       w->b.amdahl_n, w->speedup_lo, w->speedup_hi);
	if (!reference && phases)
		fprintf(f, "phases it does not declare ran faster than serial's at the median, within "
		       "the spread of the runs; ");
	fprintf(f, "spread %.1f%% over its %d runs, serial's %.1f%% over %d: no verdict.  Run it on "
	       "an idle machine, or with more --runs\n", 100 * apod_spread_rel(&w->total_s),
	       w->total_s.n, 100 * apod_spread_rel(&ref->total_s), ref->total_s.n);
	for (int k = 0; k < w->nphases && !reference; k++)
		if (phases & (1ull << k))
			print_phase(f, l, w, k);
}

static void print_verdicts(FILE *f, const struct ladder *l)
{
	for (int i = 0; i < l->nrows; i++) {
		const struct row *w = &l->rows[i];
		if (!apod_table_suspect(w, i == 0))
			continue;
		if (w->faster_sure)
			print_faster_than_light(f, l, w, w->faster_sure);
		if (i > 0 && (w->beyond_sure || w->undeclared_sure))
			print_broken(f, l, w);
		if ((w->sol.faster & ~w->faster_sure) ||
		    (i > 0 && !w->beyond_sure && (w->above_bound || w->b.above_n || w->b.above_limit)) ||
		    (i > 0 && (w->b.undeclared_faster & ~w->undeclared_sure)))
			print_too_noisy(f, l, w, i == 0);
	}
}

void apod_table_phase_list(const struct apod_workload *wl, unsigned long long mask, int nphases,
                           char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; i < nphases && used < len; i++)
		if (mask & (1ull << i))
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? "+" : "",
			                         apod_phase_name(wl, i));
}

char *apod_table_print(const struct ladder *l)
{
	char *notes = NULL;
	size_t len = 0;
	FILE *f;
	print_rows(l);
	print_legend(l);
	for (int i = 0; i < l->nrows; i++)
		if (l->rows[i].has_weak)
			apod_table_weak_broken(l->rows[i].e, &l->rows[i].weak);
	/* The lines under the table, kept for the report's page as printed. */
	if (!(f = open_memstream(&notes, &len)))
		f = stdout;
	print_machine(f, l);
	if (l->rows[0].ran)
		print_verdicts(f, l);
	if (f == stdout)
		return NULL;
	if (fclose(f)) {
		free(notes);
		return NULL;
	}
	fputs(notes, stdout);
	return notes;
}

const char apod_table_legend[] =
	"time: the median of the stage's runs (runs), each in a process of its own, in rounds\n"
	"of every stage; spread: half the width of the interval the median lies in (the\n"
	"order statistics of the runs: 75% sure at 3 runs, 94% at 5, 95% from 6) over the\n"
	"median.  P: the fraction of the serial run in the phases a stage declares it\n"
	"changes.  Amdahl at N: the most a stage on N threads could gain over serial.  SoL\n"
	"bound: the speed of light, every phase it ports at the work the workload declares\n"
	"over this machine's measured ceilings, the rest at serial's time (for a GPU stage,\n"
	"Amdahl's law with N the ceiling ratio).  % SoL: the speed of light's least time\n"
	"over the time taken.  limit: Amdahl's bound as N grows without end, 1/(1-P) ('-':\n"
	"P within 1e-5 of 1, so no limit worth printing; P is given to as many places as it\n"
	"takes to tell it from 1 where a limit is printed).  held to: the bound the row is\n"
	"checked against (the lower of Amdahl at N and the SoL bound, for threads).  A\n"
	"model is called broken only when the whole interval lies beyond it; where the\n"
	"interval straddles it, the table says it was too noisy to tell.  verification: the\n"
	"gate's verdict and the output that came closest to its tolerance, its difference\n"
	"as a multiple of the tolerance (`apod verify` shows every output).\n";
