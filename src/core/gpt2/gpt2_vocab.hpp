// GPT-2's vocabulary and its byte-pair merges, read from GPT-2's own vocab.bpe.
// Token ids are tiktoken's ranks, which is how tiktoken builds its "gpt2" encoding from the same
// file: ids 0-255 are the single bytes in the order of GPT-2's printable byte alphabet, id 256 + r
// is the result of merge r (line r of the file), and id 50,256 is <|endoftext|>. That these are
// the ids of GPT-2's encoder.json is checked by tools/make_gpt2_token_vectors.js.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/gpt2/token_index.hpp"
#include "core/parse_result.hpp"

namespace embdemo {

constexpr std::uint64_t k_gpt2_vocab_size = 50257;
constexpr std::uint64_t k_gpt2_end_of_text = 50256;
constexpr std::string_view k_end_of_text_text = "<|endoftext|>";

// A piece of at least this many bytes is merged with a queue per rank, a shorter one with one
// binary heap (gpt2_bpe.cpp): below it the index of 50,257 ranks costs more than the heap's
// cache misses save. Both give the same merges; tests cover each side.
constexpr std::size_t k_bpe_rank_bucket_bytes = 4096;

// One merge as BPE applied it to a piece: the two tokens joined and the token they became,
// whose id is its rank (lower merges first).
struct BpeMerge {
    std::uint64_t left = 0;
    std::uint64_t right = 0;
    std::uint64_t merged = 0;
};

// What BPE did for a piece, counted so that tests can hold its cost to n log n without timing
// it: a rescan after every merge (n^2 pair lookups) or lost candidates would show here.
// `rank_buckets` says which queue ran: the binary heap of short pieces, or the per-rank buckets
// of long ones (gpt2_bpe.cpp).
struct BpeWork {
    std::uint64_t pair_lookups = 0;  // adjacent pairs looked up in the vocabulary
    std::uint64_t pops = 0;          // candidate pairs taken off the queue, stale ones included
    bool rank_buckets = false;
};

class Gpt2Vocabulary {
public:
    Gpt2Vocabulary(const Gpt2Vocabulary&) = delete;  // one vocabulary, parsed once
    Gpt2Vocabulary& operator=(const Gpt2Vocabulary&) = delete;
    Gpt2Vocabulary(Gpt2Vocabulary&&) = default;
    Gpt2Vocabulary& operator=(Gpt2Vocabulary&&) = default;

    // vocab.bpe's text: a "#version" line, then "left right" per merge in GPT-2's byte alphabet.
    static ParseResult<Gpt2Vocabulary> parse(std::string_view vocab_bpe);

    std::size_t size() const { return m_tokens.size(); }
    // The bytes a token stands for (not always UTF-8 on their own: a token can hold part of a character).
    const std::string& bytes(std::uint64_t id) const { return m_tokens[id]; }

    // The token whose bytes are exactly `bytes`, if there is one.
    std::optional<std::uint64_t> find(std::string_view bytes) const;

    // The ids of one pre-tokenised piece as tiktoken gives them: the piece's own id when it is a
    // token, else BPE's. `merges`, when given, receives BPE's merges in order (always run, so a
    // lesson can show how a whole-word token is built). `work`, when given, adds BPE's work to it.
    std::vector<std::uint64_t> encode_piece(std::string_view piece, std::vector<BpeMerge>* merges = nullptr,
                                            BpeWork* work = nullptr) const;

private:
    Gpt2Vocabulary() = default;
    // BPE itself (gpt2_bpe.cpp).
    std::vector<std::uint64_t> merge_bytes(std::string_view piece, std::vector<BpeMerge>* merges, BpeWork* work) const;

    std::vector<std::string> m_tokens;
    TokenIndex m_ids;                                           // bytes -> id, for ids below 50,256
    std::array<std::uint32_t, 256> m_byte_ids{};                // a byte's own token
};

// GPT-2's printable stand-in for a byte, as vocab.bpe writes it (the space 0x20 is "Ġ", U+0120).
std::uint32_t gpt2_byte_char(unsigned char byte);

}  // namespace embdemo
