// Pieces the text views of the table lessons (positions, tied, factor, bag) share: a header of
// name/value/note lines, a matrix printed as labelled rows under one Screen (so a value prints
// the same in every block), which rows of a long matrix to show, and the verdict line. Each
// returns complete lines ending in '\n'; nothing here knows which lesson it serves.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "core/kernels/embedding.hpp"
#include "core/ids.hpp"
#include "core/matrix.hpp"
#include "render/kit/paint.hpp"
#include "render/kit/parameters.hpp"
#include "render/kit/text_sections.hpp"

namespace embdemo {

// "  vocab    4  (largest id + 1)": the header lines of a lesson (the note is printed in
// parentheses when not empty). With `ids`, ids made from --text get their text and tokens
// (token_parameters) under the "ids" line.
using HeaderLine = Parameter;
std::string render_header_lines(const std::string& title, const std::vector<HeaderLine>& lines);
std::string render_header_lines(const std::string& title, std::vector<HeaderLine> lines, const IdBatch& ids);

// One printed row of a block: matrix row `row` (or k_gap for "..."), a label on its left, a
// note on its right (moved to the next line when the line would pass 80 columns), and a mark.
struct BlockRow {
    std::size_t row = 0;
    std::string label;
    std::string note;
    bool marked = false;  // "> " before the label, painted as selected
};

// The rows of a matrix with `rows` rows worth showing: all of them, or PyTorch's summary (edge
// rows around "...") with up to eight of `forced` kept in view.
std::vector<std::size_t> shown_rows(std::size_t rows, std::size_t cols, const std::vector<std::size_t>& forced = {});

// The widest label and note among `rows`, for the cell budget.
std::size_t widest_label(const std::vector<BlockRow>& rows);
std::size_t widest_note(const std::vector<BlockRow>& rows);

// Characters left for the cells of a line with a label of `label_width` and notes up to
// `note_width` (longer notes wrap to their own line rather than squeezing out columns).
std::size_t block_cells_budget(std::size_t label_width, std::size_t note_width);

// The rows of `m`, labels padded to `label_width`.
std::string render_block(const Matrix& m, const std::vector<BlockRow>& rows, std::size_t label_width,
                         const Screen& screen, Palette palette);

// Text aligned under a screen's number cells, one `cell(column)` per shown column and "..." at a
// gap: the winning ids of max, the column numbers of a trace. `under` is the matrix whose cells
// they line up with (its width), or none for the screen's widest cells.
std::string text_cells(const Screen& screen, const std::function<std::string(std::size_t)>& cell,
                       const Matrix* under = nullptr);

// "ids[2]", or "ids[1,0]" in a batch: torch's index of a flat position.
std::string flat_position_label(const IdBatch& ids, std::size_t flat);

// "verdict: IDENTICAL -- <detail>" or "verdict: DIFFERENT -- <detail>".
std::string render_verdict(bool identical, const std::string& detail, Palette palette);

// "12.3M", "3.9M", "124.4M", "950": a parameter count the way papers round it.
std::string millions(std::uint64_t count);

}  // namespace embdemo
