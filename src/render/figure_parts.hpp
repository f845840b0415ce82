// Building blocks shared by the lookup and grad figures: a matrix's visible rows and columns
// spelled as the text view spells them, and the colour keys of the ids. Internal to
// render/figure*.cpp.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/ids.hpp"
#include "core/matrix.hpp"
#include "render/figure.hpp"
#include "render/number_format.hpp"

namespace embdemo {

// A key per distinct id, in order of first appearance (only ids whose rows are in view).
struct IdKeys {
    std::map<std::uint64_t, int> of_id;
    std::vector<std::string> names;
};
IdKeys id_keys(const TokenIds& ids, const IdShape& shape, const std::vector<std::size_t>& rows_in_view);
int key_of(const IdKeys& keys, std::uint64_t id);

// `rows` x `cols` of `m` (k_gap allowed in both) as figure rows, each value as the text view
// prints it; `decorate` fills in label, key, note and table_row of each visible row.
FigureMatrix numeric_matrix(const Matrix& m, const std::vector<std::size_t>& rows,
                            const std::vector<std::size_t>& cols, const NumberFormat& format,
                            const std::function<void(std::size_t, FigureRow&)>& decorate);

// A 0/1 matrix given by where its 1s are: `one(r, c)`; the 1s are marked.
FigureMatrix indicator_matrix(const std::vector<std::size_t>& rows, const std::vector<std::size_t>& cols,
                              const std::function<bool(std::size_t, std::size_t)>& one,
                              const std::function<void(std::size_t, FigureRow&)>& decorate);

// Frames the cells of `shown` (rows x cols of `b`) whose bits differ from `a`'s, so that a
// differing run shows where, not only how many.
void mark_differences(FigureMatrix& shown, const Matrix& a, const Matrix& b, const std::vector<std::size_t>& rows,
                      const std::vector<std::size_t>& cols);

// Column labels: the numbers, "" for a gap.
std::vector<std::string> position_labels(const std::vector<std::size_t>& positions);

// The index into `rows` (visible positions, k_gap between runs) where `row` is shown, or else
// the gap that hides it.
std::size_t figure_row_of(const std::vector<std::size_t>& rows, std::size_t row);

// "4 x 5" with thousands separators.
std::string shape_text(std::size_t rows, std::size_t cols);

}  // namespace embdemo
