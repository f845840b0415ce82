#include "render/views/cost/text.hpp"

#include <fmt/format.h>

#include "core/limits.hpp"
#include "render/kit/table.hpp"

namespace embdemo {
namespace {

std::string paragraph(const std::string& text) { return wrap_words(text, "", ""); }

std::string pass_table(const CostLesson& lesson, CostPass pass) {
    std::string out = fmt::format("  {:<14}{:>9}{:>9}{:>9}{:>11}{:>11}{:>11}\n", "method", "mul-adds",
                                  "by zero", "adds", "read", "written", "X memory");
    for (const CostRow& r : lesson.rows) {
        if (r.pass != pass) continue;
        out += fmt::format("  {:<14}{:>9}{:>9}{:>9}{:>11}{:>11}{:>11}\n", cost_method_label(r.method, pass),
                           short_count(r.multiply_adds), short_count(r.zero_multiplies), short_count(r.additions),
                           describe_bytes(r.bytes_read), describe_bytes(r.bytes_written),
                           r.extra_bytes ? describe_bytes(r.extra_bytes) : "none");
    }
    return out;
}

std::string sizes_line(const CostRequest& request) {
    std::string n;
    switch (request.token_source) {
        case TokenSource::ids: n = fmt::format("n = {} (--ids)", count_of(request.ids, "id", "ids")); break;
        case TokenSource::text:
            n = fmt::format("n = {} ({} of the text)", count_of(request.ids, "token", "tokens"), tokenizer_tokens(request.tokenizer));
            break;
        case TokenSource::tokens: n = "n = " + count_of(request.ids, "token", "tokens"); break;
        case TokenSource::context:
            n = fmt::format("n = {} tokens (its context length)", group_thousands(request.ids));
            break;
    }
    const std::string model =
        request.model ? fmt::format("{} (--model {}): ", request.model->label, request.model->name) : "";
    return fmt::format("{}{}, V = {}{}, d = {}. E holds {} ({} as float32).", model, n,
                       count_of(request.vocab_size, "row", "rows"), request.vocab_inferred ? " (largest id + 1)" : "",
                       count_of(request.dim, "column", "columns"),
                       count_of(request.vocab_size * request.dim, "parameter", "parameters"),
                       describe_bytes(request.vocab_size * request.dim * k_value_bytes));
}

// One in V: the share of the dense product's terms that multiply by 0, as a percentage that
// does not round up to 100 while any term multiplies by 1.
std::string zero_share(const CostRow& dense) {
    const double share = 100.0 * static_cast<double>(dense.zero_multiplies) / static_cast<double>(dense.multiply_adds);
    for (int decimals = 1; decimals < 9; ++decimals) {
        const std::string text = fmt::format("{:.{}f}", share, decimals);
        if (text != "100." + std::string(decimals, '0')) return text + '%';
    }
    return fmt::format("{:.9f}%", share);
}

// A preset's parameters: how much of the model the table is, and ALBERT's factorised saving.
std::string model_story(const ModelPreset& preset) {
    const ModelShare share = model_share(preset);
    const std::string untied =
        preset.tied ? "its output layer reuses the table (tied)"
                    : fmt::format("its output layer is a second V x d matrix (untied): both are {}, {:.1f}%",
                                  group_thousands(share.embedding), 100.0 * share.embedding_share);
    return paragraph(fmt::format(
        "{} has {} parameters; its token table, {} x {} = {}, is {:.1f}% of them, and {}. Factorised "
        "as ALBERT does (V x r, then r x d, r = {}), the table would be {} parameters, {} fewer: the "
        "model would be {} and the table {:.1f}% of it.",
        preset.label, group_thousands(preset.parameters), group_thousands(preset.vocab_size),
        group_thousands(preset.dim), group_thousands(share.table), 100.0 * share.table_share, untied, share.rank,
        group_thousands(share.factored), group_thousands(share.saved), group_thousands(preset.parameters - share.saved),
        100.0 * share.factored_share));
}

std::string forward_story(const CostLesson& lesson) {
    const CostRequest& q = lesson.request;
    const CostRow& lookup = cost_row(lesson, CostMethod::lookup, CostPass::forward);
    const CostRow& dense = cost_row(lesson, CostMethod::onehot_dense, CostPass::forward);
    const CostRow& csr = cost_row(lesson, CostMethod::onehot_sparse, CostPass::forward);
    const std::uint64_t out_bytes = q.ids * q.dim * k_value_bytes;
    const std::uint64_t ones = dense.multiply_adds - dense.zero_multiplies;
    std::string out = paragraph(fmt::format(
        "The dense one-hot product does {} to make {}: {} of them ({}) multiply "
        "by 0, and {} a row of E by 1, which is the lookup's copying done with arithmetic.",
        count_of(dense.multiply_adds, "multiply-add", "multiply-adds"), count_of(q.ids * q.dim, "number", "numbers"),
        group_thousands(dense.zero_multiplies),
        zero_share(dense), ones == 1 ? std::string("the other one multiplies")
                                     : fmt::format("the other {} multiply", group_thousands(ones))));
    out += '\n' + paragraph(fmt::format(
        "It also writes and reads X, {} x {} floats = {}, {} the {} of the output, and reads all of E; "
        "in all it moves {} the lookup's bytes. Stored as CSR (a value, a column and a row start per "
        "id), X takes {}, and the sparse product does the lookup's {} as multiply-adds by 1.",
        group_thousands(q.ids), group_thousands(q.vocab_size), describe_bytes(dense.extra_bytes),
        how_many_times(dense.extra_bytes, out_bytes), describe_bytes(out_bytes),
        how_many_times(dense.bytes_read + dense.bytes_written, lookup.bytes_read + lookup.bytes_written),
        describe_bytes(csr.extra_bytes), count_of(csr.multiply_adds, "copy", "copies")));
    return out;
}

std::string backward_story(const CostLesson& lesson) {
    const CostRequest& q = lesson.request;
    const CostRow& scatter = cost_row(lesson, CostMethod::lookup, CostPass::backward);
    const CostRow& dense = cost_row(lesson, CostMethod::onehot_dense, CostPass::backward);
    return paragraph(fmt::format(
        "Backward, the embedding adds each row of G to the row of dE its id names ({}, {}); "
        "the dense product X.T @ G does {} for the same gradient, {} of them "
        "by 0. Both write all of dE, {} x {} = {}, as nn.Embedding's default (sparse=False) does.",
        count_of(q.ids, "row", "rows"), count_of(scatter.additions, "addition", "additions"),
        count_of(dense.multiply_adds, "multiply-add", "multiply-adds"),
        group_thousands(dense.zero_multiplies), group_thousands(q.vocab_size), group_thousands(q.dim),
        describe_bytes(q.vocab_size * q.dim * k_value_bytes)));
}

}  // namespace

std::string how_many_times(std::uint64_t whole, std::uint64_t part) {
    const double ratio = static_cast<double>(whole) / static_cast<double>(part);
    if (ratio < 1000.0) return fmt::format("{:.1f}x", ratio);
    return group_thousands(static_cast<std::uint64_t>(ratio + 0.5)) + 'x';
}

const char* cost_method_label(CostMethod method, CostPass pass) {
    const bool forward = pass == CostPass::forward;
    switch (method) {
        case CostMethod::lookup: break;
        case CostMethod::onehot_dense: return forward ? "dense X @ E" : "dense X.T @ G";
        case CostMethod::onehot_sparse: return forward ? "CSR X @ E" : "CSR X.T @ G";
    }
    return forward ? "lookup" : "scatter-add";
}

// The rows are in cost_rows' order: lookup, dense, CSR; forward, then backward.
const CostRow& cost_row(const CostLesson& lesson, CostMethod method, CostPass pass) {
    for (const CostRow& r : lesson.rows) {
        if (r.method == method && r.pass == pass) return r;
    }
    return lesson.rows.front();  // unreachable: cost_rows lists every pair
}

std::string short_count(std::uint64_t count) {
    if (count < 10000) return group_thousands(count);
    const char* units[] = {"k", "M", "G", "T", "P", "E"};
    double amount = static_cast<double>(count) / 1000.0;
    int unit = 0;
    // Round first, so that 999,999 reads "1.00 M", not "1000 k".
    while (unit < 5 && std::stod(fmt::format("{:.3g}", amount)) >= 1000.0) {
        amount /= 1000.0;
        ++unit;
    }
    return fmt::format("{:.3g} {}", amount, units[unit]);
}

std::string render_cost_text(const CostLesson& lesson) {
    const CostRequest& q = lesson.request;
    std::string out = paragraph(sizes_line(q));
    if (q.model) out += model_story(*q.model);
    out += fmt::format("\nForward: out = E[ids], {} x {}\n", group_thousands(q.ids), group_thousands(q.dim));
    out += pass_table(lesson, CostPass::forward);
    out += '\n' + forward_story(lesson);
    out += fmt::format("\nBackward into E: dE, {} x {}, from G = dL/d(out), {} x {}\n", group_thousands(q.vocab_size),
                       group_thousands(q.dim), group_thousands(q.ids), group_thousands(q.dim));
    out += pass_table(lesson, CostPass::backward);
    out += '\n' + backward_story(lesson);
    out += '\n' + paragraph(fmt::format(
                      "Bytes count each operand read once and each result written once. On a real "
                      "machine the dense product's time is its multiply-adds at the GEMM rate F, the "
                      "lookup's its bytes at the copy rate B: about V*B/(4*F) = {}*B/(4*F) times as "
                      "long. embdemo bench measures both.",
                      group_thousands(q.vocab_size)));
    return out;
}

}  // namespace embdemo
