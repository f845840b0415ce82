#include "core/tokenizers/tokenized.hpp"

#include <unordered_set>

namespace embdemo {

const char* tokenizer_name(TokenizerKind kind) {
    switch (kind) {
        case TokenizerKind::gpt2: break;
        case TokenizerKind::wordpiece: return "wordpiece";
        case TokenizerKind::unigram: return "unigram";
        case TokenizerKind::bpe: return "bpe";
    }
    return "gpt2";
}

void count_tokenized(Tokenized& tokenized) {
    std::unordered_set<std::uint64_t> distinct(tokenized.ids.begin(), tokenized.ids.end());
    tokenized.distinct_ids = distinct.size();
    tokenized.unknowns = 0;
    if (!tokenized.has_unknown) return;
    for (const std::uint64_t id : tokenized.ids) tokenized.unknowns += id == tokenized.unknown_id ? 1 : 0;
}

}  // namespace embdemo
