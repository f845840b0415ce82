#include "render/kit/torch_lines.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/escape.hpp"
#include "core/torch/init.hpp"
#include "render/kit/text_sections.hpp"

namespace embdemo {
namespace {

bool ends_with(const std::string& text, const std::string& suffix) {
    return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

// A path as Python must spell it to open exactly these bytes: a plain literal for printable
// ASCII, else os.fsdecode of a bytes literal (surrogateescape gives the bytes back to open()).
std::string python_string(const std::string& text) {
    const bool plain = std::all_of(text.begin(), text.end(), [](char ch) {
        const auto byte = static_cast<unsigned char>(ch);
        return byte >= 0x20 && byte < 0x7f;
    });
    std::string literal;
    for (const char ch : text) {
        const auto byte = static_cast<unsigned char>(ch);
        if (ch == '"' || ch == '\\') {
            literal += '\\';
            literal += ch;
        } else if (byte >= 0x20 && byte < 0x7f) {
            literal += ch;
        } else {
            literal += fmt::format("\\x{:02x}", byte);
        }
    }
    return plain ? '"' + literal + '"' : "os.fsdecode(b\"" + literal + "\")";
}

std::string ids_python(const DemoRequest& request) {
    return fmt::format("idx = torch.tensor({})", format_id_batch(request.id_batch()));
}

std::string all_ids_python(const DemoRequest& request) {
    constexpr std::size_t k_width = 100;
    const IdShape& shape = request.shape;
    std::string out = "idx = torch.tensor([";
    std::size_t line_start = 0;
    for (std::size_t i = 0; i < request.ids.size(); ++i) {
        const bool opens = shape.batched && i % shape.seq == 0;
        const bool closes = shape.batched && (i + 1) % shape.seq == 0;
        std::string item = (opens ? "[" : "") + std::to_string(request.ids[i]) + (closes ? "]" : "") +
                           (i + 1 < request.ids.size() ? "," : "");
        if (out.size() - line_start + item.size() + 1 > k_width) {
            out += "\n   ";
            line_start = out.size() - 3;
        }
        if (i > 0) out += ' ';
        out += item;
    }
    return out + "])";
}

std::string load_matrix_python(const std::string& path) {
    if (ends_with(path, ".csv")) return fmt::format("numpy.loadtxt({}, delimiter=\",\", ndmin=2)", python_string(path));
    if (ends_with(path, ".tsv")) return fmt::format("numpy.loadtxt({}, delimiter=\"\\t\", ndmin=2)", python_string(path));
    return fmt::format("numpy.load({})", python_string(path));
}

std::vector<std::string> weight_python(const DemoRequest& request, const std::string& module_args) {
    const std::string from_pretrained =
        fmt::format("embedding = torch.nn.Embedding.from_pretrained(E, freeze=False{})", module_args);
    switch (request.origin.kind) {
        case WeightOrigin::Kind::torch:
            return {fmt::format("torch.manual_seed({})", request.seed),
                    fmt::format("embedding = torch.nn.Embedding({}, {}{})", request.vocab_size, request.dim, module_args)};
        case WeightOrigin::Kind::torch_randint:
            return {fmt::format("torch.manual_seed({})", request.seed),
                    fmt::format("E = torch.randint({}, {}, ({}, {})).float()", k_randint_low, k_randint_high,
                                request.vocab_size, request.dim),
                    from_pretrained};
        case WeightOrigin::Kind::index_pattern:
            // The formula ("10*k + j") is valid Python as it stands.
            return {fmt::format("E = torch.tensor([[{} for j in range({})] for k in range({})],", request.origin.detail,
                                request.dim, request.vocab_size),
                    "                 dtype=torch.float32)", from_pretrained};
        case WeightOrigin::Kind::file: break;
    }
    // The walkthrough indents code by 6 columns and must fit 80: with a long file name, the
    // call is split over lines (a file name longer than about 20 characters still overflows).
    constexpr std::size_t k_code_width = 74;
    const std::string load = load_matrix_python(request.origin.detail);
    const std::string one_line = fmt::format("E = torch.tensor({}, dtype=torch.float32)", load);
    if (one_line.size() <= k_code_width) return {one_line, from_pretrained};
    return {"E = torch.tensor(", fmt::format("    {},", load), "    dtype=torch.float32)", from_pretrained};
}

}  // namespace embdemo
