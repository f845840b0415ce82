// --format python for `embdemo tied`: out_head = nn.Linear(d, V, bias=False) whose weight is the
// token table itself, as GPT-2 ties them. The script re-checks H, the logits H @ E.T (in full
// up to k_full_logits values, else a checksum a row), the top K of each row in embdemo's order
// (larger first, NaN on top, ties by the smaller id: torch.sort's stable order), each id's own
// rank, how many rows the input side's backward touches, and the parameter counts.
#include <fmt/format.h>

#include "render/kit/python_kit.hpp"
#include "render/views/python_script.hpp"
#include "render/kit/torch_lines.hpp"
#include "render/views/tied/view.hpp"

namespace embdemo {
namespace {

// Past this many logits the script carries a checksum a row rather than every value's bits.
constexpr std::size_t k_full_logits = std::size_t{1} << 20;

std::string logits_python(const TiedLesson& lesson) {
    if (lesson.logits.whole() && lesson.logits.values.values.size() <= k_full_logits) {
        return expect_bits("logits", lesson.logits.values, "logits");
    }
    std::vector<std::string> sums;
    for (const std::int64_t sum : lesson.row_bit_sums) sums.push_back(std::to_string(sum));
    return "# Too many logits to list: per row, the sum of their bit patterns weighted by column.\n"
           "columns = torch.arange(1, logits.shape[1] + 1)\n"
           "checksums = (logits.view(torch.int32).long() * columns).sum(dim=1)\n" +
           wrapped_list("expected_checksums = [", sums, "]\n") +
           "assert checksums.tolist() == expected_checksums, \"PyTorch's logits differ from embdemo's\"\n";
}

std::string top_python(const TiedLesson& lesson) {
    const std::size_t k = lesson.request.top;
    std::vector<std::string> rows;
    Matrix top_logits(lesson.top.size(), k);
    for (std::size_t i = 0; i < lesson.top.size(); ++i) {
        std::vector<std::string> ids;
        for (std::size_t r = 0; r < k; ++r) {
            ids.push_back(std::to_string(lesson.top[i][r].id));
            top_logits.at(i, r) = lesson.top[i][r].logit;
        }
        rows.push_back(fmt::format("[{}]", fmt::join(ids, ", ")));
    }
    std::string out = fmt::format("K = {}\n", k);
    out += "# embdemo's order: larger first, NaN above everything, equal logits by the smaller id.\n";
    out += "order = torch.sort(logits, dim=1, descending=True, stable=True).indices\n";
    out += "top_ids, top_logits = order[:, :K], logits.gather(1, order[:, :K])\n";
    out += "print(\"the top\", K, \"ids of each row:\", top_ids)\n";
    out += wrapped_list("expected_top_ids = [", rows, "]\n");
    out += "expected_top_logits = " + bits_literal(top_logits) + '\n';
    out += "assert top_ids.tolist() == expected_top_ids, \"PyTorch ranks other ids on top\"\n";
    out += "assert same_bits(top_logits, expected_top_logits), \"the top logits differ from embdemo's\"\n";
    out += "assert torch.allclose(torch.topk(logits, K).values, top_logits, rtol=0, atol=0, equal_nan=True), "
           "\"torch.topk finds other values\"\n";
    if (!lesson.own_rank.empty()) {
        std::vector<std::uint64_t> ranks(lesson.own_rank.begin(), lesson.own_rank.end());
        out += "own_rank = (order == idx.reshape(-1, 1)).nonzero()[:, 1]    # where each row's own id ranks\n";
        out += python_ints("assert own_rank.tolist() == ", ranks, ", \"the ids rank elsewhere in PyTorch\"\n");
    }
    return out;
}

}  // namespace

std::string render_tied_python(const TiedLesson& lesson, const std::string& hidden_file) {
    const TiedRequest& request = lesson.request;
    const std::size_t n = request.ids.values.size();
    std::string out = python_preamble(
        "Weight tying: the output layer's weight is the embedding table E itself.",
        fmt::format("{} ids, V = {}, d = {}, top {}", n, request.vocab_size, request.dim, request.top),
        "import numpy\n", false);
    out += ids_tensor_python(request.ids) + '\n';
    out += fmt::format("V, D = {}, {}\n", request.vocab_size, request.dim);
    out += fmt::format("torch.manual_seed({})\n", request.seed);
    out += "tok_emb = torch.nn.Embedding(V, D)\n";
    out += "out_head = torch.nn.Linear(D, V, bias=False)    # its weight is V x d (out x in): E's own shape\n";
    out += "out_head.weight = tok_emb.weight    # tied\n";
    if (request.hidden_given) {
        out += fmt::format("H = torch.tensor({}, dtype=torch.float32).reshape(-1, D)    # the final hidden states\n",
                           load_matrix_python(hidden_file));
    } else {
        out += "H = tok_emb(idx).detach().reshape(-1, D)    # the hidden states: here E[idx] itself\n";
    }
    out += "logits = out_head(H).detach()    # H @ E.T, one row of V logits per id\n";
    out += "print(\"logits =\", logits)\n\n";
    out += expect_bits("H", lesson.hidden, "H");
    out += logits_python(lesson);
    out += top_python(lesson);
    out += "tok_emb(idx).sum().backward()    # the input side's backward touches the rows the ids use\n";
    out += "rows_used = int((tok_emb.weight.grad != 0).any(dim=1).sum())\n";
    out += fmt::format("assert rows_used == {}, \"embdemo counts {} rows the input side updates\"\n", lesson.rows_used,
                       lesson.rows_used);
    out += "untied_head = torch.nn.Linear(D, V, bias=False, device=\"meta\")    # shapes only, no numbers\n";
    out += fmt::format("assert tok_emb.weight.numel() + untied_head.weight.numel() == {}, \"untied count\"\n",
                       lesson.here.untied);
    out += fmt::format("assert sum(p.numel() for p in torch.nn.ModuleList([tok_emb, out_head]).parameters()) == {}, "
                       "\"tied count\"\n",
                       lesson.here.tied);
    out += "print(\"PyTorch agrees with embdemo bit for bit: H, the logits, their top K and the parameter counts.\")\n";
    return out;
}

std::uint64_t tied_script_values(const TiedRequest& request) {
    const std::uint64_t v = request.vocab_size, d = request.dim, n = request.ids.values.size();
    // H, the logits (a checksum a row past k_full_logits) and each row's top K
    const std::uint64_t logits = n * v <= k_full_logits ? n * v : n;
    return n * d + logits + n * request.top;
}

}  // namespace embdemo
