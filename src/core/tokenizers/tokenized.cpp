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

const char* tokenizer_tokens(TokenizerKind kind) {
    switch (kind) {
        case TokenizerKind::gpt2: break;
        case TokenizerKind::wordpiece: return "WordPiece tokens";
        case TokenizerKind::unigram: return "Unigram tokens";
        case TokenizerKind::bpe: return "BPE tokens";
    }
    return "GPT-2 tokens";
}

const char* tokenizer_title(TokenizerKind kind) {
    switch (kind) {
        case TokenizerKind::gpt2: break;
        case TokenizerKind::wordpiece: return "BERT's WordPiece";
        case TokenizerKind::unigram: return "SentencePiece's Unigram, trained on the text";
        case TokenizerKind::bpe: return "SentencePiece's BPE, trained on the text";
    }
    return "GPT-2's tokenizer";
}

const char* tokenizer_vocabulary(TokenizerKind kind) {
    switch (kind) {
        case TokenizerKind::gpt2: break;
        case TokenizerKind::wordpiece: return "BERT's vocabulary";
        case TokenizerKind::unigram: return "the Unigram vocabulary trained on the text";
        case TokenizerKind::bpe: return "the BPE vocabulary trained on the text";
    }
    return "GPT-2's vocabulary";
}

void count_tokenized(Tokenized& tokenized) {
    std::unordered_set<std::uint64_t> distinct(tokenized.ids.begin(), tokenized.ids.end());
    tokenized.distinct_ids = distinct.size();
    tokenized.unknowns = 0;
    if (!tokenized.has_unknown) return;
    for (const std::uint64_t id : tokenized.ids) tokenized.unknowns += id == tokenized.unknown_id ? 1 : 0;
}

}  // namespace embdemo
