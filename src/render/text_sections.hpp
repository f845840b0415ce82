// The pieces of the text view, shared by the plain view, the trace and the walkthrough so that
// a matrix looks the same wherever it appears. Each returns complete lines ending in '\n'.
#pragma once

#include <string>

#include "core/report.hpp"
#include "render/number_format.hpp"
#include "render/text.hpp"

namespace embdemo {

std::string format_ids(const TokenIds& ids);        // "[2, 3, 1]", long lists elided
std::string describe_origin(const DemoReport& report);  // "nn.Embedding(4, 5).weight", ...

std::string render_header(const DemoReport& report);
std::string render_weight(const DemoReport& report, const TextOptions& options);  // E, rows marked
std::string render_onehot(const DemoReport& report, const TextOptions& options);  // X
std::string render_results(const DemoReport& report, const TextOptions& options);  // lookup vs X @ E
std::string render_linear_view(const DemoReport& report);
std::string verdict_line(const DemoReport& report, bool color);

// Any matrix with its row numbers, indented by two spaces and summarised like the others.
std::string render_plain_matrix(const Matrix& m, const TextOptions& options);

// One value on its own in a sentence or equation: the matrix's format without padding, and
// whole numbers without PyTorch's trailing point ("20", not "20.").
std::string format_plain(float value, const NumberFormat& format);

// format_plain for a term of a written-out sum: negative values in parentheses.
std::string format_term(float value, const NumberFormat& format);

}  // namespace embdemo
