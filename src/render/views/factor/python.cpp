// --format python for `embdemo factor`: ALBERT's factorised embedding, e1 = nn.Embedding(V, r)
// and proj = nn.Linear(r, d, bias=False) drawn after one seed. The script computes both forms,
// proj(e1(idx)) and proj(one_hot(idx) @ e1.weight), re-checks each against embdemo's bits and
// both verdicts, and counts the parameters with PyTorch (on the meta device: shapes, no memory).
#include <fmt/format.h>

#include "render/kit/python_kit.hpp"
#include "render/views/python_script.hpp"
#include "render/views/factor/view.hpp"

namespace embdemo {

std::string render_factor_python(const FactorLesson& lesson) {
    const FactorRequest& request = lesson.request;
    const std::size_t n = request.ids.values.size();
    std::string out = python_preamble(
        "A factorised embedding (ALBERT): a V x r table, then a linear map from r to d.",
        fmt::format("{} ids, V = {}, r = {}, d = {}", n, request.vocab_size, request.rank, request.dim), "import numpy\n",
        true);
    out += ids_tensor_python(request.ids) + '\n';
    out += fmt::format("V, R, D = {}, {}, {}\n", request.vocab_size, request.rank, request.dim);
    out += fmt::format("torch.manual_seed({})\n", request.seed);
    out += "e1 = torch.nn.Embedding(V, R)    # E1, V x r\n";
    out += "proj = torch.nn.Linear(R, D, bias=False)    # weight d x r, drawn after E1: E2 = proj.weight.T\n";
    out += "first = e1(idx).detach()    # E1[idx]\n";
    out += "first_onehot = torch.nn.functional.one_hot(idx, V).float() @ e1.weight.detach()\n";
    out += "output = proj(first).detach()    # E1[idx] @ E2\n";
    out += "onehot_output = proj(first_onehot).detach()    # (one_hot(idx) @ E1) @ E2\n";
    out += "print(\"proj(e1(idx)) =\", output)\nprint(\"proj(one_hot(idx) @ E1) =\", onehot_output)\n\n";
    const IdShape shape = request.ids.shape();
    const auto expect = [&](const std::string& name, const Matrix& m, const std::string& what) {
        return expect_bits(name, m, all_rows(n), shape_text(m, n, &shape), what);
    };
    out += expect("first", lesson.lookup_e1, "E1[idx]");
    out += expect("first_onehot", lesson.onehot_e1, "one_hot(idx) @ E1");
    out += expect("output", lesson.output, "proj(e1(idx))");
    out += expect("onehot_output", lesson.onehot_output, "proj(one_hot(idx) @ E1)");
    out += comparison_asserts("first", "first_onehot", lesson.first_check, "E1[idx] and one_hot(idx) @ E1");
    out += comparison_asserts("output", "onehot_output", lesson.output_check, "the two outputs");
    out += "\ndef parameters(vocab, rank, dim):\n"
           "    \"\"\"V d for one table against V r + r d for the two factors, counted by PyTorch.\"\"\"\n"
           "    full = torch.nn.Embedding(vocab, dim, device=\"meta\").weight.numel()\n"
           "    factored = sum(p.numel() for p in (torch.nn.Embedding(vocab, rank, device=\"meta\").weight,\n"
           "                                        torch.nn.Linear(rank, dim, bias=False, device=\"meta\").weight))\n"
           "    return full, factored\n\n\n";
    out += fmt::format("assert parameters(V, R, D) == ({}, {}), \"embdemo counts other parameters here\"\n",
                       lesson.here.full, lesson.here.factored);
    out += fmt::format("assert parameters({}, {}, {}) == ({}, {}), \"embdemo counts other parameters for ALBERT\"\n",
                       k_albert_vocab, k_albert_rank, k_albert_dim, lesson.albert.full, lesson.albert.factored);
    out += fmt::format("print(\"PyTorch agrees with embdemo bit for bit: both forms, {}; the parameter counts too.\")\n",
                       lesson.output_check.identical ? "identical" : "differing as embdemo says");
    return out;
}

std::uint64_t factor_script_values(const FactorRequest& request) {
    const std::uint64_t d = request.dim, r = request.rank, n = request.ids.values.size();
    return 2 * n * r + 2 * n * d;  // first, first_onehot, output, onehot_output
}

}  // namespace embdemo
