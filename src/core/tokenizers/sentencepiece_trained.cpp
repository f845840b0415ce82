#include "core/tokenizers/sentencepiece_trained.hpp"

#include <sentencepiece_processor.h>
#include <sentencepiece_trainer.h>

#include <utf8proc.h>

#include <algorithm>
#include <regex>
#include <unordered_map>
#include <vector>

#include "core/escape.hpp"

namespace embdemo {

namespace {

// The text's lines, the sentences SentencePiece learns from and encodes (it skips empty ones).
std::vector<std::string_view> lines_of(std::string_view text) {
    std::vector<std::string_view> lines;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        lines.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return lines;
}

class LineIterator : public sentencepiece::SentenceIterator {
public:
    explicit LineIterator(const std::vector<std::string_view>& lines) : m_lines(lines) { load(); }
    bool done() const override { return m_at >= m_lines.size(); }
    void Next() override {
        ++m_at;
        load();
    }
    const std::string& value() const override { return m_value; }
    sentencepiece::util::Status status() const override { return {}; }

private:
    void load() {
        if (!done()) m_value.assign(m_lines[m_at]);
    }
    const std::vector<std::string_view>& m_lines;
    std::size_t m_at = 0;
    std::string m_value;
};

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
    for (const std::string_view line : lines_of(text)) options.max_sentence_length = std::max(options.max_sentence_length, line.size());
    return options;
}

ParseResult<Tokenized> train_and_tokenize(TokenizerKind kind, std::uint64_t vocab_size, std::string_view text,
                                          std::uint64_t* most_allowed) {
    using Result = ParseResult<Tokenized>;
    if (!has_trainable_character(text)) {
        return Result::fail(std::string("--tokenizer ") + tokenizer_name(kind) +
                            ": the text has only white space, control and format characters, which SentencePiece "
                            "drops before training (allowed: a text with a letter, digit, mark, symbol or "
                            "punctuation)");
    }
    const std::vector<std::string_view> lines = lines_of(text);
    const SentencePieceOptions options = sentencepiece_options(text);
    const std::unordered_map<std::string, std::string> flags = {
        {"model_type", kind == TokenizerKind::bpe ? "bpe" : "unigram"},
        {"vocab_size", std::to_string(vocab_size)},
        {"num_threads", "1"},
        {"max_sentence_length", std::to_string(options.max_sentence_length)},
        {"minloglevel", "2"},  // errors only, and those come back in the status
    };
    sentencepiece::SetRandomGeneratorSeed(k_sentencepiece_seed);
    LineIterator sentences(lines);
    std::string model;
    const sentencepiece::util::Status trained = sentencepiece::SentencePieceTrainer::Train(flags, &sentences, &model);
    if (!trained.ok()) return Result::fail(reworded(trained.ToString(), kind, vocab_size, most_allowed));
    sentencepiece::SentencePieceProcessor processor;
    if (const auto loaded = processor.LoadFromSerializedProto(model); !loaded.ok()) {
        return Result::fail("SentencePiece cannot load the model it trained: " + loaded.ToString());
    }
    Tokenized out;
    out.kind = kind;
    out.vocab_size = static_cast<std::uint64_t>(processor.GetPieceSize());
    out.unknown_id = static_cast<std::uint64_t>(processor.unk_id());
    out.has_unknown = true;
    for (const std::string_view line : lines) {
        std::vector<std::string> pieces;
        std::vector<int> ids;
        // Twice: an unknown's piece is its text, whose id is <unk>'s.
        if (const auto encoded = processor.Encode(line, &pieces); !encoded.ok()) return Result::fail(encoded.ToString());
        if (const auto encoded = processor.Encode(line, &ids); !encoded.ok()) return Result::fail(encoded.ToString());
        out.pieces.insert(out.pieces.end(), pieces.begin(), pieces.end());
        out.ids.insert(out.ids.end(), ids.begin(), ids.end());
    }
    count_tokenized(out);
    return Result::ok(std::move(out));
}

}  // namespace embdemo
