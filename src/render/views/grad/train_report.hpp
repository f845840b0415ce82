// `embdemo grad --optimizer ...` for the machine formats (schema embdemo-grad-steps/1 in
// docs/schema.md): its JSON is E before and after the run and a list of the rows each step
// moved; csv, tsv and markdown also get every step's G, dE and E, and the moved rows as a table.
#pragma once

#include "core/kernels/optim.hpp"
#include "render/kit/lesson_report.hpp"

namespace embdemo {

inline constexpr const char* k_train_json_schema = "embdemo-grad-steps/1";

// The tables point into `run` (the moved rows into the report itself).
LessonReport training_report(const TrainingArgs& args, const TrainingRun& run);

}  // namespace embdemo
