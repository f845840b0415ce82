// The human view of a demonstration: header, E with the selected rows marked, the one-hot X,
// the lookup and the one-hot product next to each other, and a one-line verdict. ASCII only, so
// the bytes are the same on every terminal; colour (when asked for) only decorates.
#pragma once

#include <string>

#include "core/report.hpp"
#include "render/paint.hpp"

namespace embdemo {

struct TextOptions {
    int precision = 4;   // decimals, like torch.set_printoptions(precision=4), PyTorch's default
    Palette palette = Palette::none;  // colour only when the CLI decided it is wanted
};

std::string render_text(const DemoReport& report, const TextOptions& options);

}  // namespace embdemo
