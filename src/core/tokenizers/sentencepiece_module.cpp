// embdemo's SentencePiece module: training and encoding through Debian's libsentencepiece,
// behind the C interface of sentencepiece_module.h. Built as a module of its own
// (embdemo_sentencepiece.so) that embdemo opens when a run trains Unigram or BPE.
#include "core/tokenizers/sentencepiece_module.h"

#include <sentencepiece_processor.h>
#include <sentencepiece_trainer.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

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

char* copy_of(const std::string& text) {
    char* copy = static_cast<char*>(std::malloc(text.size() + 1));
    if (copy) std::memcpy(copy, text.c_str(), text.size() + 1);
    return copy;
}

int failed(EmbdemoSentencePieceResult* out, const std::string& message) {
    out->error = copy_of(message);
    return 1;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int embdemo_sentencepiece_train(
    int bpe, uint64_t vocab_size, const char* text, size_t length, uint64_t max_sentence_length, unsigned seed,
    EmbdemoSentencePieceResult* out) {
    *out = EmbdemoSentencePieceResult{};
    const std::vector<std::string_view> lines = lines_of(std::string_view(text, length));
    const std::unordered_map<std::string, std::string> flags = {
        {"model_type", bpe ? "bpe" : "unigram"},
        {"vocab_size", std::to_string(vocab_size)},
        {"num_threads", "1"},
        {"max_sentence_length", std::to_string(max_sentence_length)},
        {"minloglevel", "2"},  // errors only, and those come back in the status
    };
    sentencepiece::SetRandomGeneratorSeed(seed);
    LineIterator sentences(lines);
    std::string model;
    const sentencepiece::util::Status trained = sentencepiece::SentencePieceTrainer::Train(flags, &sentences, &model);
    if (!trained.ok()) return failed(out, trained.ToString());
    sentencepiece::SentencePieceProcessor processor;
    if (const auto loaded = processor.LoadFromSerializedProto(model); !loaded.ok()) {
        return failed(out, "SentencePiece cannot load the model it trained: " + loaded.ToString());
    }
    std::string pieces;
    std::vector<std::size_t> lengths;
    std::vector<uint64_t> ids;
    for (const std::string_view line : lines) {
        std::vector<std::string> line_pieces;
        std::vector<int> line_ids;
        // Twice: an unknown's piece is its text, whose id is <unk>'s.
        if (const auto encoded = processor.Encode(line, &line_pieces); !encoded.ok()) return failed(out, encoded.ToString());
        if (const auto encoded = processor.Encode(line, &line_ids); !encoded.ok()) return failed(out, encoded.ToString());
        for (const std::string& piece : line_pieces) {
            pieces += piece;
            lengths.push_back(piece.size());
        }
        ids.insert(ids.end(), line_ids.begin(), line_ids.end());
    }
    out->vocab_size = static_cast<uint64_t>(processor.GetPieceSize());
    out->unknown_id = static_cast<uint64_t>(processor.unk_id());
    out->count = ids.size();
    out->pieces = static_cast<char*>(std::malloc(pieces.size() + 1));
    out->piece_lengths = static_cast<std::size_t*>(std::malloc(lengths.size() * sizeof(std::size_t) + 1));
    out->ids = static_cast<uint64_t*>(std::malloc(ids.size() * sizeof(uint64_t) + 1));
    if (!out->pieces || !out->piece_lengths || !out->ids) return failed(out, "out of memory");
    std::memcpy(out->pieces, pieces.data(), pieces.size());
    std::memcpy(out->piece_lengths, lengths.data(), lengths.size() * sizeof(std::size_t));
    std::memcpy(out->ids, ids.data(), ids.size() * sizeof(uint64_t));
    return 0;
}

extern "C" __attribute__((visibility("default"))) void embdemo_sentencepiece_release(EmbdemoSentencePieceResult* out) {
    std::free(out->error);
    std::free(out->pieces);
    std::free(out->piece_lengths);
    std::free(out->ids);
    *out = EmbdemoSentencePieceResult{};
}
