#include "render/walkthrough.hpp"

#include <cmath>

#include <fmt/format.h>

#include "core/cost.hpp"
#include "core/escape.hpp"
#include "core/init.hpp"
#include "core/limits.hpp"
#include "render/paint.hpp"
#include "render/table.hpp"
#include "render/text_sections.hpp"
#include "render/trace.hpp"

namespace embdemo {
namespace {

constexpr int k_step_count = 7;

std::string heading(int step, const char* title, const TextOptions& options) {
    return paint(fmt::format("Step {} of {}: {}", step, k_step_count, title), Paint::heading,
                 options.color) +
           '\n';
}

// A line of the notebook's PyTorch code, set off so that it reads as code.
std::string code(const std::string& line) { return "      " + line + '\n'; }

// Narration, wrapped to the 80-column budget and indented by two spaces.
std::string paragraph(const std::string& text) { return wrap_words(text, "  ", "  "); }

// "1 token id", "3 token ids", "1,024 numbers".
std::string count_of(std::uint64_t count, const char* singular, const char* plural) {
    return group_thousands(count) + ' ' + (count == 1 ? singular : plural);
}

// "ids 0 to 3", or "id 0" when there is only one.
std::string id_range(std::uint64_t vocab_size) {
    return vocab_size == 1 ? std::string("id 0") : fmt::format("ids 0 to {}", vocab_size - 1);
}

std::string ids_python(const TokenIds& ids) {
    return fmt::format("idx = torch.tensor({})", format_ids(ids));
}

std::string step_ids(const DemoReport& report, const TextOptions& options) {
    const DemoRequest& request = report.request;
    std::string out = heading(1, "the token ids", options);
    out += paragraph(fmt::format("We start from {}, the way a tokenizer hands them to a model "
                                 "(ids count from 0, as in PyTorch):",
                                 count_of(request.ids.size(), "token id", "token ids")));
    out += code(ids_python(request.ids));
    if (request.vocab_inferred) {
        out += paragraph(fmt::format(
            "The embedding table needs one row for every possible id. The largest id is {}, so "
            "the vocabulary size is V = {} + 1 = {} ({}):",
            request.vocab_size - 1, request.vocab_size - 1, group_thousands(request.vocab_size),
            id_range(request.vocab_size)));
        out += code(fmt::format("num_idx = max(idx) + 1    # {}", request.vocab_size));
    } else {
        out += paragraph(fmt::format(
            "The embedding table needs one row for every possible id; here the vocabulary size "
            "was chosen with --vocab: V = {} ({}).",
            group_thousands(request.vocab_size), id_range(request.vocab_size)));
    }
    out += paragraph(fmt::format(
        "The embedding dimension d = {} is a free choice (a hyperparameter):", request.dim));
    out += code(fmt::format("out_dim = {}", request.dim));
    return out;
}

std::string step_weight(const DemoReport& report, const TextOptions& options) {
    const DemoRequest& request = report.request;
    std::string out = heading(2, "seeding, and the embedding matrix E", options);
    out += code(fmt::format("torch.manual_seed({})", request.seed));
    out += code(fmt::format("embedding = torch.nn.Embedding({}, {})", request.vocab_size, request.dim));
    std::string story = fmt::format("An embedding layer is a table E of V x d = {} x {} numbers, "
                                    "one row per id. ",
                                    group_thousands(request.vocab_size), group_thousands(request.dim));
    switch (request.origin.kind) {
        case WeightOrigin::Kind::torch:
            story += "PyTorch fills it with random numbers from a standard normal distribution; "
                     "embdemo draws them exactly as PyTorch does on a CPU, so these are the very "
                     "numbers the notebook prints, bit for bit:";
            break;
        case WeightOrigin::Kind::torch_randint:
            story += fmt::format(
                "Here it holds small whole numbers instead (--init randint), drawn as "
                "torch.randint({}, {}, (V, d)) would draw them after the same seed, so every "
                "product below can be checked by hand:",
                k_randint_low, k_randint_high);
            break;
        case WeightOrigin::Kind::index_pattern:
            story += fmt::format("Here it holds a pattern instead (--init index): E[k][j] = {}, "
                                 "so every number tells its own row and column:",
                                 request.origin.detail);
            break;
        case WeightOrigin::Kind::file:
            story += fmt::format("Here it was read from a file instead (--weights {}), which "
                                 "also decided V and d:",
                                 escape_for_message(request.origin.detail));
            break;
    }
    out += paragraph(story);
    out += '\n' + render_weight(report, options);
    return out;
}

// The lookup result with each row labelled by its id.
std::string render_lookup_rows(const DemoReport& report, const TextOptions& options) {
    const Matrix& lookup = report.lookup;
    const TokenIds& ids = report.request.ids;
    const auto rows = visible_positions(lookup.rows, should_summarise(lookup.rows, lookup.cols));
    const auto cols = fitting_columns(lookup, rows, options.precision, k_max_line_width - 20);
    const NumberFormat format = visible_format(lookup, rows, cols, options.precision);
    std::size_t label_width = 0;
    for (const std::size_t r : rows) {
        if (r != k_gap) label_width = std::max(label_width, fmt::format("E[{}]", ids[r]).size());
    }
    std::string out;
    for (const std::size_t r : rows) {
        const std::string label = r == k_gap ? "..." : fmt::format("E[{}]", ids[r]);
        const std::string cells = r == k_gap ? "" : format_row_cells(lookup, r, cols, format);
        out += fmt::format("    {}  {}\n", pad_right(label, label_width), cells);
    }
    return out;
}

std::string step_lookup(const DemoReport& report, const TextOptions& options) {
    const TokenIds& ids = report.request.ids;
    std::string out = heading(3, "looking up ids", options);
    out += paragraph(fmt::format("Looking up one id returns one row of E, nothing else. Id {}:", ids[0]));
    out += code(fmt::format("embedding(torch.tensor([{}]))", ids[0]));
    DemoReport single = report;
    single.request.ids = {ids[0]};
    single.lookup = lookup(report.weight, single.request.ids);
    out += render_lookup_rows(single, options);
    out += paragraph("Looking up all the ids returns their rows, in the order of the ids (a "
                     "repeated id simply returns its row again):");
    out += code("embedding(idx)");
    out += render_lookup_rows(report, options);
    return out;
}

std::string step_onehot(const DemoReport& report, const TextOptions& options) {
    const DemoRequest& request = report.request;
    std::string out = heading(4, "the one-hot matrix X", options);
    out += code(request.vocab_inferred
                    ? std::string("onehot = torch.nn.functional.one_hot(idx)")
                    : fmt::format("onehot = torch.nn.functional.one_hot(idx, num_classes={})",
                                  request.vocab_size));
    out += paragraph(fmt::format("Each id becomes a row of V = {} numbers: all 0, except a 1 in "
                                 "the column whose number is the id. X has one row per id: {} x {}.",
                                 group_thousands(request.vocab_size), request.ids.size(),
                                 group_thousands(request.vocab_size)));
    out += '\n';
    out += render_onehot(report, options);
    return out;
}

std::string step_linear(const DemoReport& report, const Matrix& linear_init,
                        const TextOptions& options) {
    const DemoRequest& request = report.request;
    const double bound = 1.0 / std::sqrt(static_cast<double>(request.vocab_size));
    std::string out = heading(5, "a linear layer, then E.T as its weight", options);
    out += code(fmt::format("torch.manual_seed({})", request.seed));
    out += code(fmt::format("linear = torch.nn.Linear({}, {}, bias=False)", request.vocab_size,
                            request.dim));
    out += paragraph(fmt::format(
        "A linear layer computes X @ W.T. PyTorch stores its weight W as out x in, that is d x V "
        "= {} x {}, and starts it with uniform random numbers between -1/sqrt({}) and "
        "+1/sqrt({}) = {:.4f} (PyTorch's exact numbers again):",
        group_thousands(request.dim), group_thousands(request.vocab_size), request.vocab_size,
        request.vocab_size, bound));
    out += '\n';
    out += fmt::format("W = linear.weight   {} x {}\n", linear_init.rows, linear_init.cols);
    out += render_plain_matrix(linear_init, options);
    out += '\n' + paragraph(fmt::format(
        "To compare it with the embedding, give it E's numbers. W must be {} x {} and E is {} x "
        "{}, so W = E.T: row k of E becomes column k of W. The transpose is only how PyTorch "
        "stores a linear layer (out x in); the numbers are the same.",
        group_thousands(request.dim), group_thousands(request.vocab_size),
        group_thousands(request.vocab_size), group_thousands(request.dim)));
    out += code("linear.weight = torch.nn.Parameter(embedding.weight.T)");
    out += fmt::format("\nW = E.T   {} x {}   (column k is row k of E)\n", request.dim,
                       request.vocab_size);
    out += render_plain_matrix(transpose(report.weight), options);
    return out;
}

std::string step_product(const DemoReport& report, const TextOptions& options) {
    std::string out = heading(6, "the product equals the lookup", options);
    out += code("linear(onehot.float())    # X @ W.T, which is X @ E");
    out += paragraph("Next to the lookup from step 3:");
    out += '\n';
    out += render_results(report, options);
    out += '\n' + paragraph("Why they agree, for the first id: in each dot product every term "
                           "but one is multiplied by 0, and the remaining one is multiplied by 1.");
    out += '\n';
    out += render_trace_position(report, 0, options);
    out += '\n' + render_linear_view(report);
    out += verdict_line(report, options.color);
    return out;
}

std::string describe_cost(const EmbeddingCost& cost) {
    return fmt::format(
        "    one-hot product  X with {} ({} as float32), then\n"
        "                     {} x {} x {} = {},\n"
        "                     {} of them by zero\n"
        "    lookup           {} copied, no multiplications\n",
        count_of(cost.onehot_entries, "entry", "entries"), describe_float32_bytes(cost.onehot_entries),
        group_thousands(cost.ids), group_thousands(cost.vocab_size), group_thousands(cost.dim),
        count_of(cost.product_multiplies, "multiplication", "multiplications"),
        group_thousands(cost.zero_multiplies), count_of(cost.lookup_copies, "number", "numbers"));
}

std::string step_cost(const DemoReport& report, const TextOptions& options) {
    const DemoRequest& request = report.request;
    std::string out = heading(7, "why embedding layers use the lookup", options);
    out += paragraph("Same numbers, very different work (n ids, V rows, d columns). For these sizes:");
    out += describe_cost(embedding_cost(request.ids.size(), request.vocab_size, request.dim));
    out += paragraph(fmt::format("For GPT-2 (V = {}, d = {}) reading {} tokens:",
                                 group_thousands(k_gpt2_vocab), k_gpt2_dim,
                                 group_thousands(k_gpt2_context)));
    out += describe_cost(embedding_cost(k_gpt2_context, k_gpt2_vocab, k_gpt2_dim));
    out += paragraph(fmt::format(
        "Only 1 multiplication in {} would be by a 1. The table itself holds V x d = {} "
        "parameters ({} as float32), often the largest single matrix of a model; every id reads "
        "just one row of it. That is why nn.Embedding is a lookup: the same result as the "
        "one-hot product, without the zeros.",
        group_thousands(k_gpt2_vocab), group_thousands(k_gpt2_vocab * k_gpt2_dim),
        describe_float32_bytes(k_gpt2_vocab * k_gpt2_dim)));
    return out;
}

}  // namespace

std::vector<std::string> render_walkthrough(const DemoReport& report, const Matrix& linear_init,
                                            const TextOptions& options) {
    return {
        step_ids(report, options),
        step_weight(report, options),
        step_lookup(report, options),
        step_onehot(report, options),
        step_linear(report, linear_init, options),
        step_product(report, options),
        step_cost(report, options),
    };
}

}  // namespace embdemo
