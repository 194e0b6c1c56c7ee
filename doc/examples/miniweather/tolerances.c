/* placeholder */
#include <float.h>
#include "miniweather.h"
void field_tolerance(const void *params, const void *problem, int any_float, int column,
                     enum apod_compare kind, struct apod_tol *t)
{
	(void)params; (void)problem; (void)any_float; (void)column; (void)kind;
	t->atol = 1e-6;
	t->rtol = 0;
}
void mass_tolerance(const void *params, const void *problem, int any_float, int column,
                    enum apod_compare kind, struct apod_tol *t)
{
	(void)params; (void)problem; (void)any_float; (void)column; (void)kind;
	t->atol = 0;
	t->rtol = 1e-12;
}
void te_tolerance(const void *params, const void *problem, int any_float, int column,
                  enum apod_compare kind, struct apod_tol *t)
{
	(void)params; (void)problem; (void)any_float; (void)column; (void)kind;
	t->atol = 0;
	t->rtol = 1e-10;
}
