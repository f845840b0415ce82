// The human view of a demonstration: header, E with the selected rows marked, the one-hot X,
// the lookup and the one-hot product next to each other, and a one-line verdict. ASCII only, so
// the bytes are the same on every terminal; colour (when asked for) only decorates.
#pragma once

#include <cstddef>
#include <string>

#include "core/report.hpp"
#include "render/paint.hpp"

namespace embdemo {

struct TextOptions {
    int precision = 4;   // decimals, like torch.set_printoptions(precision=4), PyTorch's default
    Palette palette = Palette::none;  // colour only when the CLI decided it is wanted
    // Where the lookup and the product may stand side by side: 80 columns (the fixed layout of
    // piped output), or a wider terminal's width, as ls uses the terminal it prints to.
    std::size_t width = 80;
};

std::string render_text(const DemoReport& report, const TextOptions& options);

}  // namespace embdemo
