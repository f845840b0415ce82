// BERT's WordPiece over the shipped bert-base-uncased vocabulary, SentencePiece's trained models,
// and the side-by-side comparison's arithmetic.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "core/lessons/tokenizer_comparison.hpp"
#include "core/tokenizers/sentencepiece_trained.hpp"
#include "core/tokenizers/wordpiece.hpp"
#include "io/text_input.hpp"
#include "render/views/tokens/compare.hpp"

namespace embdemo {
namespace {

const WordPieceVocabulary& bert() {
    static const WordPieceVocabulary vocab = [] {
        std::ifstream in(EMBDEMO_SOURCE_DIR "/src/data/bert/vocab.txt", std::ios::binary);
        std::stringstream text;
        text << in.rdbuf();
        return WordPieceVocabulary::parse(text.str()).value();
    }();
    return vocab;
}

}  // namespace

TEST_CASE("the shipped BERT vocabulary has bert-base-uncased's size and well-known ids") {
    CHECK(bert().size() == k_bert_vocab_size);
    CHECK(bert().token(0) == "[PAD]");
    CHECK(bert().unknown_id() == 100);
    CHECK(bert().token(101) == "[CLS]");
    CHECK(bert().token(102) == "[SEP]");
    CHECK(bert().token(103) == "[MASK]");
    CHECK(*bert().find("the") == 1996);
}

TEST_CASE("WordPiece lower-cases, strips accents, splits punctuation and ideographs, and marks continuations") {
    const Tokenized t = wordpiece_tokenize(bert(), "Héllo, WÖRLD! unaffable 東京");
    const std::vector<std::string> pieces = {"hello", ",", "world", "!", "una", "##ffa", "##ble", "東", "京"};
    CHECK(t.pieces == pieces);
    CHECK(t.ids[0] == 7592);
    CHECK(t.unknowns == 0);
}

TEST_CASE("WordPiece gives one [UNK] for a word over 100 characters or one it cannot spell") {
    CHECK(wordpiece_tokenize(bert(), std::string(100, 'a')).unknowns == 0);
    const Tokenized long_word = wordpiece_tokenize(bert(), std::string(101, 'a') + " a");
    CHECK(long_word.ids == std::vector<std::uint64_t>{100, 1037});
    const Tokenized emoji = wordpiece_tokenize(bert(), "x \U0001F642");
    CHECK(emoji.ids.back() == 100);
    CHECK(emoji.unknowns == 1);
}

TEST_CASE("BERT's cleaning drops controls and format characters and a final capital sigma lowers to ς") {
    CHECK(bert_basic_words(std::string("a\x01" "b\xe2\x80\x8b" "c\td", 10)) == std::vector<std::string>{"abc", "d"});
    CHECK(bert_basic_words("ΟΔΟΣ ΣΑ") == std::vector<std::string>{"οδος", "σα"});
    CHECK(bert_basic_words("a\xe2\x80\xa8" "b") == std::vector<std::string>{"a", "b"});  // U+2028 splits
}

// embdemo's SentencePiece module, as the tokens lesson opens it (the build tree's, one directory up).
const SentencePieceLibrary& sentencepiece() {
    const auto opened = sentencepiece_library();
    REQUIRE_MESSAGE(opened, (opened ? "" : opened.error()));
    return *opened.value();
}

TEST_CASE("a SentencePiece model trained twice on one text gives the same pieces") {
    const std::string text = "the cat sat on the mat\nthe dog sat on the log\n";
    const auto first = train_and_tokenize(sentencepiece(), TokenizerKind::bpe, 40, text);
    const auto second = train_and_tokenize(sentencepiece(), TokenizerKind::bpe, 40, text);
    REQUIRE(first);
    CHECK(first.value().pieces == second.value().pieces);
    CHECK(first.value().vocab_size == 40);
}

TEST_CASE("a vocabulary size the text cannot reach is refused with the most it allows") {
    const auto high = train_and_tokenize(sentencepiece(), TokenizerKind::unigram, 500, "the cat sat on the mat");
    REQUIRE(!high);
    CHECK(high.error().rfind("--vocab-size 500: this text allows a unigram vocabulary of at most ", 0) == 0);
    const auto low = train_and_tokenize(sentencepiece(), TokenizerKind::bpe, 5, "the cat sat on the mat");
    REQUIRE(!low);
    CHECK(low.error().find("needs at least 13 pieces") != std::string::npos);
    CHECK(!train_and_tokenize(sentencepiece(), TokenizerKind::unigram, 50, " \x01\xe2\x80\x8b"));
}

TEST_CASE("the comparison's table shares: GPT-2 small's 31% and BERT's vocabulary's 21% at d = 768") {
    CHECK(gpt2_small_body_parameters(768) == 124439808ull - 50257ull * 768);
    CHECK(gpt2_small_body_parameters(1) == 12 * 25 + 2 + 1024);
    TokenizerComparisonRequest request;
    request.text = "Tables, tables!";
    request.tokenizers = {TokenizerKind::wordpiece};
    const auto shown = compare_tokenizers(request, nullptr, &bert());
    REQUIRE(shown);
    const TokenizerRun& run = shown.value().runs[0];
    CHECK(run.table_parameters == 30522ull * 768);
    CHECK(run.model_share == doctest::Approx(0.2145).epsilon(0.001));
    CHECK(shown.value().words == 4);
    CHECK(shown.value().distinct_words == 4);
}

TEST_CASE("the comparison's JSON is refused past its cap, and written within it") {
    TokenizerComparisonRequest request;
    request.text = "Caps, caps!";
    request.tokenizers = {TokenizerKind::wordpiece};
    const auto shown = compare_tokenizers(request, nullptr, &bert());
    REQUIRE(shown);
    const auto refused = tokenizer_comparison_report(shown.value(), 100);
    REQUIRE(!refused);
    CHECK(refused.error().find("(allowed: at most 100 bytes;") != std::string::npos);
    CHECK(tokenizer_comparison_report(shown.value()));
}

}  // namespace embdemo
