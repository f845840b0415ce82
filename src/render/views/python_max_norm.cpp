// --format python for `embdemo --max-norm M`: nn.Embedding(..., max_norm=M, norm_type=P), whose
// forward rescales the rows it reads in place. The script keeps E as drawn, calls the layer, and
// re-checks against embdemo's bits: each distinct row's P-norm, which rows were rescaled and by
// what float32 scale, E after the call, the lookup against one_hot(idx) @ E as drawn and after,
// both verdicts, every rescaled row's norm after and what a second call does to it.
#include <cmath>

#include <fmt/format.h>

#include "render/kit/python_kit.hpp"
#include "render/views/python_script.hpp"
#include "render/kit/torch_lines.hpp"

namespace embdemo {
namespace {

const char* kind_name(RenormAfter::Kind kind) {
    switch (kind) {
        case RenormAfter::Kind::at_max_norm: return "at_max_norm";
        case RenormAfter::Kind::below: return "below";
        case RenormAfter::Kind::above: return "above";
        case RenormAfter::Kind::nan_norm: return "nan_norm";
        case RenormAfter::Kind::inf_norm: break;
    }
    return "inf_norm";
}

constexpr const char* k_kind = R"(def kind_of(norm):
    """Where a rescaled row's norm lands after the call, as embdemo words it: M to within 1e-6 of
    M, below or above it, nan (a second call leaves the row: nan > M is false) or inf."""
    if math.isnan(norm):
        return "nan_norm"
    if math.isinf(norm):
        return "inf_norm"
    if abs(norm - M) <= 1e-6 * M:
        return "at_max_norm"
    return "above" if norm > M else "below"


)";

std::string after_python(const MaxNormLesson& lesson) {
    std::vector<std::uint64_t> rows;
    std::vector<std::string> kinds;
    Matrix norms(1, lesson.after.size());
    for (std::size_t i = 0; i < lesson.after.size(); ++i) {
        rows.push_back(lesson.after[i].row);
        kinds.push_back(fmt::format("\"{}\"", kind_name(lesson.after[i].kind)));
        norms.at(0, i) = lesson.after[i].norm;
    }
    std::string out = k_kind;
    out += python_ints("rescaled_rows = ", rows, "\n");
    out += "norms_after = torch.stack([after[k].norm(P) for k in rescaled_rows]) if rescaled_rows else torch.zeros(0)\n";
    out += "expected_norms_after = " + bits_literal(norms, {0}, fmt::format("({},)", rows.size())) + '\n';
    out += "assert same_norms(norms_after, expected_norms_after), \"the norms after the call differ\"\n";
    out += wrapped_list("assert [kind_of(float(norm)) for norm in norms_after] == [", kinds,
                        "], \"the norms after land elsewhere\"\n");
    out += "largest = max([norm for norm in norms_after.tolist() if math.isfinite(norm)], default=0.0)\n";
    Matrix largest(1, 1);
    largest.at(0, 0) = lesson.largest_norm_after;
    out += "assert same_bits(torch.tensor([largest]), " + bits_literal(largest, {0}, "(1,)") +
           "), \"embdemo's largest norm after differs\"\n";
    out += "# A second call leaves the rows that are now at most M, or nan; it rescales those above M again.\n";
    out += "embedding(idx)\nagain = embedding.weight.detach()\n";
    out += "left = [k for k, norm in zip(rescaled_rows, norms_after.tolist()) if kind_of(norm) in (\"below\", \"nan_norm\")]\n";
    out += "assert same_bits(again[left], after[left]), \"a second call rescaled a row embdemo says it leaves\"\n";
    return out;
}

}  // namespace

std::string render_max_norm_python(const MaxNormLesson& lesson) {
    const DemoRequest& demo = lesson.request.demo;
    const MaxNorm& max_norm = lesson.request.max_norm;
    const std::size_t n = demo.ids.size();
    std::string out = python_preamble(
        "max_norm: the lookup rescales the rows it reads in place, so one_hot(idx) @ E (as drawn) no longer matches.",
        fmt::format("{} ids, V = {}, d = {}, max_norm = {}, norm_type = {}", n, demo.vocab_size, demo.dim,
                    max_norm.max_norm, max_norm.norm_type),
        "import math\nimport numpy\n", true);
    out += ids_tensor_python(lesson.request.ids) + '\n';
    out += fmt::format("M, P = {}, {}    # max_norm, norm_type\n", python_double(max_norm.max_norm),
                       python_double(max_norm.norm_type));
    out += lines(weight_python(demo, ", max_norm=M, norm_type=P"));
    out += "drawn = embedding.weight.detach().clone()    # E as drawn, before any call\n";
    out += onehot_line("onehot", demo.vocab_size, false);
    out += "onehot_drawn = onehot.float() @ drawn\n";
    out += "lookup = embedding(idx).detach()    # renormalises the rows it reads, in place, then reads them\n";
    out += "after = embedding.weight.detach().clone()\n";
    out += "onehot_after = onehot.float() @ after\n";
    out += "print(\"embedding(idx) =\", lookup)\nprint(\"one_hot(idx) @ E as drawn =\", onehot_drawn)\n\n";
    out += renorm_python(lesson.rows, lesson.weight, lesson.weight_after);
    const IdShape shape = lesson.request.ids.shape();
    const auto expect = [&](const std::string& name, const Matrix& m, const std::string& what) {
        return expect_bits(name, m, all_rows(n), shape_text(m, n, &shape), what);
    };
    out += expect("lookup", lesson.lookup, "lookup");
    out += expect("onehot_drawn", lesson.onehot_drawn, "one_hot(idx) @ E as drawn");
    out += expect("onehot_after", lesson.onehot_after, "one_hot(idx) @ E after the call");
    out += comparison_asserts("lookup", "onehot_drawn", lesson.drawn_check, "the lookup and one_hot(idx) @ E as drawn");
    out += comparison_asserts("lookup", "onehot_after", lesson.after_check, "the lookup and one_hot(idx) @ E after");
    out += after_python(lesson);
    out += fmt::format("print(\"PyTorch agrees with embdemo bit for bit: {} of {} rows rescaled; the lookup is {} "
                       "one_hot(idx) @ E as drawn and {} it after the call.\")\n",
                       lesson.after.size(), lesson.rows.size(),
                       lesson.drawn_check.identical ? "identical to" : "different from",
                       lesson.after_check.identical ? "identical to" : "different from");
    return out;
}

}  // namespace embdemo
