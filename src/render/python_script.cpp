#include "render/python_script.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "core/limits.hpp"
#include "render/number_format.hpp"
#include "render/torch_lines.hpp"

namespace embdemo {
namespace {

constexpr std::size_t k_line_width = 100;

constexpr const char* k_same_bits = R"(

def same_bits(a, b):
    """Same shape and the same float32 bits in every place, so -0.0 is not 0.0; a NaN
    matches any NaN (a literal cannot spell a NaN's sign and payload)."""
    a, b = a.detach().contiguous(), b.detach().contiguous()
    if a.shape != b.shape or not torch.equal(a.isnan(), b.isnan()):
        return False
    kept = ~a.isnan()
    return torch.equal(a[kept].view(torch.int32), b[kept].view(torch.int32))


)";

std::string python_float(float value) {
    if (std::isnan(value)) return "float(\"nan\")";
    if (std::isinf(value)) return value > 0 ? "float(\"inf\")" : "-float(\"inf\")";
    // "-0" and "20" would be Python ints, and the int 0 loses the sign of -0.0: keep them floats.
    const std::string text = shortest_round_trip(value);
    return text.find_first_of(".e") == std::string::npos ? text + ".0" : text;
}

// One row of values as a Python list, wrapped so that no line runs past k_line_width.
std::string python_row(const Matrix& m, std::size_t r, const std::string& indent) {
    std::string out = indent + "[";
    std::size_t line_start = 0;
    for (std::size_t c = 0; c < m.cols; ++c) {
        const std::string item = python_float(m.at(r, c)) + (c + 1 < m.cols ? "," : "");
        if (out.size() - line_start + item.size() + 1 > k_line_width) {
            out += '\n';
            line_start = out.size();
            out += indent + ' ';
        } else if (c > 0) {
            out += ' ';
        }
        out += item;
    }
    return out + "]";
}

// `rows` of `m` as a torch.tensor literal, nested B x T x d for a batch.
std::string tensor_literal(const Matrix& m, const std::vector<std::size_t>& rows, const IdShape* batch) {
    std::string out = "torch.tensor([\n";
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const bool opens = batch && batch->batched && i % batch->seq == 0;
        const bool closes = batch && batch->batched && (i + 1) % batch->seq == 0;
        if (opens) out += "    [\n";
        out += python_row(m, rows[i], batch && batch->batched ? "        " : "    ") + ",\n";
        if (closes) out += "    ],\n";
    }
    return out + "], dtype=torch.float32)";
}

std::vector<std::size_t> all_rows(std::size_t count) {
    std::vector<std::size_t> rows(count);
    for (std::size_t i = 0; i < count; ++i) rows[i] = i;
    return rows;
}

std::string header(const std::string& what, const std::string& run) {
    return fmt::format(
        "# {}\n"
        "# Written by embdemo --format python for {}.\n"
        "# Run it with python3 where PyTorch is installed, or paste it into a notebook: it stops\n"
        "# with an AssertionError if PyTorch's numbers differ from embdemo's in a single bit.\n"
        "import torch\n",
        what, run);
}

std::string onehot_line(const std::string& name, std::uint64_t vocab_size, bool inferred) {
    return inferred ? fmt::format("{} = torch.nn.functional.one_hot(idx)\n", name)
                    : fmt::format("{} = torch.nn.functional.one_hot(idx, num_classes={})\n", name, vocab_size);
}

std::string lines(const std::vector<std::string>& code) {
    std::string out;
    for (const std::string& line : code) out += line + '\n';
    return out;
}

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

// X.T @ G adds the G rows of each id in an order PyTorch's matmul leaves unspecified. A row of
// at most two terms is exact in any order (a + b == b + a; the zeros add nothing); one of more is
// compared within the bound that holds for every order, (count - 1) * eps * sum of |terms|.
std::string onehot_check(const GradLesson& lesson) {
    std::size_t most = 0;
    for (const GradRow& row : lesson.comparison.rows) most = std::max(most, row.positions.size());
    if (most <= 2) return "assert same_bits(grad_onehot[used], expected_onehot), \"PyTorch's X.T @ G differs from embdemo's\"\n";
    return fmt::format(
        "# X.T @ G sums up to {} G rows per row, in an order PyTorch's matmul leaves open: rows of at\n"
        "# most two terms are exact in any order, the others agree within (count - 1) * eps * sum |terms|.\n"
        "counts = torch.bincount(idx.reshape(-1), minlength={})[used]\n"
        "exact = counts <= 2\n"
        "assert same_bits(grad_onehot[used][exact], expected_onehot[exact]), \"PyTorch's X.T @ G differs from embdemo's\"\n"
        "magnitude = (onehot.reshape(-1, {}).float().T @ G.reshape(-1, {}).abs())[used]\n"
        "bound = (counts - 1)[:, None] * torch.finfo(torch.float32).eps * magnitude\n"
        "difference = (grad_onehot[used] - expected_onehot).abs()\n"
        "assert ((difference <= bound) | (grad_onehot[used] == expected_onehot)).all(), \"X.T @ G is off by more than "
        "summation order explains\"\n",
        most, lesson.request.vocab_size, lesson.request.vocab_size, lesson.request.dim);
}

std::string module_args(const GradRequest& request) {
    std::string args;
    if (request.padding_idx) args += fmt::format(", padding_idx={}", *request.padding_idx);
    if (request.scale_grad_by_freq) args += ", scale_grad_by_freq=True";
    return args;
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
    std::string out = header("The backward pass of an embedding, two ways: scatter-add and one_hot(idx).T @ G.",
                             fmt::format("{} ids, V = {}, d = {}", table.ids.size(), request.vocab_size, request.dim));
    const bool files = request.origin.kind == WeightOrigin::Kind::file || request.upstream == UpstreamSource::file;
    if (files) out += "import numpy\n";
    out += '\n' + all_ids_python(table) + '\n';
    std::vector<std::string> weight = weight_python(table, module_args(request));
    // G is drawn from the generator E was drawn from; a table that draws nothing still seeds it.
    if (request.upstream == UpstreamSource::randn && weight.front().rfind("torch.manual_seed", 0) != 0) {
        weight.insert(weight.begin(), fmt::format("torch.manual_seed({})", request.seed));
    }
    out += lines(weight);
    out += upstream_python(request, upstream_file);
    out += "embedding(idx).backward(G)\ngrad = embedding.weight.grad    # the scatter-add\n\n";
    out += onehot_line("onehot", request.vocab_size, false);
    out += fmt::format("grad_onehot = onehot.reshape(-1, {}).float().T @ G.reshape(-1, {})    # X.T @ G\n\n",
                       request.vocab_size, request.dim);
    std::vector<std::size_t> used;
    for (const GradRow& row : lesson.comparison.rows) used.push_back(row.row);
    out += fmt::format("used = torch.tensor([{}])    # the rows the ids use\n", fmt::join(used, ", "));
    out += "# embdemo's rows `used` of both; each literal reads back as the very same float32.\n";
    out += "expected_grad = " + tensor_literal(lesson.grad_lookup, used, nullptr) + '\n';
    out += "expected_onehot = " + tensor_literal(lesson.grad_onehot, used, nullptr) + '\n';
    out += fmt::format("unused = torch.ones({}, dtype=torch.bool)\nunused[used] = False\n", request.vocab_size);
    out += k_same_bits;
    out += "assert same_bits(grad[used], expected_grad), \"PyTorch's embedding gradient differs from embdemo's\"\n";
    out += onehot_check(lesson);
    out += "assert (grad[unused].view(torch.int32) == 0).all(), \"a row no id uses got a gradient\"\n";
    out += "assert (grad_onehot[unused].view(torch.int32) == 0).all(), \"X.T @ G is not 0 in an unused row\"\n";
    std::size_t most = 0;
    for (const GradRow& row : lesson.comparison.rows) most = std::max(most, row.positions.size());
    out += fmt::format("print(\"PyTorch agrees with embdemo: both gradients, the {} used {} of {} ({}) and every "
                       "other row exactly 0.\")\n",
                       group_thousands(used.size()), used.size() == 1 ? "row" : "rows",
                       group_thousands(request.vocab_size),
                       most <= 2 ? "bit for bit" : "bit for bit, X.T @ G's rows of 3 or more terms within rounding");
    return out;
}

std::string render_lookup_python(const DemoReport& report) {
    const DemoRequest& request = report.request;
    const std::size_t n = request.ids.size();
    std::string out = header("An embedding layer is a linear layer applied to one-hot vectors.",
                             fmt::format("{} ids, V = {}, d = {}", n, request.vocab_size, request.dim));
    if (request.origin.kind == WeightOrigin::Kind::file) out += "import numpy\n";
    out += '\n' + all_ids_python(request) + '\n';
    out += lines(weight_python(request));
    out += "lookup = embedding(idx)\n\n";
    out += onehot_line("onehot", request.vocab_size, request.vocab_inferred);
    out += fmt::format("torch.manual_seed({})\n", request.seed);
    out += fmt::format("linear = torch.nn.Linear({}, {}, bias=False)\n", request.vocab_size, request.dim);
    out += "linear.weight = torch.nn.Parameter(embedding.weight.T)\n";
    out += "product = linear(onehot.float())    # X @ W.T, which is X @ E\n\n";
    out += fmt::format("# embdemo's E[idx], {} values; each literal reads back as the very same float32.\n",
                       group_thousands(report.lookup.values.size()));
    out += "expected_lookup = " + tensor_literal(report.lookup, all_rows(n), &request.shape) + '\n';
    if (!report.linear_verdict.identical) {
        out += "# embdemo's one-hot product, which differs from the lookup for these weights.\n";
        out += "expected_product = " + tensor_literal(report.linear_output, all_rows(n), &request.shape) + '\n';
    }
    out += k_same_bits;
    out += "assert same_bits(lookup, expected_lookup), \"PyTorch's lookup differs from embdemo's\"\n";
    if (report.linear_verdict.identical) {
        out += "assert same_bits(product, lookup), \"the one-hot product differs from the lookup\"\n";
    } else {
        out += "assert same_bits(product, expected_product), \"PyTorch's product differs from embdemo's\"\n";
        out += "assert not same_bits(product, lookup), \"embdemo saw the two differ\"\n";
    }
    out += fmt::format("print(\"PyTorch agrees with embdemo bit for bit: the lookup and the one-hot product, "
                       "{} values each{}.\")\n",
                       group_thousands(report.lookup.values.size()),
                       report.linear_verdict.identical ? ", identical" : ", different where embdemo says");
    return out;
}

}  // namespace embdemo
