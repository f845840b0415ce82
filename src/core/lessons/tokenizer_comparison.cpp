#include "core/lessons/tokenizer_comparison.hpp"

#include <unordered_set>

#include "core/gpt2/gpt2_tokenizer.hpp"
#include "core/lessons/tokens_lesson.hpp"
#include "core/tokenizers/sentencepiece_trained.hpp"

namespace embdemo {

namespace {

Tokenized gpt2_tokenized(const Gpt2Vocabulary& vocab, const std::string& text) {
    Tokenized out;
    out.kind = TokenizerKind::gpt2;
    out.vocab_size = vocab.size();
    out.ids = encode_gpt2(vocab, text);
    out.pieces.reserve(out.ids.size());
    for (const std::uint64_t id : out.ids) out.pieces.emplace_back(vocab.bytes(id));
    count_tokenized(out);
    return out;
}

}  // namespace

std::uint64_t gpt2_small_body_parameters(std::uint64_t dim) {
    const std::uint64_t layer = 12 * dim * dim + 13 * dim;
    return 12 * layer + 2 * dim + 1024 * dim;
}

ParseResult<TokenizerComparison> compare_tokenizers(const TokenizerComparisonRequest& request,
                                                    const Gpt2Vocabulary* gpt2, const WordPieceVocabulary* bert) {
    using Result = ParseResult<TokenizerComparison>;
    TokenizerComparison out;
    out.request = request;
    out.body_parameters = gpt2_small_body_parameters(request.dim);
    const std::vector<std::string> words = book_word_split(request.text);
    out.words = words.size();
    out.distinct_words = std::unordered_set<std::string>(words.begin(), words.end()).size();
    for (const TokenizerKind kind : request.tokenizers) {
        TokenizerRun run;
        if (kind == TokenizerKind::gpt2) {
            run.tokenized = gpt2_tokenized(*gpt2, request.text);
        } else if (kind == TokenizerKind::wordpiece) {
            run.tokenized = wordpiece_tokenize(*bert, request.text);
        } else {
            std::uint64_t most = 0;
            const SentencePieceLibrary& library = *request.sentencepiece;
            auto trained = train_and_tokenize(library, kind, request.trained_vocab_size, request.text, &most);
            if (!trained && most > 0 && !request.vocab_size_given) trained = train_and_tokenize(library, kind, most, request.text);
            if (!trained) return Result::fail(trained.error());
            run.tokenized = std::move(trained.value());
        }
        run.table_parameters = run.tokenized.vocab_size * request.dim;
        run.model_share = static_cast<double>(run.table_parameters) /
                          static_cast<double>(run.table_parameters + out.body_parameters);
        out.runs.push_back(std::move(run));
    }
    return Result::ok(std::move(out));
}

}  // namespace embdemo
