// --format python: the run as a short PyTorch script, the notebook's own lines with this run's
// ids, sizes, seed and table, that asserts PyTorch's numbers equal embdemo's. The expected
// values are embedded as the shortest decimals that read back as the same float32, and are
// compared bit for bit (so -0.0 is not 0.0). Valid Python 3; needs torch (and numpy for a
// weight file) only when run.
#pragma once

#include <string>

#include "core/grad_lesson.hpp"
#include "core/report.hpp"

namespace embdemo {

std::string render_lookup_python(const DemoReport& report);

// `upstream_file` is --upstream FILE when G comes from a file, else empty.
std::string render_grad_python(const GradLesson& lesson, const std::string& upstream_file);

}  // namespace embdemo
