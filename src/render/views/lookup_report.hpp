// The lookup lesson (the notebook's demonstration) as a LessonReport, for json, csv and tsv:
// E, X, E[ids], X @ E and the nn.Linear output, and the verdict with where and why the two
// first differ. The schema is embdemo-demo/1 (docs/schema.md).
#pragma once

#include "core/lessons/report.hpp"
#include "core/lessons/report_matrices.hpp"
#include "render/kit/lesson_report.hpp"

namespace embdemo {

inline constexpr const char* k_json_schema = "embdemo-demo/1";

// With `show` empty, every matrix; otherwise a "shown" field listing the matrices named and only
// those, in the order given. The report points into `report`, which must outlive it.
// With `timing`, the checks end with what each form took ("timing"): it changes from run to
// run, so it is there only when asked for (--timing).
LessonReport lookup_report(const DemoReport& report, const MatrixSelection& show = {}, bool timing = false);

}  // namespace embdemo
