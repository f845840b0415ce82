// --format python: the run as a short PyTorch script, the notebook's own lines with this run's
// ids, sizes, seed and table, that asserts PyTorch's numbers equal embdemo's. The expected
// values are embedded as their float32 bit patterns and compared bit for bit (so -0.0 is not
// 0.0), and every claim the run makes (identical, how many values differ, which rows moved) is
// asserted from PyTorch's own tensors. Valid Python 3; needs torch and numpy only when run.
// One file a lesson (python_script.cpp: lookup and grad; python_<mode>.cpp; a lesson with a folder,
// render/views/NAME/python.cpp, declared in its view.hpp), sharing
// render/kit/python_kit. Tokens and cost compute nothing PyTorch could re-run, so have no script.
#pragma once

#include <cstdint>
#include <string>

#include "core/lessons/grad_lesson.hpp"
#include "core/lessons/max_norm_lesson.hpp"
#include "core/kernels/optim.hpp"
#include "core/lessons/report.hpp"

namespace embdemo {

std::string render_lookup_python(const DemoReport& report);

// nn.Embedding(max_norm=M, norm_type=P): the in-place renorm, the lookup against one_hot @ E.
std::string render_max_norm_python(const MaxNormLesson& lesson);

}  // namespace embdemo
