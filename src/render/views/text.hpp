// The human view of a demonstration: header, E with the selected rows marked, the one-hot X,
// the lookup and the one-hot product next to each other, and a one-line verdict. ASCII only, so
// the bytes are the same on every terminal; colour (when asked for) only decorates.
#pragma once

#include <cstddef>
#include <string>

#include "core/lessons/report.hpp"
#include "render/kit/text_options.hpp"

namespace embdemo {

std::string render_text(const DemoReport& report, const TextOptions& options);

}  // namespace embdemo
