// The machine view of a demonstration: one JSON object, full matrices (never summarised), every
// float in its shortest round-trip form, one matrix row per line so that diffs stay readable.
// The schema is documented in docs/schema.md; "schema" names its version.
#pragma once

#include <string>

#include "core/report.hpp"
#include "core/report_matrices.hpp"

namespace embdemo {

inline constexpr const char* k_json_schema = "embdemo-demo/1";

// With `show` empty, every matrix (the default bytes); otherwise a "shown" field listing the
// matrices named and only those, in the order given.
std::string render_json(const DemoReport& report, const MatrixSelection& show = {});

}  // namespace embdemo
