// The pieces of the text view, shared by the plain view, the trace and the walkthrough so that
// a matrix looks the same wherever it appears. Each returns complete lines ending in '\n'.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "core/ids.hpp"
#include "core/lessons/report.hpp"
#include "render/kit/number_format.hpp"
#include "render/kit/id_text.hpp"
#include "render/kit/text_options.hpp"

namespace embdemo {


// Which rows of E a view shows: all of them, or PyTorch's summary plus the rows the ids select
// (up to 8, so a long id list cannot undo the summary).
struct WeightRows {
    std::vector<std::size_t> rows;  // visible rows, k_gap between runs
    std::map<std::size_t, std::vector<std::size_t>> selected;  // row -> positions in ids
    std::size_t hidden_selected = 0;  // selected rows that fall inside a gap
};
WeightRows weight_rows(const DemoReport& report);



std::string describe_origin(const DemoReport& report);  // "nn.Embedding(4, 5).weight", ...

// One column selection and one number format for every block of a screen that shows E or an
// n x d result, so that a value prints the same way wherever it appears and a student can match
// the rows by eye (E's row 2 and the lookup of id 2 line up digit for digit).
//
// A view can spell separate tensors as PyTorch prints each (issue 25): blocks in different
// `group`s get their own mode (fixed, scientific, integer) and width, chosen from their own shown
// values, as print(tensor) chooses per tensor; blocks whose rows a view interleaves (the lookup
// over the product) stay in one group, so their digits line up. `format` covers every shown
// value: the widest cells, which the column budget assumes, and the format of any matrix the
// screen was not chosen for (a trace's running sums).
struct Screen {
    std::vector<std::size_t> cols;  // columns shown, k_gap where a run is elided
    NumberFormat format;
    std::vector<std::pair<const Matrix*, NumberFormat>> formats;  // per block's matrix

    // The format of `m`'s cells: its group's, or `format` for a matrix of no block.
    const NumberFormat& format_of(const Matrix& m) const;
};

// A block of rows of a matrix that a screen shows; every block has the same columns.
struct ScreenBlock {
    const Matrix* matrix;
    std::vector<std::size_t> rows;  // k_gap allowed
    int group = 0;                  // blocks of one group share one number format
};

// The columns (of `cols` in all) that fit `budget` characters of cells for every block, and the
// one number format of every value those columns show. A summarised screen keeps the columns
// `always_show` (a column a sentence names) in view.
Screen choose_screen(const std::vector<ScreenBlock>& blocks, std::size_t cols, int precision,
                     std::size_t budget, const std::vector<std::size_t>& always_show = {});

// The columns that fit `budget` characters of cells (all of them when they fit, otherwise
// PyTorch's edge columns, fewer edges when three do not fit), and the format of every value
// those columns show in E's visible rows, the lookup and the one-hot product.
Screen choose_screen(const DemoReport& report, int precision, std::size_t budget);

// Room for cells that each block leaves in an 80-column line, for choose_screen's budget.
std::size_t weight_cells_budget(const DemoReport& report);   // E with row labels and notes
std::size_t results_cells_budget(const DemoReport& report);  // lookup/product row pairs

// The screen of the plain text view: E and the results.
Screen text_screen(const DemoReport& report, int precision);

std::string render_header(const DemoReport& report);
// E with the selected rows marked.
std::string render_weight(const DemoReport& report, const Screen& screen, const TextOptions& options);
std::string render_onehot(const DemoReport& report, const TextOptions& options);  // X
// The lookup next to the one-hot product: side by side when the pair fits `width` columns,
// otherwise each lookup row above the product row it equals.
std::string render_results(const DemoReport& report, const Screen& screen, std::size_t width);
std::string render_linear_view(const DemoReport& report);
// The verdict, and with options.timing what each form took (timing_sentence).
std::string verdict_line(const DemoReport& report, const TextOptions& options);
// "time on this machine: lookup 0.41 ms, one-hot product 6.21 s (2 threads), 15,000x longer for
// the same bits; X (6,237 x 50,257) is 99.998% zeros"
std::string timing_sentence(const DemoReport& report);

// Any matrix with its row numbers, indented by two spaces and summarised like the others.
std::string render_plain_matrix(const Matrix& m, const TextOptions& options);

// One value on its own in a sentence or equation: the matrix's format without padding, and
// whole numbers without PyTorch's trailing point ("20", not "20.").
std::string format_plain(float value, const NumberFormat& format);

// format_plain for a term of a written-out sum: negative values in parentheses.
std::string format_term(float value, const NumberFormat& format);

}  // namespace embdemo
