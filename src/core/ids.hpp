// Strict decimal parsing of token ids and other non-negative integers typed on the command line.
// Only plain decimal digits are numbers here: no sign, no 0x/0 prefixes, no exponent, no empty
// items. Anything else is refused with a message that names the offending item, because a
// silently reinterpreted id would make the demonstration show the wrong row. Rows separated by
// ';' form a batch of sequences, as torch.tensor([[2, 3, 1], [0, 1, 1]]) does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/parse_result.hpp"
#include "core/tokenizers/tokenized.hpp"

namespace embdemo {

// "123" -> 123. Accepts 0 .. max_value (inclusive), refuses everything that is not plain decimal.
ParseResult<std::uint64_t> parse_decimal(std::string_view text,
                                         std::uint64_t max_value = UINT64_MAX);

// "2,3,1" -> {2, 3, 1}. Spaces around an item are allowed ("2, 3, 1"); repeated ids are kept.
ParseResult<std::vector<std::uint64_t>> parse_id_list(std::string_view text);

// Ids with the shape they were typed in. "2,3,1;0,1,1" is a batch of B = 2 sequences of T = 3
// (values holds them row-major, like a contiguous torch.tensor); "2,3,1" is a flat list, which
// keeps the one-dimensional shape of today's lessons (B = 1, batched = false).
// The shape ids were typed in, without the ids: what views need to name a position.
struct IdShape {
    std::size_t batch = 1;  // B
    std::size_t seq = 0;    // T
    bool batched = false;   // B x T rather than a flat list
};

// Flat position `i` as torch indexes the ids tensor: "2" in a list, "1,0" (b, t) in a batch.
std::string index_text(const IdShape& shape, std::size_t i);

// The same position in the one notation of the lessons outside grad (docs/design.md, Notation):
// "2" in a list, "1, 0" in a batch, as PyTorch writes ids[1, 0].
std::string torch_index(const IdShape& shape, std::size_t i);

// Where ids came from when they were not typed: the text (--text, --text-file) and, per id, its
// token as views quote it (for GPT-2, core/gpt2/gpt2_tokenizer's token_label). Empty for --ids.
// When the ids are the first batch of the book's data loader over a text (--context T with
// --text): its settings, how many windows the text makes, and the targets (B x T, row-major,
// each window shifted by one token). Empty (batch 0) otherwise.
struct LoaderWindows {
    std::size_t batch = 0;    // B, batch_size
    std::size_t context = 0;  // T, max_length
    std::size_t stride = 0;   // S
    std::size_t windows = 0;  // the windows the whole text makes
    std::vector<std::uint64_t> targets;
    bool used() const { return batch > 0; }
};

struct IdSource {
    std::string text;
    // Any id's token, made when a view asks: the ids' own, or ids the text did not use (a
    // predicted next token). Empty for typed ids; "" for an id past the tokenizer's vocabulary.
    // Not stored per id: a 16 MiB text has millions of tokens, and views list a few.
    std::function<std::string(std::uint64_t)> token_of;
    bool from_text() const { return static_cast<bool>(token_of); }
    LoaderWindows loader;
    // The tokenizer that cut the text (--tokenizer) and its vocabulary's size, the V its ids
    // index: GPT-2's 50,257, BERT's 30,522, or the size SentencePiece trained. 0 for typed ids.
    TokenizerKind tokenizer = TokenizerKind::gpt2;
    std::uint64_t vocab_size = 0;
};

struct IdBatch {
    std::vector<std::uint64_t> values;  // B * T ids, row-major
    std::size_t batch = 1;              // B
    std::size_t seq = 0;                // T
    bool batched = false;               // written with ';': shape B x T rather than T
    IdSource source;

    IdShape shape() const { return {batch, seq, batched}; }

    std::vector<std::uint64_t> row(std::size_t b) const {
        const auto begin = values.begin() + static_cast<std::ptrdiff_t>(b * seq);
        return {begin, begin + static_cast<std::ptrdiff_t>(seq)};
    }
};

// "2,3,1;0,1,1" -> 2 x 3; "2,3,1" -> flat 3. Each row is read by parse_id_list. Empty rows,
// a trailing ';' and rows of different lengths are refused, naming the row from 0 like the
// batch index b of torch.tensor (the item inside a row keeps parse_id_list's count from 1).
ParseResult<IdBatch> parse_id_batch(std::string_view text);

// Bags of ids for nn.EmbeddingBag: ragged by nature, flat ids plus offsets as torch takes them.
// "2,3;1,1,0" is two bags; nothing (or only blanks) between two ';' is an empty bag, which
// EmbeddingBag reduces to zeros: "2,3;;1" is bags [2, 3], [], [1] (offsets 0, 2, 2), and an
// empty first or last bag is written ";2,3" or "2,3;".
struct Bags {
    std::vector<std::uint64_t> ids;     // every bag's ids in order: EmbeddingBag's `input`
    std::vector<std::size_t> offsets;   // B + 1 entries: bag b is ids[offsets[b], offsets[b+1])
    std::size_t count() const { return offsets.size() - 1; }
    std::size_t size(std::size_t b) const { return offsets[b + 1] - offsets[b]; }
};

// "2,3;;1" -> 3 bags. The text must not be empty; each non-empty bag is read by
// parse_id_list, and a message names the bag from 0 (torch's bag index).
ParseResult<Bags> parse_bags(std::string_view text);

// "0.5,2;1,1,1": one finite decimal number per id, bag by bag in the layout of `bags` (an empty
// bag has no weights), each rounded to float32 as torch.tensor([...]) rounds Python floats.
ParseResult<std::vector<float>> parse_bag_weights(std::string_view text, const Bags& bags);

}  // namespace embdemo
