// Timing attention's scoring on one sentence: the page's "µs per step" and scripts/bench's
// additive-vs-dot rows both come from here, so they measure the kernels translation runs.
#pragma once
#include "bahdanau.h"
#include "core/model.h"

namespace bl {

// a.n > 0 and params already checked. s_{i-1} is a.s0: the kernels do the same work whatever
// the values (no data-dependent branches), so any state measures every step.
ScoringCost measure_scoring(const Model& m, const Annotations& a, const ScoringCostParams& p);

}  // namespace bl
