/*
 * apod/region.hpp: a phase's region in C++, opened and closed by scope.
 *
 *     apod::region r(clock, phase);   // apod_phase_begin(clock, phase)
 *     ...                             // the phase's work
 *                                     // apod_phase_end at the end of the scope
 *
 * `phase` is a handle apod_phase_find gave at create_timed (apod/workload.h,
 * revision 5).  A failure (a region opened inside another, a stage's mark
 * that fails) is recorded by the harness's clock, and the run fails with it
 * when advance returns: a constructor and a destructor cannot return -1,
 * and need not.  ok() says whether the region opened, for a stage that
 * would rather stop at once.
 */
#ifndef APOD_REGION_HPP
#define APOD_REGION_HPP

#ifndef __cplusplus
#error "apod/region.hpp is for C++; C marks a region with apod_phase_begin and apod_phase_end"
#endif

#include "workload.h"

namespace apod {

class region {
public:
	region(apod_clock *clock, int phase) noexcept
		: clock_(clock), phase_(phase), open_(apod_phase_begin(clock, phase) == 0)
	{
	}
	~region() { end(); }
	region(const region &) = delete;
	region &operator=(const region &) = delete;

	bool ok() const noexcept { return open_; }
	/* Close the region before the end of its scope: 0, or -1 (recorded). */
	int end() noexcept
	{
		if (!open_)
			return 0;
		open_ = false;
		return apod_phase_end(clock_, phase_);
	}

private:
	apod_clock *clock_;
	int phase_;
	bool open_;
};

}  // namespace apod

#endif
