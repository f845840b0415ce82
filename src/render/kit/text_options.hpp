// How a text view is laid out for where it is printed: decimals, colour, width.
#pragma once

#include <cstddef>

#include "render/kit/paint.hpp"

namespace embdemo {

struct TextOptions {
    int precision = 4;   // decimals, like torch.set_printoptions(precision=4), PyTorch's default
    Palette palette = Palette::none;  // colour only when the CLI decided it is wanted
    // Where the lookup and the product may stand side by side: 80 columns (the fixed layout of
    // piped output), or a wider terminal's width, as ls uses the terminal it prints to.
    std::size_t width = 80;
    // Measured times change from run to run, so a view prints them only when asked (--timing):
    // the same arguments give the same bytes, on a terminal and in a pipe.
    bool timing = false;
};

}  // namespace embdemo
