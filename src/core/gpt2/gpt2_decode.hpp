// GPT-2 token ids back to text, as tiktoken decodes them:
//   decode_single_token_bytes(id)  each id's bytes (not always UTF-8 on their own: a character of
//                                  several bytes can be split between tokens),
//   decode_bytes(ids)              the bytes joined, byte for byte,
//   decode(ids)                    those bytes read as UTF-8 with errors="replace", each
//                                  ill-formed stretch one U+FFFD as Python's decoder does it.
// It also says which tokens are not UTF-8 on their own and whether, with their neighbours,
// they join into whole characters. Pure: ids are checked by the caller (below 50,257).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/gpt2/gpt2_vocab.hpp"

namespace embdemo {

enum class TokenUtf8 {
    valid,   // the token's bytes are UTF-8 on their own
    joined,   // not on their own, but with their neighbours they make whole characters
    partial,  // some join into whole characters with the neighbours, decode replaces the others
    broken,   // none does, even with its neighbours: decode puts U+FFFD for all of them
};

// A stretch of the joined bytes that decode (errors="replace") turns into one U+FFFD.
struct ReplacedStretch {
    std::size_t offset = 0;
    std::size_t size = 0;
};

struct DecodedToken {
    std::uint64_t id = 0;
    std::size_t offset = 0;  // its bytes are Gpt2Decoding::bytes[offset, offset + size)
    std::size_t size = 0;
    TokenUtf8 utf8 = TokenUtf8::valid;
    // The tokens that a character crosses into and out of this one: [group_first, group_last],
    // just this token when no character is split at its edges.
    std::size_t group_first = 0;
    std::size_t group_last = 0;
    std::size_t replaced_bytes = 0;  // of its bytes, those inside a ReplacedStretch
};

struct Gpt2Decoding {
    std::string bytes;                  // decode_bytes
    std::vector<DecodedToken> tokens;   // one per id, in order
    std::string text;                   // decode: bytes with each ill-formed stretch as U+FFFD
    std::size_t replacements = 0;       // how many U+FFFD decode put in
    std::vector<ReplacedStretch> replaced;  // which bytes each of them stands for, in order
    bool valid_utf8() const { return replacements == 0; }
    std::string_view bytes_of(const DecodedToken& token) const {
        return std::string_view(bytes).substr(token.offset, token.size);
    }
};

// Every id must be below k_gpt2_vocab_size.
Gpt2Decoding decode_gpt2(const Gpt2Vocabulary& vocab, const std::vector<std::uint64_t>& ids);

// bytes.decode("utf-8", errors="replace") as CPython does it: a maximal prefix of a well-formed
// sequence that breaks off becomes one U+FFFD, any other ill-formed byte one U+FFFD each.
// `replacements`, when given, receives how many were put in.
std::string decode_utf8_replacing(std::string_view bytes, std::size_t* replacements = nullptr,
                                  std::vector<ReplacedStretch>* stretches = nullptr);

}  // namespace embdemo
