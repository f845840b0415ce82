#include "render/views/walkthrough.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/lessons/cost.hpp"
#include "core/escape.hpp"
#include "core/torch/init.hpp"
#include "core/limits.hpp"
#include "core/torch/torch_rng.hpp"
#include "render/kit/paint.hpp"
#include "render/kit/parameters.hpp"
#include "render/kit/table.hpp"
#include "render/kit/text_sections.hpp"
#include "render/kit/torch_lines.hpp"
#include "render/views/trace.hpp"
#include "render/views/walkthrough_text.hpp"

namespace embdemo {
namespace {

// A line of the notebook's PyTorch code, set off so that it reads as code.
std::string code(const std::string& line) { return "      " + line + '\n'; }

// Rows of numbers under the narration sit between it and the code.
constexpr const char* k_row_indent = "    ";

// Narration, wrapped to the 80-column budget and indented by two spaces.
std::string paragraph(const std::string& text) { return wrap_words(text, "  ", "  "); }

// "ids 0 to 3", or "id 0" when there is only one.
std::string id_range(std::uint64_t vocab_size) {
    return vocab_size == 1 ? std::string("id 0") : fmt::format("ids 0 to {}", vocab_size - 1);
}

WalkthroughStep step_ids(const DemoReport& report) {
    const DemoRequest& request = report.request;
    using Source = DemoRequest::VocabSource;
    const bool from_text = request.source.from_text();
    WalkthroughStep step{"the token ids", "", {}};
    std::string& out = step.body;
    if (from_text) {
        // Step 1 (walkthrough_text) showed the text and the loader; here are the ids the layer gets.
        const bool loader = request.source.loader.used();
        out += paragraph(fmt::format("The embedding layer gets {}{}, not the text (ids count from 0, as in PyTorch):",
                                     count_of(request.ids.size(), "token id", "token ids"),
                                     loader ? ", the loader's first batch" : ""));
        const std::vector<Parameter> rows = token_parameters(request.id_batch());
        // Only GPT-2's ids had a step of their own for the text (its pieces and merges).
        const std::size_t first = request.source.tokenizer == TokenizerKind::gpt2 ? 1 : 0;
        for (std::size_t r = first; r < rows.size() && rows[r].name != "loader"; ++r) out += format_parameter_row(rows[r]);
        out += code(loader ? "idx = inputs" : "idx = torch.tensor(token_ids)");
    } else {
        out += paragraph(fmt::format("We start from {}, the way a tokenizer hands them to a model "
                                     "(ids count from 0, as in PyTorch):",
                                     count_of(request.ids.size(), "token id", "token ids")));
        out += code(ids_python(request));
    }
    switch (request.vocab_source) {
        case Source::largest_id:
            out += paragraph(fmt::format(
                "The embedding table needs one row for every possible id. The largest id is {}, so "
                "the vocabulary size is V = {} + 1 = {} ({}):",
                request.vocab_size - 1, request.vocab_size - 1, group_thousands(request.vocab_size),
                id_range(request.vocab_size)));
            // The notebook's max(idx) works on a list; a batch (2-D tensor) needs idx.max().
            out += code(fmt::format("num_idx = {} + 1    # {}", request.shape.batched ? "int(idx.max())" : "max(idx)",
                                    request.vocab_size));
            break;
        case Source::weights_file:
            out += paragraph(fmt::format(
                "The embedding table needs one row for every possible id; here the table comes from "
                "a file with V = {} {} ({}).",
                group_thousands(request.vocab_size), request.vocab_size == 1 ? "row" : "rows",
                id_range(request.vocab_size)));
            break;
        case Source::tokenizer:
            if (request.source.tokenizer == TokenizerKind::gpt2) {
                out += paragraph(fmt::format(
                    "The embedding table needs one row for every possible id. These ids index GPT-2's "
                    "vocabulary, so V = {}, GPT-2's vocabulary size ({}):",
                    group_thousands(request.vocab_size), id_range(request.vocab_size)));
                out += code(fmt::format("num_idx = tokenizer.n_vocab    # {}", request.vocab_size));
                break;
            }
            out += paragraph(fmt::format(
                "The embedding table needs one row for every possible id. These ids index {}, so "
                "V = {}, its size ({}):", tokenizer_vocabulary(request.source.tokenizer),
                group_thousands(request.vocab_size), id_range(request.vocab_size)));
            out += code(fmt::format("num_idx = {}    # the tokenizer's vocabulary size", request.vocab_size));
            break;
        case Source::option:
            out += paragraph(fmt::format(
                "The embedding table needs one row for every possible id; here the vocabulary size "
                "was chosen with --vocab: V = {} ({}).",
                group_thousands(request.vocab_size), id_range(request.vocab_size)));
            break;
    }
    if (request.origin.kind == WeightOrigin::Kind::file) {
        out += paragraph(fmt::format("The embedding dimension d = {} comes with the file too.",
                                     group_thousands(request.dim)));
        return step;
    }
    out += paragraph(fmt::format(
        "The embedding dimension d = {} is a free choice (a hyperparameter):", request.dim));
    out += code(fmt::format("out_dim = {}", request.dim));
    return step;
}

// The notebook's own table: torch.manual_seed(123) and nn.Embedding(4, 5). Only then are the
// numbers "the ones the notebook prints".
bool is_notebook_table(const DemoRequest& request) {
    return request.origin.kind == WeightOrigin::Kind::torch && request.seed == 123 &&
           request.vocab_size == 4 && request.dim == 5;
}

// The PyTorch lines that make this run's E, whatever its origin, quoted as code.
std::string weight_code(const DemoRequest& request) {
    std::string out;
    for (const std::string& line : weight_python(request)) out += code(line);
    return out;
}

std::string weight_story(const DemoRequest& request) {
    std::string story = fmt::format("An embedding layer is a table E of V x d = {} x {} numbers, "
                                    "one row per id. ",
                                    group_thousands(request.vocab_size), group_thousands(request.dim));
    switch (request.origin.kind) {
        case WeightOrigin::Kind::torch:
            return story + fmt::format(
                "PyTorch fills it with random numbers from a standard normal distribution; "
                "embdemo draws them exactly as PyTorch does on a CPU, so these are the numbers "
                "PyTorch prints for seed {} and a {} x {} table, bit for bit{}:",
                request.seed, group_thousands(request.vocab_size), group_thousands(request.dim),
                is_notebook_table(request) ? " (the very numbers the notebook prints)" : "");
        case WeightOrigin::Kind::torch_randint:
            return story + fmt::format(
                "Here it holds small whole numbers instead (--init randint), drawn as "
                "torch.randint({}, {}, (V, d)) draws them after torch.manual_seed({}), so every "
                "product below can be checked by hand:",
                k_randint_low, k_randint_high, request.seed);
        case WeightOrigin::Kind::index_pattern:
            return story + fmt::format("Here it holds a pattern instead (--init index): E[k, j] = {}, "
                                       "so every number tells its own row and column; nothing is "
                                       "random:",
                                       request.origin.detail);
        case WeightOrigin::Kind::file: break;
    }
    return story + fmt::format("Here it was read from a file (--weights {}), which also decided V "
                               "and d; no random numbers are drawn:",
                               escape_for_message(request.origin.detail));
}

WalkthroughStep step_weight(const DemoReport& report, const Screen& screen, const TextOptions& options) {
    const DemoRequest& request = report.request;
    const bool seeded = request.origin.kind == WeightOrigin::Kind::torch ||
                        request.origin.kind == WeightOrigin::Kind::torch_randint;
    WalkthroughStep step{seeded ? "seeding, and the embedding matrix E" : "the embedding matrix E", "", {}};
    std::string& out = step.body;
    out += weight_code(request);
    out += paragraph(weight_story(request));
    out += '\n' + render_weight(report, screen, options);
    return step;
}

// Rows of E labelled by the ids that select them, as `embedding(...)` returns them.
std::string render_lookup_rows(const Matrix& weight, const TokenIds& ids, const Screen& screen) {
    const auto rows = visible_positions(ids.size(), should_summarise(ids.size(), weight.cols));
    std::size_t label_width = 0;
    for (const std::size_t r : rows) {
        if (r != k_gap) label_width = std::max(label_width, fmt::format("E[{}]", ids[r]).size());
    }
    std::string out;
    for (const std::size_t r : rows) {
        const std::string label = r == k_gap ? "..." : fmt::format("E[{}]", ids[r]);
        const std::string cells = r == k_gap ? "" : format_row_cells(weight, ids[r], screen.cols, screen.format_of(weight));
        out += fmt::format("{}{}  {}\n", k_row_indent, pad_right(label, label_width), cells);
    }
    return out;
}

// The notebook looks up one id first (its last example, id 1), then another (its first, id 2),
// then the whole list; the same order for any ids.
std::vector<std::uint64_t> single_lookups(const TokenIds& ids) {
    std::vector<std::uint64_t> singles{ids.back()};
    if (ids.front() != ids.back()) singles.push_back(ids.front());
    return singles;
}

WalkthroughStep step_lookup(const DemoReport& report, const Screen& screen) {
    const TokenIds& ids = report.request.ids;
    WalkthroughStep step{"looking up ids", "", {}};
    std::string& out = step.body;
    const std::vector<std::uint64_t> singles = single_lookups(ids);
    for (std::size_t i = 0; i < singles.size(); ++i) {
        out += paragraph(i == 0 ? fmt::format("Looking up one id returns one row of E, nothing else. Id {}:", singles[i])
                                : fmt::format("The same for id {}:", singles[i]));
        out += code(fmt::format("embedding(torch.tensor([{}]))", singles[i]));
        out += render_lookup_rows(report.weight, {singles[i]}, screen);
    }
    if (ids.size() == 1) return step;
    out += paragraph("Looking up all the ids returns their rows, in the order of the ids (a "
                     "repeated id simply returns its row again):");
    out += code("embedding(idx)");
    out += render_lookup_rows(report.weight, ids, screen);
    return step;
}

WalkthroughStep step_onehot(const DemoReport& report, const TextOptions& options) {
    const DemoRequest& request = report.request;
    WalkthroughStep step{"the one-hot matrix X", "", {}};
    std::string& out = step.body;
    out += code(request.vocab_inferred
                    ? std::string("onehot = torch.nn.functional.one_hot(idx)")
                    : fmt::format("onehot = torch.nn.functional.one_hot(idx, num_classes={})",
                                  request.vocab_size));
    out += paragraph(fmt::format("Each id becomes a row of V = {}: {}a 1 in the column whose number is the id. "
                                 "X has one row per id: {}.",
                                 count_of(request.vocab_size, "number", "numbers"),
                                 request.vocab_size == 1 ? "" : "all 0, except ",
                                 per_id_shape(request.shape, request.ids.size(), request.vocab_size)));
    out += '\n';
    out += render_onehot(report, options);
    return step;
}

// W = E.T read straight from E (column k of W is row k of E), with the columns the ids pick
// marked by "^" the way E marks its selected rows by ">". Never materialises the transpose.
std::string render_transposed_weight(const DemoReport& report, const Screen& screen, const TextOptions& options) {
    const Matrix& e = report.weight;
    const WeightRows selection = weight_rows(report);
    // The same selected rows E keeps in view become the columns W keeps in view.
    std::vector<std::size_t> forced;
    for (const std::size_t k : selection.rows) {
        if (k != k_gap && selection.selected.count(k) > 0) forced.push_back(k);
    }
    const std::size_t label_width = std::to_string(e.cols - 1).size();
    const std::size_t cell = std::max(screen.format.width, std::to_string(e.rows - 1).size());
    // Like PyTorch's summary: edge columns and "...", plus as many of the picked columns as fit;
    // first fewer edge columns, then fewer picked ones, until the block fits 80 columns.
    std::vector<std::size_t> cols;
    std::size_t kept = forced.size();
    for (bool fits = false; !fits;) {
        const std::vector<std::size_t> keep(forced.begin(), forced.begin() + static_cast<std::ptrdiff_t>(kept));
        for (std::size_t edges = k_edge_items + 1; edges-- > 1 && !fits;) {
            cols = visible_positions(e.rows, should_summarise(e.rows, e.cols) || edges < k_edge_items || kept < forced.size(),
                                     keep, edges);
            fits = cells_width(cols, cell) + label_width + 4 <= k_max_line_width;
        }
        if (kept == 0) break;
        if (!fits) --kept;
    }
    const auto rows = visible_positions(e.cols, should_summarise(e.cols, e.rows));
    const auto is_selected = [&](std::size_t k) { return selection.selected.count(k) > 0; };
    const auto line = [&](const auto& cell_text) {
        std::string text;
        for (const std::size_t k : cols) text += ' ' + (k == k_gap ? std::string("...") : cell_text(k));
        return text;
    };
    const std::string margin(label_width + 3, ' ');
    // GPT-2's sizes (768 x 50,257) leave no room for the note beside the title: it goes below.
    const std::string title = fmt::format("W = E.T   {} x {}", group_thousands(e.cols), group_thousands(e.rows));
    const std::string note = "(column k is row k of E; ^ marks the columns the ids pick)";
    std::string out = title.size() + 3 + note.size() <= k_max_line_width ? title + "   " + note + '\n'
                                                                         : title + "\n  " + note + '\n';
    out += margin + line([&](std::size_t k) { return pad_left(std::to_string(k), cell); }) + '\n';
    for (const std::size_t j : rows) {
        if (j == k_gap) {
            out += fmt::format("  {}  ...\n", std::string(label_width, ' '));
            continue;
        }
        out += fmt::format("  {} ", pad_left(std::to_string(j), label_width)) + line([&](std::size_t k) {
                   const std::string text = pad_left(format_number(e.at(k, j), screen.format), cell);
                   return is_selected(k) ? paint(text, Paint::selected, options.palette) : text;
               }) + '\n';
    }
    out += margin + line([&](std::size_t k) {
               return pad_left(is_selected(k) ? paint("^", Paint::selected, options.palette) : " ", cell);
           });
    while (!out.empty() && out.back() == ' ') out.pop_back();
    out += '\n';
    std::size_t hidden = 0;
    for (const std::size_t k : forced) hidden += std::find(cols.begin(), cols.end(), k) == cols.end() ? 1 : 0;
    if (hidden > 0) out += fmt::format("  ({} more picked {} inside the \"...\")\n", hidden, hidden == 1 ? "column falls" : "columns fall");
    return out;
}

// `before`: the steps before the notebook's first (1 for a text), so that a step cites the right number.
std::string linear_story(const DemoRequest& request, std::size_t before) {
    const std::string bound = fmt::format("{:.4f}", kaiming_uniform_bound(request.vocab_size));
    std::string story = fmt::format(
        "A linear layer computes X @ W.T. PyTorch stores its weight W as out x in, that is d x V "
        "= {} x {}, and starts it with uniform random numbers between -1/sqrt({}) and "
        "+1/sqrt({}) = {} (drawn here exactly as PyTorch draws them after torch.manual_seed({})",
        group_thousands(request.dim), group_thousands(request.vocab_size), request.vocab_size,
        request.vocab_size, bound, request.seed);
    if (request.origin.kind == WeightOrigin::Kind::torch) return story + fmt::format(", the seed of step {}):", 2 + before);
    return story + "; which numbers they are does not matter, they are replaced next):";
}

WalkthroughStep step_linear(const DemoReport& report, const Matrix& linear_init, const Screen& screen,
                        const TextOptions& options, std::size_t before) {
    const DemoRequest& request = report.request;
    WalkthroughStep step{"a linear layer, then E.T as its weight", "", {}};
    std::string& out = step.body;
    out += code(fmt::format("torch.manual_seed({})", request.seed));
    out += code(fmt::format("linear = torch.nn.Linear({}, {}, bias=False)", request.vocab_size,
                            request.dim));
    out += paragraph(linear_story(request, before));
    out += '\n';
    out += fmt::format("W = linear.weight   {} x {}\n", group_thousands(linear_init.rows),
                       group_thousands(linear_init.cols));
    out += render_plain_matrix(linear_init, options);
    out += '\n' + paragraph(fmt::format(
        "To compare it with the embedding, give it E's numbers. W must be {} x {} and E is {} x "
        "{}, so W = E.T: row k of E becomes column k of W. The transpose is only how PyTorch "
        "stores a linear layer (out x in); the numbers are the same, and .T copies none of them: "
        "W is a view of E's own memory, read with its strides swapped.",
        group_thousands(request.dim), group_thousands(request.vocab_size),
        group_thousands(request.vocab_size), group_thousands(request.dim)));
    out += code("linear.weight = torch.nn.Parameter(embedding.weight.T)");
    out += '\n' + render_transposed_weight(report, screen, options);
    return step;
}

WalkthroughStep step_product(const DemoReport& report, const TraceLayout& layout, const TextOptions& options,
                             std::size_t before) {
    const bool identical = report.verdict.identical;
    WalkthroughStep step{identical ? "the product equals the lookup" : "the product differs from the lookup", "", {}};
    std::string& out = step.body;
    out += code("linear(onehot.float())    # X @ W.T, which is X @ E");
    out += paragraph(fmt::format("Next to the lookup from step {}:", 3 + before));
    out += '\n';
    out += render_results(report, layout.screen, options.width);
    std::size_t traced = 0;
    const std::size_t nonfinite_columns = static_cast<std::size_t>(
        std::count(layout.finite_columns.begin(), layout.finite_columns.end(), false));
    if (identical && nonfinite_columns == 0) {
        out += '\n' + paragraph("Why they agree, for the first id: in each dot product every term "
                                "but one is multiplied by 0, and the remaining one is multiplied by 1.");
    } else if (identical) {
        // 0 * inf and 0 * nan are nan: those terms are not 0, and the sum is nan. It agrees only
        // because the lookup's value there is a NaN with the same bits.
        out += '\n' + paragraph(fmt::format(
            "Why they agree, for the first id: every term but one is 0 * E[k, j], but E holds inf or nan in "
            "{}, and there 0 * inf and 0 * nan are nan, not 0, so the sum is nan. It matches the lookup bit "
            "for bit only because the lookup's value there is a NaN with the same bits as the sum's{}.",
            nonfinite_columns == report.weight.cols
                ? std::string(report.weight.cols == 1 ? "its one column" : "every column")
                : fmt::format("{} of its {} columns", nonfinite_columns, report.weight.cols),
            nonfinite_columns == report.weight.cols ? "" : "; in the other columns every term but one is 0"));
    } else {
        traced = report.difference ? report.difference->position : 0;
        out += '\n' + paragraph(fmt::format(
            "Why they differ, at the first value that differs (position {}): a product adds "
            "every term, 0 * E[k, j] included, and with these weights some of those terms are "
            "not 0, or the sum cannot keep the bits of the one term that is multiplied by 1.",
            traced));
    }
    out += '\n';
    out += render_trace_position(report, traced, layout, options);
    step.focus = {traced};
    out += '\n' + render_linear_view(report);
    out += verdict_line(report, options);
    return step;
}

std::string describe_cost(const EmbeddingCost& cost) {
    return fmt::format(
        "    one-hot product  X with {} ({} as float32), then\n"
        "                     {} x {} x {} = {},\n"
        "                     {} by zero\n"
        "    lookup           {} copied, no multiplications\n",
        count_of(cost.onehot_entries, "entry", "entries"), describe_float32_bytes(cost.onehot_entries),
        group_thousands(cost.ids), group_thousands(cost.vocab_size), group_thousands(cost.dim),
        count_of(cost.product_multiplies, "multiplication", "multiplications"),
        cost.product_multiplies == 1 ? (cost.zero_multiplies == 0 ? std::string("not") : std::string("it is"))
                                     : group_thousands(cost.zero_multiplies) + " of them",
        count_of(cost.lookup_copies, "number", "numbers"));
}

WalkthroughStep step_cost(const DemoReport& report, std::size_t before) {
    const DemoRequest& request = report.request;
    WalkthroughStep step{"why embedding layers use the lookup", "", {}};
    std::string& out = step.body;
    out += paragraph(report.verdict.identical
                         ? "Same numbers, very different work (n ids, V rows, d columns). For these sizes:"
                         : fmt::format("For weights without -0.0, inf or nan the two give the same numbers (these "
                                       "weights are the exception, step {}); the work is very different either way "
                                       "(n ids, V rows, d columns). For these sizes:",
                                       6 + before));
    out += describe_cost(embedding_cost(request.ids.size(), request.vocab_size, request.dim));
    out += paragraph(fmt::format("For GPT-2 (V = {}, d = {}) reading {} tokens:",
                                 group_thousands(k_gpt2_vocab), k_gpt2_dim,
                                 group_thousands(k_gpt2_context)));
    out += describe_cost(embedding_cost(k_gpt2_context, k_gpt2_vocab, k_gpt2_dim));
    out += paragraph(fmt::format(
        "Only 1 multiplication in {} would be by a 1. The table itself holds V x d = {} "
        "parameters ({} as float32), often the largest single matrix of a model; every id reads "
        "just one row of it. That is why nn.Embedding is a lookup: {}the same result as the "
        "one-hot product, without the zeros.",
        group_thousands(k_gpt2_vocab), group_thousands(k_gpt2_vocab * k_gpt2_dim),
        describe_float32_bytes(k_gpt2_vocab * k_gpt2_dim),
        report.verdict.identical ? "" : "for weights without -0.0, inf or nan "));
    return step;
}

}  // namespace

std::vector<WalkthroughStep> walkthrough_steps(const DemoReport& report, const Matrix& linear_init,
                                               const TextOptions& options, const Gpt2Vocabulary* vocab) {
    // The lookup rows of step 3 ("    E[50256]  ") must fit as well as E, the trace and the results.
    const std::size_t lookup_label = fmt::format("E[{}]", report.request.vocab_size - 1).size();
    const TraceLayout layout = trace_layout(
        report, options.precision, k_max_line_width - (std::string(k_row_indent).size() + lookup_label + 2));
    std::vector<WalkthroughStep> steps;
    if (vocab && report.request.source.from_text()) steps.push_back(text_step(report.request, *vocab));
    const std::size_t before = steps.size();
    for (WalkthroughStep& step : std::vector<WalkthroughStep>{
        step_ids(report),
        step_weight(report, layout.screen, options),
        step_lookup(report, layout.screen),
        step_onehot(report, options),
        step_linear(report, linear_init, layout.screen, options, before),
        step_product(report, layout, options, before),
        step_cost(report, before),
    }) {
        steps.push_back(std::move(step));
    }
    return steps;
}

std::string step_heading(std::size_t number, std::size_t count, const WalkthroughStep& step) {
    return fmt::format("Step {} of {}: {}", number, count, step.title);
}

std::vector<std::string> render_walkthrough(const DemoReport& report, const Matrix& linear_init,
                                            const TextOptions& options, const Gpt2Vocabulary* vocab) {
    const std::vector<WalkthroughStep> steps = walkthrough_steps(report, linear_init, options, vocab);
    std::vector<std::string> pages;
    for (const WalkthroughStep& step : steps) {
        pages.push_back(paint(step_heading(pages.size() + 1, steps.size(), step), Paint::heading, options.palette) +
                        '\n' + step.body);
    }
    return pages;
}

}  // namespace embdemo
