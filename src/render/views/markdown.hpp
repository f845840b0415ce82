// A Markdown view for lecture notes: the header as a list, each matrix as a GitHub-flavoured
// table, and the verdict. Numbers are the text view's (PyTorch's print format, --precision
// decimals) and large matrices are summarised the same way, with the selected rows always
// shown: notes want what a learner would see printed, not every float32 bit (use json or csv
// for those). ASCII only, never coloured. --show keeps only the tables it names.
#pragma once

#include <optional>
#include <string>

#include "core/lessons/report.hpp"
#include "core/lessons/report_matrices.hpp"

namespace embdemo {

std::string render_markdown(const DemoReport& report, int precision, const MatrixSelection& show);

}  // namespace embdemo
