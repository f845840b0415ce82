// One sentence that tells a learner why the lookup and the one-hot product differ, shared by
// every format that reports a difference (text, markdown, JSON, and the note CSV/TSV print on
// stderr). ASCII only; numbers in their shortest round-trip form.
#pragma once

#include <string>

#include "core/kernels/difference.hpp"
#include "core/ids.hpp"

namespace embdemo {

// e.g. "first at ids[0] = 2, column 1: E[3, 1] is inf, and 0 * inf = nan makes the sum X[0] @ E
// nan"; positions as PyTorch indexes them (ids[1, 0] in a batch). Every sentence states only what
// the Difference holds, which difference_holds re-checks.
std::string explain_difference(const Difference& difference, const IdShape& shape = {});

// explain_difference without the "first at ..." location: the cause alone.
std::string explain_cause(const Difference& difference, const IdShape& shape = {});

// The machine name of the cause: "nonfinite_elsewhere", "negative_zero", "nan_bits", "other".
const char* difference_cause_name(Difference::Cause cause);

// The machine name of a NaN difference's source: "quieted", "other_row", "default_nan", "none".
const char* nan_source_name(Difference::NanSource source);

}  // namespace embdemo
