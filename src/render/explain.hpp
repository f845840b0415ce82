// One sentence that tells a learner why the lookup and the one-hot product differ, shared by
// every format that reports a difference (text, markdown, JSON, and the note CSV/TSV print on
// stderr). ASCII only; numbers in their shortest round-trip form.
#pragma once

#include <string>

#include "core/difference.hpp"

namespace embdemo {

// e.g. "first at ids[0] = 2, column 1: E[3][1] is inf, and 0 * inf = nan poisons the sum X[0] @ E"
std::string explain_difference(const Difference& difference);

// explain_difference without the "first at ..." location: the cause alone.
std::string explain_cause(const Difference& difference);

// The machine name of the cause: "nonfinite_elsewhere", "negative_zero", "nan_bits", "other".
const char* difference_cause_name(Difference::Cause cause);

}  // namespace embdemo
