// Laying out a matrix as aligned rows of text, summarised the way PyTorch prints large tensors
// (the first and last three rows/columns around "..."), so that a 50,257-row table never floods
// a terminal. Rows and columns that must stay visible (the selected rows) can be forced in.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/matrix.hpp"
#include "render/kit/number_format.hpp"

namespace embdemo {

// Marks an elided run of rows or columns in a list of visible positions.
inline constexpr std::size_t k_gap = static_cast<std::size_t>(-1);

// PyTorch summarises a tensor of more than 1000 elements, keeping 3 items at each edge.
inline constexpr std::size_t k_summary_threshold = 1000;
inline constexpr std::size_t k_edge_items = 3;

// The width of a classic terminal, and of most classroom projectors' terminals.
inline constexpr std::size_t k_max_line_width = 80;

// One-hot rows up to this many columns are spelled out ("0 0 1 0"); wider ones are described
// ("1 at column k") or elided around the 1.
inline constexpr std::size_t k_max_spelled_onehot = 24;

bool should_summarise(std::size_t rows, std::size_t cols);

// 0..size-1, or, when summarising, the edges plus `always_show` (sorted), with k_gap between
// runs that are not adjacent.
std::vector<std::size_t> visible_positions(std::size_t size, bool summarise,
                                           std::vector<std::size_t> always_show = {},
                                           std::size_t edge_items = k_edge_items);

// How many of `wanted` (distinct rows) a summary left out of `shown` (a visible_positions list).
std::size_t hidden_count(const std::vector<std::size_t>& shown, const std::vector<std::size_t>& wanted);

// "  (2 more of the rows the ids use are inside the \"...\")\n" for `hidden` rows of `what`
// ("the rows the ids use"), or "" when none is hidden: a summary that marks some used rows says
// how many it does not show.
std::string hidden_rows_line(std::size_t hidden, const std::string& what);
// The same as a figure's caption sentence: "2 more of the rows the ids use fall inside the \"...\"."
std::string hidden_rows_sentence(std::size_t hidden, const std::string& what);

// The columns of `m` to show for the given rows: all of them when PyTorch would not summarise
// and they fit in `budget` characters, otherwise the edge columns around a gap (three at each
// edge like PyTorch, fewer when three do not fit).
std::vector<std::size_t> fitting_columns(const Matrix& m, const std::vector<std::size_t>& rows,
                                         int precision, std::size_t budget);

// The number format for the visible cells of `m`, as PyTorch chooses it for what it prints.
NumberFormat visible_format(const Matrix& m, const std::vector<std::size_t>& rows,
                            const std::vector<std::size_t>& cols, int precision);

// The width format_row_cells takes for these columns: cells of `cell_width`, "..." for a gap,
// one space between them.
std::size_t cells_width(const std::vector<std::size_t>& cols, std::size_t cell_width);

// The visible cells of row `r`, right-aligned and joined by one space, "..." for a column gap.
std::string format_row_cells(const Matrix& m, std::size_t r, const std::vector<std::size_t>& cols,
                             const NumberFormat& format);

// `text` wrapped at spaces into lines of at most `width` columns (a longer word keeps its own
// line), the first starting with `first_prefix`, the others with `prefix`. The spaces around a
// lone "@" or "x", and before "ulp", do not break: "M @ E", "3 x 50,257" and "1 ulp" stay on
// one line. The text views wrap at k_max_line_width; a figure's caption at the drawing's width.
std::string wrap_words(const std::string& text, const std::string& first_prefix,
                       const std::string& prefix, std::size_t width = k_max_line_width);

// `items` joined by `separator`, as many to a line as fit in k_max_line_width terminal columns
// (UTF-8 token labels counted as displayed); the first line starts with `first`, the others
// with `indent`. An item never breaks inside: labels can hold spaces, which wrap_words would cut.
std::string fit_items(const std::vector<std::string>& items, const std::string& first, const std::string& indent,
                      const std::string& separator);

// A string of `count` spaces, or `text` padded with spaces on the right/left to `width`.
std::string pad_right(std::string text, std::size_t width);
std::string pad_left(std::string text, std::size_t width);

}  // namespace embdemo
