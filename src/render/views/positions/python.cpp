// --format python for `embdemo positions`: the token table and the position table (learned,
// sinusoidal) or rotation (rope) as the lesson computes them, each lookup beside its one-hot
// product. Sinusoidal and rope angles are computed as embdemo computes them, in double with the
// C library's pow, sin and cos (which Python's math module calls) and rounded once to float32,
// so that the tensors can be compared bit for bit; torch's own float32 sin would differ in the
// last bits. The script re-checks every tensor, every verdict, the repeated-token claim, rope's
// scores, the encodings compared side by side and the data loader's first batch.
#include <fmt/format.h>

#include "render/kit/python_kit.hpp"
#include "render/views/python_script.hpp"
#include "render/views/positions/view.hpp"

namespace embdemo {
namespace {

constexpr const char* k_sinusoidal = R"(

def sinusoidal_table(context, dim):
    """PE[p, 2i] = sin(p / 10000^(2i/d)), PE[p, 2i+1] = cos(p / 10000^(2i/d)): each angle in
    double (Python's floats), each value rounded once to float32, as embdemo computes them."""
    return torch.tensor([[(math.sin if j % 2 == 0 else math.cos)(p / 10000.0 ** ((j - j % 2) / dim))
                          for j in range(dim)] for p in range(context)], dtype=torch.float32)
)";

constexpr const char* k_rope = R"(

def rope(x, positions):
    """Each row x[i] (d even) turned to its position t = positions[i]:
    x * cos(t theta) + rotate_half(x) * sin(t theta), theta_j = 10000^(-2j/d) for both halves.
    cos and sin are computed in double and rounded once to float32, as embdemo computes them;
    the products and the sum are torch's float32 arithmetic."""
    d = x.shape[-1]
    half = d // 2
    theta = [1.0 / math.pow(10000.0, (2 * j) / d) for j in range(half)]
    cos = torch.tensor([[math.cos(t * theta[j % half]) for j in range(d)] for t in positions], dtype=torch.float32)
    sin = torch.tensor([[math.sin(t * theta[j % half]) for j in range(d)] for t in positions], dtype=torch.float32)
    rotated = torch.cat((-x[..., half:], x[..., :half]), dim=-1)
    return x * cos + rotated * sin


def rope_score(a, p, b, q):
    """q . k of rows a at position p and b at position q after rotation, summed in double in order."""
    score = 0.0
    for x, y in zip(rope(a[None], [p])[0].tolist(), rope(b[None], [q])[0].tolist()):
        score += x * y
    return score
)";

constexpr const char* k_loader = R"(

class GPTDatasetV1(torch.utils.data.Dataset):
    """The book's dataset (chapter 2): windows of max_length tokens every `stride` tokens, each
    with its target, the same window shifted by one token."""
    def __init__(self, token_ids, max_length, stride):
        self.input_ids, self.target_ids = [], []
        for i in range(0, len(token_ids) - max_length, stride):
            self.input_ids.append(torch.tensor(token_ids[i:i + max_length]))
            self.target_ids.append(torch.tensor(token_ids[i + 1:i + max_length + 1]))

    def __len__(self):
        return len(self.input_ids)

    def __getitem__(self, i):
        return self.input_ids[i], self.target_ids[i]
)";

std::string flat_rows(const std::string& name) { return name + ".reshape(-1, " + name + ".shape[-1])"; }

std::string loader_python(const PositionsRequest& request) {
    const LoaderWindows& loader = request.ids.source.loader;
    std::string out = k_loader;
    IdBatch targets = target_batch(loader.targets, loader.batch, loader.context);
    out += "\n" + ids_tensor_python(targets).replace(0, 3, "expected_targets") + '\n';
    out += fmt::format("B, T, S = {}, {}, {}    # batch_size, max_length, stride\n", loader.batch, loader.context,
                       loader.stride);
    std::vector<std::uint64_t> next_tokens;
    for (std::size_t b = 0; b < loader.batch; ++b) {
        next_tokens.push_back(loader.targets[b * loader.context + loader.context - 1]);
    }
    out += python_ints("next_tokens = ", next_tokens,
                       "    # the token after each window: the text's, as only a target shows it\n");
    out += "# The tokens the first batch reads (0 stands for one no window reads; the whole text made " +
           std::to_string(loader.windows) + " windows):\n"
           "# each window's next token, then the windows, which must agree with it where they overlap.\n";
    out += "token_ids = [0] * ((B - 1) * S + T + 1)\n"
           "for b in range(B):\n"
           "    token_ids[b * S + T] = next_tokens[b]\n"
           "for b in range(B):\n"
           "    token_ids[b * S:b * S + T] = idx[b].tolist()\n";
    out += "loader = torch.utils.data.DataLoader(GPTDatasetV1(token_ids, T, S), batch_size=B, shuffle=False,\n"
           "                                     drop_last=True)\n"
           "inputs, targets = next(iter(loader))\n"
           "assert torch.equal(inputs, idx), \"the data loader's first batch is not embdemo's ids\"\n"
           "assert torch.equal(targets, expected_targets), \"the data loader's targets are not embdemo's\"\n";
    return out;
}

std::string rope_scores_python(const RopeScores& scores) {
    std::vector<std::string> rows;
    for (const auto& row : scores.scores) {
        std::vector<std::string> items;
        for (const double score : row) items.push_back(python_double(score));
        rows.push_back(fmt::format("[{}]", fmt::join(items, ", ")));
    }
    std::string out = fmt::format("starts, offsets = [{}], [{}]\n", fmt::join(scores.starts, ", "),
                                  fmt::join(scores.offsets, ", "));
    out += fmt::format("a, b = {}[{}], {}[{}]    # the token rows scored\n", flat_rows("tokens"), scores.first,
                       flat_rows("tokens"), scores.second);
    out += "scores = [[rope_score(a, p, b, p + k) for p in starts] for k in offsets]\n";
    out += "print(\"rope scores, one row per offset:\", scores)\n";
    out += wrapped_list("expected_scores = [", rows, "]\n");
    out += "assert scores == expected_scores, \"rope's scores differ from embdemo's\"\n";
    out += fmt::format("assert max(max(row) - min(row) for row in scores) == {}, \"embdemo's widest spread differs\"\n",
                       python_double(scores.widest_spread));
    return out;
}

std::string repeated_python(const std::optional<RepeatedToken>& repeated) {
    std::string out =
        "flat, first_use, repeated = idx.reshape(-1).tolist(), {}, None\n"
        "for second, k in enumerate(flat):    # the first id met again at another position t\n"
        "    first = first_use.setdefault(k, second)\n"
        "    if first % T != second % T:\n"
        "        rows = " + flat_rows("output") + "\n"
        "        repeated = (k, first, second, int((rows[first] != rows[second]).sum()))\n"
        "        break\n";
    if (!repeated) return out + "assert repeated is None, \"embdemo found no id at two positions\"\n";
    return out + fmt::format("assert repeated == ({}, {}, {}, {}), \"embdemo found id {} at flat positions {} and {}, "
                             "differing in {} columns\"\n",
                             repeated->id, repeated->first, repeated->second, repeated->differing_columns,
                             repeated->id, repeated->first, repeated->second, repeated->differing_columns);
}

std::string compared_python(const PositionsLesson& lesson, const std::string& shape) {
    const EncodingOutputs& compared = *lesson.compared;
    std::string out = "\n# The three encodings side by side.\n";
    out += "by_learned = tokens + learned(positions).detach()\n";
    out += "by_sinusoidal = tokens + sinusoidal_table(C, D)[positions]\n";
    out += expect_bits("by_learned", compared.learned, all_rows(compared.learned.rows), shape, "output with a learned table");
    out += expect_bits("by_sinusoidal", compared.sinusoidal, all_rows(compared.sinusoidal.rows), shape,
                       "output with the sinusoidal table");
    if (compared.rope.rows > 0) {
        out += "by_rope = rope(" + flat_rows("tokens") + ", [i % T for i in range(idx.numel())]).reshape(tokens.shape)\n";
        out += expect_bits("by_rope", compared.rope, all_rows(compared.rope.rows), shape, "output with rope");
    }
    return out;
}

}  // namespace

std::string render_positions_python(const PositionsLesson& lesson) {
    const PositionsRequest& request = lesson.request;
    const PositionEncoding encoding = request.encoding;
    const bool rope_only = encoding == PositionEncoding::rope;
    const std::size_t n = request.ids.values.size();
    std::string out = python_preamble(
        "Positions: a second embedding table (or a rotation), added to the token embeddings.",
        fmt::format("{} ids, V = {}, d = {}, C = {}, encoding {}", n, request.vocab_size, request.dim, request.context,
                    encoding_name(encoding)),
        "import math\nimport numpy\n", true);
    const bool sinusoidal = encoding == PositionEncoding::sinusoidal || lesson.compared;
    const bool rope = rope_only || (lesson.compared && lesson.compared->rope.rows > 0);
    if (sinusoidal) out += std::string(k_sinusoidal).substr(1);
    if (rope) out += std::string(k_rope).substr(1);
    out += '\n' + ids_tensor_python(request.ids) + '\n';
    out += fmt::format("V, D, C, T = {}, {}, {}, idx.shape[-1]\n", request.vocab_size, request.dim, request.context);
    out += "positions = torch.arange(T)\n";
    out += fmt::format("torch.manual_seed({})\n", request.seed);
    out += "tok = torch.nn.Embedding(V, D)    # E, drawn first\n";
    switch (encoding) {
        case PositionEncoding::learned: out += "pos = torch.nn.Embedding(C, D)    # P, drawn right after E\n"; break;
        case PositionEncoding::sinusoidal:
            out += "pos = torch.nn.Embedding.from_pretrained(sinusoidal_table(C, D))    # a fixed table\n";
            break;
        case PositionEncoding::rope: break;
    }
    if (lesson.compared) {
        out += encoding == PositionEncoding::learned ? "learned = pos\n"
                                                     : "learned = torch.nn.Embedding(C, D)    # drawn right after E\n";
    }
    out += "tokens = tok(idx).detach()\n";
    out += "tokens_onehot = torch.nn.functional.one_hot(idx, V).float() @ tok.weight.detach()\n";
    const IdShape id_shape = request.ids.shape();
    const std::string out_shape = shape_text(lesson.output, n, &id_shape);
    if (rope_only) {
        out += "rows = [i % T for i in range(idx.numel())]    # each row's position t\n";
        out += "output = rope(" + flat_rows("tokens") + ", rows).reshape(tokens.shape)\n";
        out += "onehot_output = rope(" + flat_rows("tokens_onehot") + ", rows).reshape(tokens.shape)\n";
    } else {
        out += "places = pos(positions).detach()\n";
        out += "places_onehot = torch.nn.functional.one_hot(positions, C).float() @ pos.weight.detach()\n";
        out += "output = tokens + places\n";
        out += "onehot_output = tokens_onehot + places_onehot\n";
    }
    out += "print(\"output =\", output)\nprint(\"from the one-hot products =\", onehot_output)\n\n";
    const auto expect = [&](const std::string& name, const Matrix& m, const std::string& what) {
        return expect_bits(name, m, all_rows(n), out_shape, what);
    };
    out += expect("tokens", lesson.token_lookup, "token lookup");
    out += expect("tokens_onehot", lesson.token_onehot, "one_hot(idx) @ E");
    out += expect("output", lesson.output, "output");
    out += expect("onehot_output", lesson.onehot_output, "output of the one-hot forms");
    if (!rope_only) {
        out += expect_bits("places", lesson.position_lookup, "position lookup");
        out += expect_bits("places_onehot", lesson.position_onehot, "one_hot(t) @ P");
        out += comparison_asserts("places", "places_onehot", lesson.position_check, "the two position forms");
    }
    out += comparison_asserts("tokens", "tokens_onehot", lesson.token_check, "the two token forms");
    out += comparison_asserts("output", "onehot_output", lesson.output_check, "the two outputs");
    out += repeated_python(lesson.repeated);
    if (lesson.rope_scores) out += rope_scores_python(*lesson.rope_scores);
    if (lesson.compared) out += compared_python(lesson, out_shape);
    if (request.ids.source.loader.used()) out += loader_python(request);
    out += fmt::format("print(\"PyTorch agrees with embdemo bit for bit: E[idx], {}, the output and {}.\")\n",
                       rope_only ? "its rotation" : "P[t]",
                       lesson.output_check.identical ? "its one-hot form, identical"
                                                     : "its one-hot form, differing as embdemo says");
    return out;
}

std::uint64_t positions_script_values(const PositionsRequest& request) {
    const std::uint64_t d = request.dim, n = request.ids.values.size();
    // tokens, tokens_onehot, output, onehot_output; places and places_onehot (T x d) unless rope;
    // with --encoding the output under each of the three encodings.
    const std::uint64_t places = request.encoding == PositionEncoding::rope ? 0 : 2 * request.ids.seq * d;
    return 4 * n * d + places + (request.encoding_given ? 3 * n * d : 0);
}

}  // namespace embdemo
