#include "core/tokenizers/sentencepiece_trained.hpp"

#include <utf8proc.h>

#include <algorithm>
#include <regex>
#include <vector>

#include "core/escape.hpp"

namespace embdemo {

namespace {

// SentencePiece's two size checks, in its words: "Vocabulary size too high (N). Please set it to a
// value <= M." and "Vocabulary size is smaller than required_chars. N vs M."
std::string reworded(const std::string& message, TokenizerKind kind, std::uint64_t vocab_size,
                     std::uint64_t* most_allowed) {
    std::smatch found;
    const std::string head = "--vocab-size " + std::to_string(vocab_size) + ": ";
    if (std::regex_search(message, found, std::regex(R"(Please set it to a value <= (\d+))"))) {
        if (most_allowed) *most_allowed = std::stoull(found[1].str());
        return head + "this text allows a " + tokenizer_name(kind) + " vocabulary of at most " + found[1].str() +
               " pieces (allowed: --vocab-size " + found[1].str() + " or less, or a longer text)";
    }
    if (std::regex_search(message, found, std::regex(R"(smaller than required_chars\. \d+ vs (\d+))"))) {
        return head + "this text has too many distinct characters: a " + tokenizer_name(kind) +
               " vocabulary of it needs at least " + found[1].str() + " pieces (allowed: --vocab-size " + found[1].str() +
               " or more)";
    }
    // SentencePiece's messages start with the source line that failed; its reason follows "] ".
    const std::size_t reason = message.rfind("] ");
    return "SentencePiece cannot train on this text: " + (reason == std::string::npos ? message : message.substr(reason + 2));
}

// SentencePiece's trainers stop the process (a CHECK, not a status) when no sentence is left once
// its normalizer has dropped controls and white space: a text must keep a character that is not
// white space (Z*), a control (Cc) or a format character (Cf). Some Cf characters would be kept,
// but none is needed to be sure.
bool has_trainable_character(std::string_view text) {
    for (std::size_t at = 0; at < text.size();) {
        const auto next = decode_utf8(text, at);
        if (!next) return false;  // the caller passes UTF-8
        switch (utf8proc_category(static_cast<utf8proc_int32_t>(next->code_point))) {
            case UTF8PROC_CATEGORY_ZS: case UTF8PROC_CATEGORY_ZL: case UTF8PROC_CATEGORY_ZP:
            case UTF8PROC_CATEGORY_CC: case UTF8PROC_CATEGORY_CF: break;
            default: return true;
        }
        at += next->length;
    }
    return false;
}

}  // namespace

SentencePieceOptions sentencepiece_options(std::string_view text) {
    SentencePieceOptions options;
    // The longest of the lines the module splits the text into (at each '\n').
    for (std::size_t start = 0; start <= text.size();) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        options.max_sentence_length = std::max(options.max_sentence_length, end - start);
        start = end + 1;
    }
    return options;
}

ParseResult<Tokenized> train_and_tokenize(const SentencePieceLibrary& library, TokenizerKind kind,
                                          std::uint64_t vocab_size, std::string_view text,
                                          std::uint64_t* most_allowed) {
    using Result = ParseResult<Tokenized>;
    if (!has_trainable_character(text)) {
        return Result::fail(std::string("--tokenizer ") + tokenizer_name(kind) +
                            ": the text has only white space, control and format characters, which SentencePiece "
                            "drops before training (allowed: a text with a letter, digit, mark, symbol or "
                            "punctuation)");
    }
    EmbdemoSentencePieceResult result{};
    const int failed = library.train(kind == TokenizerKind::bpe ? 1 : 0, vocab_size, text.data(), text.size(),
                                     sentencepiece_options(text).max_sentence_length, k_sentencepiece_seed, &result);
    if (failed) {
        const std::string message = result.error ? result.error : "SentencePiece failed";
        library.release(&result);
        return Result::fail(reworded(message, kind, vocab_size, most_allowed));
    }
    Tokenized out;
    out.kind = kind;
    out.vocab_size = result.vocab_size;
    out.unknown_id = result.unknown_id;
    out.has_unknown = true;
    out.pieces.reserve(result.count);
    std::size_t at = 0;
    for (std::size_t i = 0; i < result.count; ++i) {
        out.pieces.emplace_back(result.pieces + at, result.piece_lengths[i]);
        at += result.piece_lengths[i];
    }
    out.ids.assign(result.ids, result.ids + result.count);
    library.release(&result);
    count_tokenized(out);
    return Result::ok(std::move(out));
}

}  // namespace embdemo
