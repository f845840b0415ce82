#include "render/views/python_script.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include <fmt/format.h>

#include "core/limits.hpp"
#include "render/kit/number_format.hpp"
#include "render/kit/python_kit.hpp"
#include "render/kit/torch_lines.hpp"

namespace embdemo {

std::string render_lookup_python(const DemoReport& report) {
    const DemoRequest& request = report.request;
    const std::size_t n = request.ids.size();
    std::string out = python_header("An embedding layer is a linear layer applied to one-hot vectors.",
                             fmt::format("{} ids, V = {}, d = {}", n, request.vocab_size, request.dim));
    out += "import numpy\n";
    out += '\n' + all_ids_python(request) + '\n';
    out += lines(weight_python(request));
    out += "lookup = embedding(idx)    # E[idx]: rows copied\n\n";
    out += onehot_line("onehot", request.vocab_size, request.vocab_inferred);
    out += "product = onehot.float() @ embedding.weight    # X @ E\n";
    out += fmt::format("torch.manual_seed({})\n", request.seed);
    out += fmt::format("linear = torch.nn.Linear({}, {}, bias=False)\n", request.vocab_size, request.dim);
    out += "linear.weight = torch.nn.Parameter(embedding.weight.T.contiguous())    # W = E.T\n";
    out += "linear_output = linear(onehot.float())    # X @ W.T\n\n";
    out += "print(\"E[idx] =\", lookup)\nprint(\"X @ E =\", product)\nprint(\"X @ W.T =\", linear_output)\n\n";
    const std::string shape = shape_text(report.lookup, n, &request.shape);
    out += python_bit_helpers();
    out += "# What embdemo computed, as float32 bit patterns.\n";
    out += "expected_lookup = " + bits_literal(report.lookup, all_rows(n), shape) + '\n';
    out += "expected_product = " + bits_literal(report.onehot_matmul, all_rows(n), shape) + '\n';
    out += "expected_linear = " + bits_literal(report.linear_output, all_rows(n), shape) + '\n';
    out += "assert same_bits(lookup, expected_lookup), \"PyTorch's lookup differs from embdemo's\"\n";
    out += "assert same_bits(product, expected_product), \"PyTorch's X @ E differs from embdemo's\"\n";
    out += "assert same_bits(linear_output, expected_linear), \"PyTorch's X @ W.T differs from embdemo's\"\n";
    const Comparison& verdict = report.verdict;
    const std::string total = count_of(report.lookup.values.size(), "value", "values");
    if (verdict.identical) {
        out += "assert same_bits(product, lookup), \"embdemo found X @ E identical to the lookup\"\n";
        out += fmt::format("print(\"PyTorch agrees with embdemo bit for bit ({}): the lookup and X @ E are identical.\")\n",
                           total);
    } else {
        out += fmt::format("differing = (product.detach().view(torch.int32) != lookup.detach().view(torch.int32)).sum()\n"
                           "assert differing == {}, \"embdemo found X @ E and the lookup differ in {}\"\n",
                           verdict.differing, count_of(verdict.differing, "value", "values"));
        out += fmt::format("print(\"PyTorch agrees with embdemo bit for bit ({}): X @ E and the lookup differ in {}, "
                           "as embdemo says.\")\n",
                           total, count_of(verdict.differing, "value", "values"));
    }
    return out;
}


}  // namespace embdemo
