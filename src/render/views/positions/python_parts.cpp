// The Python pieces of `embdemo positions`'s script that are its own: the sinusoidal table and
// the rotation as embdemo computes them (angles in double with the C library's pow, sin and cos,
// which Python's math module calls, each rounded once to float32, so that the tensors compare bit
// for bit; torch's own float32 sin would differ in the last bits), the book's data loader, and the
// asserts of the repeated token, RoPE's scores and the encodings side by side.
#include <fmt/format.h>

#include "render/kit/python_kit.hpp"
#include "render/views/python_script.hpp"
#include "render/views/positions/parts.hpp"

namespace embdemo {

extern const char* const k_sinusoidal_python = R"(

def sinusoidal_table(context, dim):
    """PE[p, 2i] = sin(p / 10000^(2i/d)), PE[p, 2i+1] = cos(p / 10000^(2i/d)): each angle in
    double (Python's floats), each value rounded once to float32, as embdemo computes them."""
    return torch.tensor([[(math.sin if j % 2 == 0 else math.cos)(p / 10000.0 ** ((j - j % 2) / dim))
                          for j in range(dim)] for p in range(context)], dtype=torch.float32)
)";

extern const char* const k_alibi_python = R"(

def get_slopes(n):
    """ALiBi's head slopes as the paper's code computes them (Press et al., get_slopes in
    attention_with_linear_biases' fairseq transformer.py), in Python floats."""
    def get_slopes_power_of_2(n):
        start = (2**(-2**-(math.log2(n)-3)))
        ratio = start
        return [start*ratio**i for i in range(n)]
    if math.log2(n).is_integer():
        return get_slopes_power_of_2(n)
    closest_power_of_2 = 2**math.floor(math.log2(n))
    return get_slopes_power_of_2(closest_power_of_2) + get_slopes(2*closest_power_of_2)[0::2][:n-closest_power_of_2]


def softmax_row(row):
    """Softmax of one query row's causal scores in double, in order of j, as embdemo computes it."""
    high = max(row)
    weights = [math.exp(x - high) for x in row]
    total = 0.0
    for w in weights:
        total += w
    return [w / total for w in weights]
)";

extern const char* const k_rope_python = R"(

def rope(x, positions):
    """Each row x[i] (d even) turned to its position t = positions[i]:
    x * cos(t theta) + rotate_half(x) * sin(t theta), theta_j = 10000^(-2j/d) for both halves.
    cos and sin are computed in double and rounded once to float32, as embdemo computes them;
    the products and the sum are torch's float32 arithmetic. So this recipe, not the book's
    compute_rope below (float32 angles), is what the script checks bit for bit."""
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

extern const char* const k_book_rope_python = R"(

def precompute_rope_params(head_dim, theta_base=10_000, context_length=4096):
    """The book's RoPE tables (its Llama chapter): the angles t * inv_freq in float32, so each
    cos and sin is float32's, not the correctly rounded value rope() above uses."""
    inv_freq = 1.0 / (theta_base ** (torch.arange(0, head_dim, 2)[: (head_dim // 2)].float() / head_dim))
    positions = torch.arange(context_length)
    angles = positions[:, None] * inv_freq[None, :]
    angles = torch.cat([angles, angles], dim=1)
    return torch.cos(angles), torch.sin(angles)


def compute_rope(x, cos, sin):
    """The book's rotation of x (batch, heads, seq_len, head_dim)."""
    batch_size, num_heads, seq_len, head_dim = x.shape
    x1 = x[..., : head_dim // 2]
    x2 = x[..., head_dim // 2 :]
    cos = cos[:seq_len, :].unsqueeze(0).unsqueeze(0)
    sin = sin[:seq_len, :].unsqueeze(0).unsqueeze(0)
    rotated = torch.cat((-x2, x1), dim=-1)
    x_rotated = (x * cos) + (rotated * sin)
    return x_rotated.to(dtype=x.dtype)
)";

extern const char* const k_loader_python = R"(

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
    std::string out = k_loader_python;
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

}  // namespace embdemo
