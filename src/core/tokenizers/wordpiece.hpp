// BERT's uncased tokenizer: the basic tokenizer (clean the text, space out CJK ideographs, split
// on white space, lower-case, strip accents, split off punctuation), then WordPiece's greedy
// longest-match-first over a vocabulary, with "##" on every piece but a word's first and [UNK]
// for a word it cannot spell (or longer than 100 characters). The behaviour of Google's BERT
// tokenization and of Hugging Face's and torchtext's BertTokenizer(do_lower_case=True).
// Unicode classes, case and decomposition come from utf8proc. Pure: no files.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/parse_result.hpp"
#include "core/tokenizers/tokenized.hpp"

namespace embdemo {

// bert-base-uncased's vocab.txt: 30,522 lines.
inline constexpr std::uint64_t k_bert_vocab_size = 30522;
// A word of more characters than this is one [UNK] without matching (Hugging Face's and
// torchtext's max_input_chars_per_word).
inline constexpr std::size_t k_wordpiece_max_word_chars = 100;

class WordPieceVocabulary {
public:
    // vocab.txt: one token a line, its id the line's number from 0; "\n" or "\r\n" line ends.
    // Refused: an empty or repeated token, or no [UNK].
    static ParseResult<WordPieceVocabulary> parse(std::string_view text);

    std::uint64_t size() const { return m_tokens.size(); }
    const std::string& token(std::uint64_t id) const { return m_tokens[id]; }
    const std::uint64_t* find(const std::string& token) const;
    std::uint64_t unknown_id() const { return m_unknown; }

private:
    std::vector<std::string> m_tokens;
    std::unordered_map<std::string, std::uint64_t> m_ids;
    std::uint64_t m_unknown = 0;
};

// The basic tokenizer's words, lower-cased and without accents: "Héllo, wörld!" -> hello , world !
std::vector<std::string> bert_basic_words(std::string_view text);

// The text's WordPiece tokens (text: valid UTF-8). word_of[i] is the basic word that piece i
// came from, when given.
Tokenized wordpiece_tokenize(const WordPieceVocabulary& vocab, std::string_view text,
                             std::vector<std::size_t>* word_of = nullptr);

}  // namespace embdemo
