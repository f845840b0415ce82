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

namespace {

// The notebook's `num_idx`: the largest id + 1 as it computes it, or the V this run was given.
std::string num_idx_python(const DemoRequest& request) {
    if (!request.vocab_inferred) return fmt::format("num_idx = {}", request.vocab_size);
    return request.shape.batched ? "num_idx = idx.max()+1    # the largest token id + 1" : "num_idx = max(idx)+1    # the largest token id + 1";
}

// The notebook's embedding: nn.Embedding(num_idx, out_dim) from the seed, or E as this run made it.
std::vector<std::string> embedding_python(const DemoRequest& request) {
    if (request.origin.kind != WeightOrigin::Kind::torch) return weight_python(request);
    return {fmt::format("torch.manual_seed({})", request.seed), "embedding = torch.nn.Embedding(num_idx, out_dim)"};
}

std::string onehot_python(const DemoRequest& request) {
    return request.vocab_inferred ? "onehot = torch.nn.functional.one_hot(idx)\n"
                                  : "onehot = torch.nn.functional.one_hot(idx, num_classes=num_idx)\n";
}

// The sentence after the notebook's last cell: what embdemo found, from this run's verdict.
std::string verdict_prose(const DemoReport& report) {
    const std::string total = count_of(report.lookup.values.size(), "value", "values");
    if (report.verdict.identical) {
        return fmt::format("As we can see, this is exactly the same as what we got from the embedding layer: embdemo "
                           "found the lookup and X @ E identical in all {}.",
                           total);
    }
    return fmt::format("Here the two differ: embdemo found the lookup and X @ E differ in {} of {} (an inf or nan "
                       "in E times a 0 of X is nan, where the lookup copies the row).",
                       count_of(report.verdict.differing, "value", "values"), total);
}

// The notebook's cells, with this run's ids, sizes, seed and table.
std::string notebook_cells(const DemoReport& report) {
    const DemoRequest& request = report.request;
    std::string out = markdown_cell(fmt::format(
        "# An embedding layer is a linear layer applied to one-hot vectors\n\n"
        "Written by `embdemo --format python` for {} ids, V = {}, d = {}: the cells of the notebook "
        "\"Understanding the Difference Between Embedding Layers and Linear Layers\" with this run's values, "
        "then, apart, a bit check against embdemo's own numbers. Run it with python3 where PyTorch is installed, "
        "or open it as a notebook (`--format ipynb` writes one).",
        request.ids.size(), request.vocab_size, request.dim));
    const bool file = request.origin.kind == WeightOrigin::Kind::file;
    out += code_cell(std::string(file ? "import numpy\n" : "") + "import torch\nprint(\"PyTorch version:\", torch.__version__)");
    out += markdown_cell("## Using nn.Embedding\n\nThe token ids, the number of rows of the embedding matrix "
                         "(one for each id up to the largest) and the embedding dimension:");
    out += code_cell(all_ids_python(request) + '\n' + num_idx_python(request) + fmt::format("\nout_dim = {}", request.dim));
    out += markdown_cell(request.origin.kind == WeightOrigin::Kind::torch
                             ? "An embedding layer, its weights drawn from the seed:"
                             : "An embedding layer holding this run's table:");
    out += code_cell(lines(embedding_python(request)));
    out += markdown_cell("Its weights, E: one row for each token id.");
    out += code_cell("print(embedding.weight)");
    out += markdown_cell("The lookup: row k of E for each id k.");
    out += code_cell("print(embedding(idx))");
    out += markdown_cell("## Using nn.Linear\n\nThe same ids as one-hot rows, X:");
    out += code_cell(onehot_python(request) + "print(onehot)");
    out += markdown_cell("A Linear layer computes X @ W.T. It starts with small random weights of its own:");
    out += code_cell(fmt::format("torch.manual_seed({})\nlinear = torch.nn.Linear(num_idx, out_dim, bias=False)\n"
                                 "print(linear.weight)",
                                 request.seed));
    out += markdown_cell("To compare it with the embedding layer, give it the embedding's weights: W = E.T, a view "
                         "of E (no copy).");
    out += code_cell("linear.weight = torch.nn.Parameter(embedding.weight.T)");
    out += markdown_cell("The linear layer on the one-hot rows:");
    out += code_cell("print(linear(onehot.float()))");
    out += markdown_cell(verdict_prose(report));
    out += code_cell("print(embedding(idx))");
    return out;
}

}  // namespace

std::string render_lookup_python(const DemoReport& report) {
    const DemoRequest& request = report.request;
    const std::size_t n = request.ids.size();
    std::string out = notebook_cells(report);
    out += markdown_cell("## The bit check\n\n"
                         "embdemo computed the same numbers in C++. This part checks PyTorch's against them bit for "
                         "bit (-0.0 is not 0.0, a NaN's payload counts) and stops with an AssertionError if a single "
                         "bit differs.");
    out += code_cell(std::string("import numpy\n") + python_blas_pin() + python_bit_helpers());
    const std::string shape = shape_text(report.lookup, n, &request.shape);
    std::string check = "lookup = embedding(idx)    # E[idx]: rows copied\n"
                        "product = onehot.float() @ embedding.weight    # X @ E\n"
                        "# With W = E.T a view, W.T is E itself: the linear layer above makes the very call X @ E.\n"
                        "notebook_linear = linear(onehot.float())\n"
                        "# A Linear's own weight is a (d, V) tensor of its own, as training leaves it: embdemo's X @ W.T.\n"
                        "own_linear = torch.nn.Linear(num_idx, out_dim, bias=False)\n"
                        "own_linear.weight = torch.nn.Parameter(embedding.weight.T.contiguous())\n"
                        "linear_output = own_linear(onehot.float())\n\n";
    check += "# What embdemo computed, as float32 bit patterns.\n";
    check += "expected_lookup = " + bits_literal(report.lookup, all_rows(n), shape) + '\n';
    check += "expected_product = " + bits_literal(report.onehot_matmul, all_rows(n), shape) + '\n';
    check += "expected_linear = " + bits_literal(report.linear_output, all_rows(n), shape) + '\n';
    check += "assert same_bits(lookup, expected_lookup), \"PyTorch's lookup differs from embdemo's\"\n";
    check += "assert same_bits(product, expected_product), \"PyTorch's X @ E differs from embdemo's\"\n";
    check += "assert same_bits(notebook_linear, expected_product), \"the notebook's linear layer is not X @ E\"\n";
    check += "assert same_bits(linear_output, expected_linear), \"PyTorch's X @ W.T differs from embdemo's\"\n";
    const Comparison& verdict = report.verdict;
    const std::string total = count_of(report.lookup.values.size(), "value", "values");
    if (verdict.identical) {
        check += "assert same_bits(product, lookup), \"embdemo found X @ E identical to the lookup\"\n";
        check += fmt::format("print(\"PyTorch agrees with embdemo bit for bit ({}): the lookup and X @ E are identical.\")",
                             total);
    } else {
        check += fmt::format("differing = (product.detach().view(torch.int32) != lookup.detach().view(torch.int32)).sum()\n"
                             "assert differing == {}, \"embdemo found X @ E and the lookup differ in {}\"\n",
                             verdict.differing, count_of(verdict.differing, "value", "values"));
        check += fmt::format("print(\"PyTorch agrees with embdemo bit for bit ({}): X @ E and the lookup differ in {}, "
                             "as embdemo says.\")",
                             total, count_of(verdict.differing, "value", "values"));
    }
    out += code_cell(check);
    out.pop_back();  // one newline at the end of the file
    return out;
}

}  // namespace embdemo
