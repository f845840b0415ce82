// One text through one tokenizer: the pieces it cut, their ids, and how many are unknown. What
// `embdemo tokens --tokenizer` shows and compares, whichever tokenizer made it. Pure data.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace embdemo {

enum class TokenizerKind { gpt2, wordpiece, unigram, bpe };

struct Tokenized {
    TokenizerKind kind = TokenizerKind::gpt2;
    std::uint64_t vocab_size = 0;        // the rows its embedding table needs
    std::vector<std::string> pieces;     // as the tokenizer spells them ("##ing", "▁the", "Ġthe")
    std::vector<std::uint64_t> ids;      // ids[i] is pieces[i]'s row
    std::uint64_t unknown_id = 0;        // the id unknowns get (meaningless when none can be)
    bool has_unknown = false;            // GPT-2's byte-level BPE has no unknown token
    std::size_t unknowns = 0;            // ids equal to unknown_id
    std::size_t distinct_ids = 0;
};

// "gpt2", "wordpiece", "unigram", "bpe".
const char* tokenizer_name(TokenizerKind kind);

// How sentences name the run's tokenizer, so that none says GPT-2 for another one's ids:
// "GPT-2 tokens", "WordPiece tokens", "Unigram tokens", "BPE tokens";
const char* tokenizer_tokens(TokenizerKind kind);
// "GPT-2's tokenizer", "BERT's WordPiece", "SentencePiece's Unigram, trained on the text", ...;
const char* tokenizer_title(TokenizerKind kind);
// "GPT-2's vocabulary", "BERT's vocabulary", "the Unigram vocabulary trained on the text", ...
const char* tokenizer_vocabulary(TokenizerKind kind);

// Counts unknowns and distinct ids once pieces and ids are filled.
void count_tokenized(Tokenized& tokenized);

}  // namespace embdemo
