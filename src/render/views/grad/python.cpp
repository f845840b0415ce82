// render_grad_python: the backward pass as a PyTorch script (render/views/python_script.hpp says
// what every script does), and its plan.
#include "render/views/grad/view.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/limits.hpp"
#include "render/kit/number_format.hpp"
#include "render/kit/python_kit.hpp"
#include "render/kit/torch_lines.hpp"

namespace embdemo {
namespace {

// G's lines: drawn after E from the same generator, ones, or a file, in the ids' shape.
std::string upstream_python(const GradRequest& request, const std::string& upstream_file) {
    const IdBatch& ids = request.ids;
    const std::string shape = ids.batched ? fmt::format("{}, {}, {}", ids.batch, ids.seq, request.dim)
                                          : fmt::format("{}, {}", ids.values.size(), request.dim);
    switch (request.upstream) {
        case UpstreamSource::randn:
            return fmt::format("G = torch.randn({})    # dL/d(lookup), drawn right after E\n", shape);
        case UpstreamSource::ones: return fmt::format("G = torch.ones({})\n", shape);
        case UpstreamSource::file: break;
    }
    return fmt::format("G = torch.tensor({}, dtype=torch.float32).reshape({})\n", load_matrix_python(upstream_file),
                       shape);
}

// padding_idx and scale_grad_by_freq: what the backward knows. The module under test adds
// max_norm (the forward's renorm) and sparse (the gradient's layout), which the plain module that
// re-checks "the gradient is unchanged by max_norm" leaves out.
std::string backward_args(const GradRequest& request) {
    std::string args;
    if (request.padding_idx) args += fmt::format(", padding_idx={}", *request.padding_idx);
    if (request.scale_grad_by_freq) args += ", scale_grad_by_freq=True";
    return args;
}

std::string module_args(const GradRequest& request) {
    std::string args = backward_args(request);
    if (request.max_norm) args += ", max_norm=M, norm_type=P";
    if (request.sparse) args += ", sparse=True";
    return args;
}

// The COO gradient torch returns with sparse=True, uncoalesced and coalesced, against embdemo's;
// then `grad`, its dense form, for the checks every run makes.
std::string sparse_python(const GradLesson& lesson) {
    // An uncoalesced tensor's indices and values are read with _indices() and _values().
    const auto coo = [](const std::string& name, const std::string& read, const SparseGrad& g) {
        std::string out = python_ints(fmt::format("assert {}.{}indices()[0].tolist() == ", name, read), g.indices,
                                      fmt::format(", \"PyTorch's {} indices differ from embdemo's\"\n", name));
        out += "expected_" + name + " = " +
               bits_literal(g.values, all_rows(g.values.rows), fmt::format("({}, {})", g.values.rows, g.values.cols)) +
               '\n';
        out += fmt::format("assert same_bits({0}.{1}values(), expected_{0}), \"PyTorch's {0} values differ from embdemo's\"\n",
                           name, read);
        return out;
    };
    std::string out = "grad_coo = embedding.weight.grad    # sparse=True: a COO tensor, one entry a position\n";
    out += "assert grad_coo.is_sparse, \"PyTorch's gradient is not sparse\"\n";
    out += coo("grad_coo", "_", lesson.sparse_grad);
    out += "grad_coalesced = grad_coo.coalesce()    # repeats summed\n";
    out += coo("grad_coalesced", "", lesson.sparse_coalesced);
    out += "grad = grad_coo.to_dense()    # the scatter-add\n\n";
    return out;
}

// max_norm: E before and after the forward, the renorm re-checked row by row, and the claim that
// the gradient is what a module without max_norm gives.
std::string renorm_grad_python(const GradLesson& lesson, const std::string& backward) {
    std::string out = "# max_norm: the forward renormalised the rows it read, in place, before the lookup.\n";
    out += renorm_python(lesson.renorm, lesson.weight, lesson.weight_after);
    out += fmt::format("plain = torch.nn.Embedding.from_pretrained(drawn.clone(), freeze=False{})    # no max_norm\n",
                       backward);
    out += "plain(idx).backward(G)\n";
    out += "assert same_bits(plain.weight.grad, grad), \"max_norm changed the gradient\"\n\n";
    return out;
}

}  // namespace

std::string render_grad_python(const GradLesson& lesson, const std::string& upstream_file) {
    const GradRequest& request = lesson.request;
    DemoRequest table;
    table.ids = request.ids.values;
    table.shape = request.ids.shape();
    table.vocab_size = request.vocab_size;
    table.dim = request.dim;
    table.seed = request.seed;
    table.origin = request.origin;
    std::string out = python_preamble("The backward pass of an embedding, two ways: scatter-add and one_hot(idx).T @ G.",
                                      fmt::format("{} ids, V = {}, d = {}", table.ids.size(), request.vocab_size, request.dim),
                                      "import numpy\n", false);
    out += all_ids_python(table) + '\n';
    if (request.max_norm) {
        out += fmt::format("M, P = {}, {}    # max_norm, norm_type\n", python_double(request.max_norm->max_norm),
                           python_double(request.max_norm->norm_type));
    }
    std::vector<std::string> weight = weight_python(table, module_args(request));
    // G is drawn from the generator E was drawn from; a table that draws nothing still seeds it.
    if (request.upstream == UpstreamSource::randn && weight.front().rfind("torch.manual_seed", 0) != 0) {
        weight.insert(weight.begin(), fmt::format("torch.manual_seed({})", request.seed));
    }
    out += lines(weight);
    if (request.max_norm) out += "drawn = embedding.weight.detach().clone()    # E as drawn, before the forward\n";
    out += upstream_python(request, upstream_file);
    if (request.max_norm) {
        out += "embedding(idx).backward(G)    # the forward renormalises the rows it reads, in place\n";
        out += "after = embedding.weight.detach().clone()    # E after the forward\n";
    } else {
        out += "embedding(idx).backward(G)\n";
    }
    out += request.sparse ? sparse_python(lesson) : "grad = embedding.weight.grad    # the scatter-add\n\n";
    out += onehot_line("onehot", request.vocab_size, false);
    out += fmt::format("X = onehot.reshape(-1, {}).float()\n", request.vocab_size);
    out += "W = embedding.weight.detach().clone().requires_grad_()    # the same table as a linear layer's weight\n";
    out += fmt::format("(X @ W).backward(G.reshape(-1, {}))\n", request.dim);
    out += "grad_onehot = W.grad    # X.T @ G, the linear layer's backward\n\n";
    out += "print(\"embedding.weight.grad =\", grad)\nprint(\"X.T @ G =\", grad_onehot)\n\n";
    if (request.max_norm) out += renorm_grad_python(lesson, backward_args(request));
    std::vector<std::size_t> used;
    for (const GradRow& row : lesson.comparison.rows) used.push_back(row.row);
    const std::string shape = fmt::format("({}, {})", used.size(), request.dim);
    out += fmt::format("used = torch.tensor([{}])    # the rows the ids use\n", fmt::join(used, ", "));
    out += "# embdemo's rows `used` of both, as float32 bit patterns.\n";
    out += "expected_grad = " + bits_literal(lesson.grad_lookup, used, shape) + '\n';
    out += "expected_onehot = " + bits_literal(lesson.grad_onehot, used, shape) + '\n';
    out += fmt::format("unused = torch.ones({}, dtype=torch.bool)\nunused[used] = False\n", request.vocab_size);
    out += "assert same_bits(grad[used], expected_grad), \"PyTorch's embedding gradient differs from embdemo's\"\n";
    out += "assert same_bits(grad_onehot[used], expected_onehot), \"PyTorch's X.T @ G differs from embdemo's\"\n";
    out += "assert (grad[unused].view(torch.int32) == 0).all(), \"a row no id uses got a gradient\"\n";
    // A row no id uses is a sum of 0 * G[t] only: +0 for a finite G, nan where G holds inf or
    // nan; every such row is the same sum, so one row of embdemo's stands for all of them.
    const std::vector<bool> is_used = [&] {
        std::vector<bool> flags(request.vocab_size, false);
        for (const std::size_t k : used) flags[k] = true;
        return flags;
    }();
    const auto first_unused = std::find(is_used.begin(), is_used.end(), false);
    if (first_unused != is_used.end()) {
        const auto k = static_cast<std::size_t>(first_unused - is_used.begin());
        out += "expected_unused_onehot = " + bits_literal(lesson.grad_onehot, {k}, fmt::format("({},)", request.dim)) +
               "    # every unused row of X.T @ G\n";
        out += "assert (grad_onehot[unused].view(torch.int32) == expected_unused_onehot.view(torch.int32)).all(), "
               "\"X.T @ G's unused rows differ from embdemo's\"\n";
    }
    const Comparison& whole = lesson.comparison.whole;
    out += fmt::format("assert same_bits(grad, grad_onehot) == {}, \"embdemo found the two gradients {}\"\n",
                       whole.identical ? "True" : "False", whole.identical ? "identical" : "different");
    bool unused_zero = true;
    if (first_unused != is_used.end()) {
        const auto k = static_cast<std::size_t>(first_unused - is_used.begin());
        for (std::size_t j = 0; j < request.dim; ++j) {
            std::uint32_t bits = 0;
            const float value = lesson.grad_onehot.at(k, j);
            std::memcpy(&bits, &value, sizeof bits);
            unused_zero = unused_zero && bits == 0;
        }
    }
    const auto& g = lesson.upstream.values;
    const bool g_inf = std::any_of(g.begin(), g.end(), [](float x) { return std::isinf(x); });
    const bool g_nan = std::any_of(g.begin(), g.end(), [](float x) { return std::isnan(x); });
    const std::string poison = g_inf && g_nan ? "0 * inf and 0 * nan" : g_inf ? "0 * inf" : "0 * nan";
    const std::string others =
        used.size() == request.vocab_size
            ? ""
            : fmt::format(" and every other row ({})",
                          unused_zero ? "exactly 0" : "0 in dE, the nan of " + poison + " in X.T @ G");
    std::string renormed;
    if (request.max_norm) {
        const auto rescaled = std::count_if(lesson.renorm.begin(), lesson.renorm.end(),
                                            [](const RenormRow& row) { return row.rescaled; });
        renormed = fmt::format("; max_norm rescaled {} of the {} rows read, and the gradient is as without it", rescaled,
                               lesson.renorm.size());
    }
    out += fmt::format("print(\"PyTorch agrees with embdemo bit for bit: both gradients, the {} used {} of {}{}; "
                       "the two are {}{}.\")\n",
                       group_thousands(used.size()), used.size() == 1 ? "row" : "rows",
                       group_thousands(request.vocab_size), others,
                       whole.identical ? "identical" : "different, as embdemo says", renormed);
    return out;
}

std::uint64_t grad_script_values(const GradRequest& request) {
    const std::uint64_t n = request.ids.values.size(), d = request.dim;
    const std::uint64_t used = std::min<std::uint64_t>(n, request.vocab_size);  // rows the ids use, at most
    // both gradients' used rows and one unused row; the COO values, one row a position and one a
    // used row; max_norm's norms, scales, and E's used rows before and after
    const std::uint64_t sparse = request.sparse ? (n + used) * d : 0;
    const std::uint64_t renorm = request.max_norm ? 2 * used + 2 * used * d : 0;
    return (2 * used + 1) * d + sparse + renorm;
}

}  // namespace embdemo
