// Building blocks shared by the lookup and grad figures: a matrix's visible rows and columns
// spelled as the text view spells them, and the colour keys of the ids. Internal to
// render/views/figure*.cpp.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/kernels/embedding.hpp"
#include "core/ids.hpp"
#include "core/matrix.hpp"
#include "core/kernels/max_norm.hpp"
#include "render/kit/figure_model.hpp"
#include "render/kit/number_format.hpp"

namespace embdemo {

// A key per distinct id, in order of first appearance (only ids whose rows are in view), named
// "id 2: ids[0]", or `id 7120 "Your": ids[0]` when the ids came from a text.
struct IdKeys {
    std::map<std::uint64_t, int> of_id;
    std::vector<std::string> names;
    IdSource source;  // the ids' text, so that a keyed table row can name its token
};
IdKeys id_keys(const TokenIds& ids, const IdShape& shape, const std::vector<std::size_t>& rows_in_view,
              const IdSource& source = {});
int key_of(const IdKeys& keys, std::uint64_t id);

// `rows` x `cols` of `m` (k_gap allowed in both) as figure rows, each value as the text view
// prints it; `decorate` fills in label, key, note and table_row of each visible row.
FigureMatrix numeric_matrix(const Matrix& m, const std::vector<std::size_t>& rows,
                            const std::vector<std::size_t>& cols, const NumberFormat& format,
                            const std::function<void(std::size_t, FigureRow&)>& decorate);

// The same for values the figure has no Matrix of (E.T, P[t] repeated per row): `value(r, c)`.
FigureMatrix value_matrix(const std::vector<std::size_t>& rows, const std::vector<std::size_t>& cols,
                          const std::function<float(std::size_t, std::size_t)>& value, const NumberFormat& format,
                          const std::function<void(std::size_t, FigureRow&)>& decorate);

// Cells that are words or ids rather than numbers: `cell(r, c)`, marked where `mark(r, c)`.
FigureMatrix text_matrix(const std::vector<std::size_t>& rows, const std::vector<std::size_t>& cols,
                         const std::function<std::string(std::size_t, std::size_t)>& cell,
                         const std::function<bool(std::size_t, std::size_t)>& mark,
                         const std::function<void(std::size_t, FigureRow&)>& decorate);

// The ids at `positions` (k_gap allowed) as one column, labelled "ids[1, 0]", keyed by id; each
// cell the id, with its token (short_id_label) when the ids came from a text.
FigureMatrix id_column(const IdBatch& ids, const std::vector<std::size_t>& positions, const IdKeys& keys);

// Decorations for the rows of a figure matrix: a result row i of an n x d result ("ids[1, 0]",
// keyed by its id), and a table row k (its row number for the page, keyed when an id selects it;
// such a row is labelled `7120 "Your"` when the ids came from a text).
using RowDecoration = std::function<void(std::size_t, FigureRow&)>;
RowDecoration per_id_row(const IdBatch& ids, const IdKeys& keys);
RowDecoration table_row(const IdKeys& keys);

// The distinct ids, ascending: the rows of a table that a run selects.
std::vector<std::size_t> used_rows(const TokenIds& ids);

// A lookup drawn as arrows: `selector`'s row r (position positions[r]) points at the row of
// `table` it selects (shown as `table_rows`), which points at row r of `result`.
FigurePanel lookup_panel(std::string title, FigureMatrix selector, FigureMatrix table, FigureMatrix result,
                         const std::vector<std::size_t>& positions, const std::vector<std::size_t>& table_rows,
                         const std::function<std::size_t(std::size_t)>& selected,
                         const std::function<int(std::size_t)>& key);

// Matrices joined by operators ("x", "=", "+", "->"), no arrows; one item alone for a table.
FigurePanel joined_panel(std::string title, std::vector<FigureMatrix> items, std::vector<std::string> ops = {});

// One 0/1 row per position at `positions`, its 1 at `selected(i)` among `table_rows`: the
// one-hot matrix whose columns meet the table's shown rows.
FigureMatrix onehot_matrix(const std::vector<std::size_t>& positions, const std::vector<std::size_t>& table_rows,
                           const std::function<std::size_t(std::size_t)>& selected,
                           const std::function<void(std::size_t, FigureRow&)>& decorate);

// "The lookup and the one-hot product agree bit for bit: all 12 values." or "... differ in 3
// of 12 values (framed)." for two forms compared bit for bit.
std::string agreement_sentence(const std::string& forms, const Comparison& check, std::size_t total);

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

// nn.Embedding's max_norm: E as drawn beside E after the forward's in-place renorm, rows `rows`
// x `cols` of both in `format`. Each row the renorm saw (`seen`, from embedding_renorm) notes its
// norm; each rescaled row gets an arrow, its scale and its changed cells framed.
struct RenormPanel {
    FigureMatrix drawn;  // "E as drawn"
    FigureMatrix after;  // "E after emb(ids)"
    FigurePanel panel;   // the two joined by the arrows
};
RenormPanel renorm_panel(const std::vector<RenormRow>& seen, const Matrix& drawn, const Matrix& after,
                         const std::vector<std::size_t>& rows, const std::vector<std::size_t>& cols,
                         const NumberFormat& format, const IdKeys& keys);

}  // namespace embdemo
