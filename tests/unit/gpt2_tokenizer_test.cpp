// GPT-2's tokenizer against tiktoken's own ids (tests/data/gpt2_token_vectors.txt, written by
// tools/make_gpt2_token_vectors.js from npm's tiktoken, the Rust tiktoken as WebAssembly).
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "core/escape.hpp"
#include "core/gpt2/gpt2_pieces.hpp"
#include "core/gpt2/gpt2_tokenizer.hpp"
#include "core/ids.hpp"
#include "core/limits.hpp"
#include "core/lessons/tokens_lesson.hpp"
#include "render/views/tokens/text.hpp"
#include "gpt2_vocabulary.hpp"
#include "../fuzz/reference_bpe.hpp"

namespace embdemo {
namespace {

const Gpt2Vocabulary& vocabulary() { return testing::gpt2_vocabulary(); }

std::string from_hex(const std::string& hex) {
    std::string bytes;
    for (std::size_t i = 0; i + 1 < hex.size(); i += 2) bytes += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
    return bytes;
}

std::string ids_text(const std::vector<std::uint64_t>& ids) {
    std::string text;
    for (std::size_t i = 0; i < ids.size(); ++i) text += (i ? "," : "") + std::to_string(ids[i]);
    return text;
}

}  // namespace

TEST_CASE("every recorded text gets tiktoken's ids, and every sampled id tiktoken's bytes") {
    std::ifstream in(EMBDEMO_TEST_DATA_DIR "/gpt2_token_vectors.txt");
    REQUIRE(in);
    std::size_t texts = 0;
    std::size_t tokens = 0;
    for (std::string line; std::getline(in, line);) {
        std::istringstream fields(line);
        std::string kind, first, word, second;
        fields >> kind >> first;
        if (kind == "text") {
            fields >> word >> second;
            const std::string text = from_hex(first);
            CAPTURE(escape_for_message(text));
            CHECK(ids_text(encode_gpt2(vocabulary(), text)) == second);
            ++texts;
        } else if (kind == "token") {
            fields >> second;
            CHECK(vocabulary().bytes(std::stoull(first)) == from_hex(second));
            ++tokens;
        }
    }
    CHECK(texts > 400);
    CHECK(tokens > 500);
}

TEST_CASE("the book's sentences") {
    CHECK(ids_text(encode_gpt2(vocabulary(), "Your journey starts with one step")) == "7120,7002,4940,351,530,2239");
    CHECK(vocabulary().size() == k_gpt2_vocab_size);
    CHECK(vocabulary().bytes(k_gpt2_end_of_text) == "<|endoftext|>");
}

TEST_CASE("pieces follow GPT-2's pattern: contractions, a space joins the next word, space runs keep their last") {
    const auto pieces = gpt2_pieces("It's  a\ttest\n\n 42!");
    const std::vector<std::string_view> expected{"It", "'s", " ", " a", "\t", "test", "\n\n", " 42", "!"};
    CHECK(pieces == expected);
    CHECK(gpt2_pieces("   ") == std::vector<std::string_view>{"   "});
    CHECK(gpt2_pieces("") .empty());
}

TEST_CASE("BPE reports its merges, and the last merge is the token") {
    std::vector<BpeMerge> merges;
    const auto ids = vocabulary().encode_piece(" journey", &merges);
    REQUIRE(ids.size() == 1);
    REQUIRE(!merges.empty());
    CHECK(merges.back().merged == ids[0]);
    CHECK(vocabulary().bytes(merges.back().left) + vocabulary().bytes(merges.back().right) == " journey");
}

TEST_CASE("a long piece without a space is encoded in n log n, not rescanned per merge") {
    const std::string long_word(1 << 20, 'a');
    const auto ids = encode_gpt2(vocabulary(), long_word);
    std::size_t bytes = 0;
    for (const auto id : ids) bytes += vocabulary().bytes(id).size();
    CHECK(bytes == long_word.size());
}

// BPE's work, counted rather than timed: n - 1 pairs are looked up first and each merge looks up
// at most two more, so a heap-based BPE does at most 3n lookups and pops on any piece; a rescan
// after each merge does ~n^2 / 2. Runs of letters, digits and punctuation merge in different
// patterns ("!" -> "!!" -> "!!!!" -> "!!!!!!!!", "." up to 64 dots), so each is tried.
TEST_CASE("BPE's work on a long piece stays within 3 lookups per byte, whatever the run is made of") {
    for (const std::string unit : {"a", "!", ".", "1", "-", "=", "!?", "ab", "\xe4\xb8\xad"}) {
        for (const std::size_t repeats : {std::size_t{1} << 8, std::size_t{1} << 12, std::size_t{1} << 16}) {
            std::string piece;
            for (std::size_t i = 0; i < repeats; ++i) piece += unit;
            CAPTURE(unit);
            CAPTURE(repeats);
            BpeWork work;
            std::vector<BpeMerge> merges;
            const auto ids = vocabulary().encode_piece(piece, &merges, &work);
            CHECK(work.pair_lookups <= 3 * piece.size());
            CHECK(work.pops <= work.pair_lookups);
            CHECK(merges.size() == piece.size() - ids.size());
        }
    }
}

// The per-rank queues of long pieces and the heap of short ones against tiktoken's own loop: runs
// of one character (each rank's pairs compete left to right), runs of a pattern, and pseudo-random
// letters and bytes (pairs of thousands of ranks arriving out of order). The pseudo-random
// texts come from a fixed linear congruential sequence, so a failure repeats.
TEST_CASE("BPE gives tiktoken's ids on long pieces, with either queue") {
    std::uint64_t state = 20261126;
    const auto next_byte = [&](std::string_view alphabet) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return alphabet[(state >> 33) % alphabet.size()];
    };
    std::string all_bytes;
    for (int b = 0; b < 256; ++b) all_bytes += static_cast<char>(b);
    std::vector<std::string> pieces;
    for (const std::string unit : {"x", "!", ".", "=", "0", "ab", "!?", "\xe4\xb8\xad", " the"}) {
        std::string piece;
        while (piece.size() < k_bpe_rank_bucket_bytes + 100) piece += unit;
        pieces.push_back(piece);
        pieces.push_back(piece.substr(0, 700));
    }
    for (const std::string_view alphabet : {std::string_view("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"),
                                            std::string_view("etaoin"), std::string_view("!.-=_*#"),
                                            std::string_view(all_bytes)}) {
        for (const std::size_t size : {std::size_t{900}, k_bpe_rank_bucket_bytes + 333}) {
            std::string piece;
            for (std::size_t i = 0; i < size; ++i) piece += next_byte(alphabet);
            pieces.push_back(piece);
        }
    }
    for (const std::string& piece : pieces) {
        CAPTURE(escape_for_message(piece.substr(0, 40)));
        CAPTURE(piece.size());
        BpeWork work;
        CHECK(vocabulary().encode_piece(piece, nullptr, &work) == testing::reference_bpe(vocabulary(), piece));
        CHECK(work.rank_buckets == (piece.size() >= k_bpe_rank_bucket_bytes));
    }
}

TEST_CASE("token labels keep the space and escape what a terminal would not show") {
    CHECK(token_label(" Your") == " Your");
    CHECK(token_label("\n\t\"\\") == "\\n\\t\\\"\\\\");
    CHECK(token_label("\xe2\x80") == "\\xe2\\x80");
    CHECK(token_label("caf\xc3\xa9") == "caf\xc3\xa9");
    CHECK(token_label("\xe2\x80\xae") == "\\xe2\\x80\\xae");  // U+202E turns text around: escaped
    CHECK(token_label("\x1b[31m") == "\\x1b[31m");
}

TEST_CASE("a vocab.bpe that is not GPT-2's is refused with a reason") {
    CHECK(Gpt2Vocabulary::parse("nonsense").error() == "its first line is not \"#version ...\"");
    CHECK(Gpt2Vocabulary::parse("#version: 0.2\n\xc4\xa0 t\n").error() == "it has 1 merge, GPT-2 has 50,000");
    CHECK(Gpt2Vocabulary::parse("#version: 0.2\nab\n").error() == "line 2 is not a merge \"left right\"");
}

}  // namespace embdemo

namespace embdemo {

TEST_CASE("the book's word split keeps punctuation and -- as items and drops white space") {
    const std::vector<std::string> expected{"Hello", ",", "world", ".", "Is", "this", "--", "a", "test", "?"};
    CHECK(book_word_split("Hello, world. Is this-- a test?") == expected);
    CHECK(book_word_split("  \n\t ").empty());
    // Python's \s and str.strip() count U+001C..U+001F as white space (GPT-2's \s does not):
    // re.split finds 2 words in "a\x1cb".
    CHECK(book_word_split("a\x1c" "b") == std::vector<std::string>{"a", "b"});
    CHECK(book_word_split("a\x1f" "b\xe3\x80\x80" "c") == std::vector<std::string>{"a", "b", "c"});
    CHECK(book_word_split("a\xe2\x80\x8b" "b") == std::vector<std::string>{"a\xe2\x80\x8b" "b"});  // U+200B is not
    CHECK(book_word_split("a-b---c") == std::vector<std::string>{"a-b", "--", "-c"});
    // Python's re.split(r'([,.:;?_!"()\']|--|\s)', text) on the same texts, items stripped, empties dropped.
    CHECK(book_word_split("na\xc3\xafve--caf\xc3\xa9 (x)\xc2\xa0y-") ==
          std::vector<std::string>{"na\xc3\xafve", "--", "caf\xc3\xa9", "(", "x", ")", "y-"});
    CHECK(book_word_split("---a") == std::vector<std::string>{"--", "-a"});
    CHECK(book_word_split("end.") == std::vector<std::string>{"end", "."});
    CHECK(book_word_split("a\xe3\x80\x80" "b--") == std::vector<std::string>{"a", "b", "--"});
}

TEST_CASE("the tokens lesson follows the piece with the most merges unless told, and counts words and tokens") {
    TokensRequest request;
    request.text = "the cat and the hat--the end";
    const TokensLesson lesson = run_tokens_lesson(vocabulary(), request);
    CHECK(lesson.words == 8);
    CHECK(lesson.distinct_words == 6);
    CHECK(lesson.ids.size() == lesson.pieces.size());
    CHECK(lesson.distinct_tokens == 7);  // "the" and " the" are different tokens
    for (const TokenPiece& piece : lesson.pieces) {
        std::vector<BpeMerge> merges;
        vocabulary().encode_piece(lesson.bytes_of(piece), &merges);
        CHECK(merges.size() <= lesson.merges.size());
    }
    request.piece = 0;
    CHECK(run_tokens_lesson(vocabulary(), request).followed == 0);
}

TEST_CASE("the tokens lesson follows a long punctuation piece and lists all its merges") {
    TokensRequest request;
    request.text = "a b " + std::string(4096, '!') + " c";
    const TokensLesson lesson = run_tokens_lesson(vocabulary(), request);
    REQUIRE(lesson.followed == 2);
    const TokenPiece& piece = lesson.pieces[lesson.followed];
    CHECK(lesson.bytes_of(piece) == " " + std::string(4096, '!'));
    CHECK(lesson.merges.size() == piece.size - piece.id_count);
}

TEST_CASE("the pieces are counted without encoding them, <|endoftext|> as one piece wherever it is") {
    for (const std::string text : {"Hello, world", "<|endoftext|>", "<|endoftext|><|endoftext|>a b",
                                   "the end<|endoftext|>", "a <|endoftext|>  b<|endoftext|>", "<|endoftext", " "}) {
        CAPTURE(text);
        CHECK(count_gpt2_pieces(text) == tokenize_gpt2(vocabulary(), text).size());
    }
}

TEST_CASE("the tokens JSON is refused past its cap, by a count made before the JSON is written") {
    TokensRequest request;
    request.text = "Tab\tand \x01 control<|endoftext|>caf\xc3\xa9";
    const TokensLesson lesson = run_tokens_lesson(vocabulary(), request);
    const auto json = render_tokens_json(lesson, vocabulary());
    REQUIRE(json);
    const std::size_t size = json.value().size();
    const auto at_cap = render_tokens_json(lesson, vocabulary(), size);
    REQUIRE(at_cap);
    CHECK(at_cap.value() == json.value());
    const auto past_cap = render_tokens_json(lesson, vocabulary(), size - 1);
    REQUIRE_FALSE(past_cap);
    CHECK(past_cap.error().find("would be " + group_thousands(size) + " bytes") != std::string::npos);
    CHECK(past_cap.error().find("at most " + group_thousands(size - 1) + " bytes") != std::string::npos);
}

}  // namespace embdemo
