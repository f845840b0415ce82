// `embdemo tokens`: how GPT-2's tokenizer turns a text into the ids that index the table. The
// text is cut into pieces by GPT-2's pattern, one piece is followed through BPE merge by merge,
// and the glossary's claim that subwords make tables practical gets numbers: the text's distinct
// words (the book's chapter-2 word split) against its BPE tokens, and a word-level table's rows
// against GPT-2's 50,257. Pure: no printing, no files.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/gpt2/gpt2_vocab.hpp"
#include "core/tokenizers/tokenized.hpp"

namespace embdemo {

// A well-known word-level embedding table, for the size comparison: GloVe's 6B vectors
// (Pennington, Socher and Manning, 2014; Wikipedia 2014 + Gigaword 5) have 400,000 words.
constexpr std::uint64_t k_glove_6b_words = 400000;

// How many pieces and ids a text cuts into: counted first, so that the lists are reserved once
// (a list that doubles holds its old and new buffer at once) and the memory known before.
struct TokenCounts {
    std::size_t pieces = 0;
    std::size_t ids = 0;
};

struct TokensRequest {
    std::string text;                  // valid UTF-8 (the caller checks)
    // --ids: decode these instead of cutting a text (core/gpt2/gpt2_decode); each below 50,257.
    std::optional<std::vector<std::uint64_t>> decode_ids;
    std::optional<std::size_t> piece;  // the piece to follow through BPE; default: the one with the most merges
    std::uint64_t dim = 768;           // d for the table sizes (GPT-2 small's by default)
    // --tokenizer other than gpt2: the tokenizers to compare (core/lessons/tokenizer_comparison),
    // empty for GPT-2's own lesson; --vocab-size for the two SentencePiece trains.
    std::vector<TokenizerKind> tokenizers;
    std::uint64_t trained_vocab_size = 1000;
    bool vocab_size_given = false;
    // count_tokens of the text, when the caller counted it (to check the memory budget).
    std::optional<TokenCounts> counts;
};

// A piece as cut from the text, by position, in 20 bytes: a 16 MiB text has millions of pieces
// (16 Mi of "a1"), and a string and a vector each took 200 bytes a piece, size_t fields 40. A
// text is at most 16 MiB, so every field fits 32 bits.
struct TokenPiece {
    std::uint32_t offset = 0;    // its bytes: request.text[offset, offset + size)
    std::uint32_t size = 0;
    std::uint32_t first_id = 0;  // its ids: ids[first_id, first_id + id_count)
    std::uint32_t id_count = 0;
    bool special = false;        // <|endoftext|>
};
static_assert(sizeof(TokenPiece) == 20, "the memory estimate counts 20 bytes a piece");

// A piece's ids, where they are in TokensLesson::ids.
struct IdRange {
    const std::uint64_t* first = nullptr;
    const std::uint64_t* last = nullptr;
    const std::uint64_t* begin() const { return first; }
    const std::uint64_t* end() const { return last; }
    std::size_t size() const { return static_cast<std::size_t>(last - first); }
};

struct TokensLesson {
    TokensRequest request;
    std::vector<TokenPiece> pieces;
    std::size_t followed = 0;          // index into pieces
    std::vector<BpeMerge> merges;      // BPE's merges of pieces[followed], in order
    std::vector<std::uint64_t> ids;    // every piece's ids in order
    std::size_t distinct_tokens = 0;
    std::size_t words = 0;             // the book's word split: items in the text
    std::size_t distinct_words = 0;

    std::string_view bytes_of(const TokenPiece& piece) const {
        return std::string_view(request.text).substr(piece.offset, piece.size);
    }
    IdRange ids_of(const TokenPiece& piece) const {
        return {ids.data() + piece.first_id, ids.data() + piece.first_id + piece.id_count};
    }
};

// The pieces and ids GPT-2 cuts `text` (valid UTF-8) into, without keeping them.
TokenCounts count_tokens(const Gpt2Vocabulary& vocab, std::string_view text);

// The request's piece must exist (the caller checks against count_gpt2_pieces). `counts`, when
// the caller has them, are count_tokens of the request's text.
TokensLesson run_tokens_lesson(const Gpt2Vocabulary& vocab, const TokensRequest& request,
                               const TokenCounts* counts = nullptr);

// The book's SimpleTokenizerV1 split, re.split(r'([,.:;?_!"()\']|--|\s)', text) with blanks
// dropped: words and punctuation marks, the items a word-level vocabulary needs a row for.
std::vector<std::string> book_word_split(const std::string& text);

}  // namespace embdemo
