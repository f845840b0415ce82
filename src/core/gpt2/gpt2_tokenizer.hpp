// Text to GPT-2 token ids, as the book gets them:
//   tiktoken.get_encoding("gpt2").encode(text, allowed_special={"<|endoftext|>"})
// "<|endoftext|>" anywhere in the text is the special token 50,256; the text between is cut into
// pieces by gpt2_pieces and each piece encoded by BPE.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/gpt2/gpt2_vocab.hpp"

namespace embdemo {

// One piece of the text and the ids it became.
struct TextPiece {
    std::string_view text;
    std::vector<std::uint64_t> ids;
    bool special = false;  // <|endoftext|>, which is never split or merged
};

// `text` must be valid UTF-8.
std::vector<TextPiece> tokenize_gpt2(const Gpt2Vocabulary& vocab, std::string_view text);

std::vector<std::uint64_t> encode_gpt2(const Gpt2Vocabulary& vocab, std::string_view text);

// How many pieces tokenize_gpt2 cuts `text` (valid UTF-8) into, without encoding them.
std::size_t count_gpt2_pieces(std::string_view text);

// Room for a text's ids that English text does not outgrow (a text may still need more).
std::size_t likely_token_count(std::string_view text);

// Each piece of `text` (valid UTF-8) in order, with its ids, to `take`: for a caller that keeps
// less than a record per piece (a 16 MiB text has millions of pieces).
void for_each_gpt2_piece(const Gpt2Vocabulary& vocab, std::string_view text,
                         const std::function<void(TextPiece&&)>& take);

// A token's bytes as views print them between quotes: the leading space kept, printable
// characters as themselves, '"' and '\' escaped, tab/newline/return as \t \n \r, and every other
// control byte or byte that is not UTF-8 on its own (a token can hold half a character) as \xNN.
std::string token_label(std::string_view bytes);

// `text` as token_label spells it, between quotes, cut to about `max_columns` with "..." (never
// inside a character or an escape). As display_width counts, so the cut bounds characters
// (max_columns) and bytes (4 x max_columns) too.
std::string quoted_text(std::string_view text, std::size_t max_columns);

// The columns UTF-8 text may take, for the 80-column budget: a terminal's (2 for most CJK and
// emoji), but at least 1 for every character, combining marks and zero-width characters
// included, so that a line within the budget also has at most 80 characters and 320 bytes.
std::size_t display_width(std::string_view text);

}  // namespace embdemo
