// --format python: the run as a short PyTorch script, the notebook's own lines with this run's
// ids, sizes, seed and table, that asserts PyTorch's numbers equal embdemo's. The expected
// values are embedded as their float32 bit patterns and compared bit for bit (so -0.0 is not
// 0.0), and every claim the run makes (identical, how many values differ, which rows moved) is
// asserted from PyTorch's own tensors. Valid Python 3; needs torch and numpy only when run.
// One file a lesson (python_script.cpp: lookup and grad; python_<lesson>.cpp), sharing
// render/kit/python_kit. Tokens and cost compute nothing PyTorch could re-run, so have no script.
#pragma once

#include <string>

#include "core/lessons/bag_lesson.hpp"
#include "core/lessons/factor_lesson.hpp"
#include "core/lessons/grad_lesson.hpp"
#include "core/lessons/max_norm_lesson.hpp"
#include "core/kernels/optim.hpp"
#include "core/lessons/positions_lesson.hpp"
#include "core/lessons/report.hpp"
#include "core/lessons/tied_lesson.hpp"

namespace embdemo {

std::string render_lookup_python(const DemoReport& report);

// `upstream_file` is --upstream FILE when G comes from a file, else empty.
std::string render_grad_python(const GradLesson& lesson, const std::string& upstream_file);

// nn.EmbeddingBag on the bags, its output, M and M @ bag.weight with the differences measured.
std::string render_bag_python(const BagLesson& lesson);

// The token and position tables (learned, sinusoidal or rope), the data loader's batch.
std::string render_positions_python(const PositionsLesson& lesson);

// out_head = nn.Linear(d, V, bias=False) sharing E; `hidden_file` is --hidden FILE, else empty.
std::string render_tied_python(const TiedLesson& lesson, const std::string& hidden_file);

// e1 = nn.Embedding(V, r), proj = nn.Linear(r, d, bias=False): lookup and one-hot forms.
std::string render_factor_python(const FactorLesson& lesson);

// nn.Embedding(max_norm=M, norm_type=P): the in-place renorm, the lookup against one_hot @ E.
std::string render_max_norm_python(const MaxNormLesson& lesson);

// torch.optim steps on nn.Embedding: which rows each step moved, and the final table.
std::string render_training_python(const TrainingArgs& args, const TrainingRun& run);

}  // namespace embdemo
