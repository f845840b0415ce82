// libFuzzer target: GPT-2's tokenizer (core/gpt2/gpt2_pieces, gpt2_vocab, gpt2_tokenizer) on any bytes.
// The views' quoting (token_label, quoted_text, display_width) takes any bytes; the tokenizer
// takes valid UTF-8, as the CLI checks first. For valid UTF-8 the pieces concatenate back to the
// text, and so do the bytes of the ids: tokenizing loses nothing and invents nothing. BPE takes
// any bytes as one piece and must give the ids of tiktoken's own quadratic loop (reference_bpe.hpp):
// on the input itself (the heap's side) and on the input repeated past k_bpe_rank_bucket_bytes
// (the per-rank queues' side), where the same pairs compete for the same rank over and over.
// Decoding gives a UTF-8 text back byte for byte, and any bytes read with errors="replace" are UTF-8.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "core/escape.hpp"
#include "core/gpt2/gpt2_decode.hpp"
#include "core/gpt2/gpt2_pieces.hpp"
#include "core/gpt2/gpt2_tokenizer.hpp"
#include "core/gpt2/gpt2_vocab.hpp"
#include "fuzz_check.hpp"
#include "reference_bpe.hpp"

namespace {

using embdemo::fuzz::check;

const embdemo::Gpt2Vocabulary& vocabulary() {
    static const embdemo::Gpt2Vocabulary vocab = [] {
        std::ifstream file(EMBDEMO_GPT2_DATA_DIR "/vocab.bpe", std::ios::binary);
        const std::string text{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
        auto parsed = embdemo::Gpt2Vocabulary::parse(text);
        if (!parsed) embdemo::fuzz::fail("GPT-2's vocab.bpe loads");
        return std::move(parsed.value());
    }();
    return vocab;
}

// Any bytes, read as CPython's errors="replace" reads them: UTF-8 always, and unchanged when
// they were UTF-8 already.
void check_replacing(std::string_view bytes) {
    std::size_t replacements = 0;
    const std::string text = embdemo::decode_utf8_replacing(bytes, &replacements);
    check(embdemo::is_valid_utf8(text), "decode with errors=replace gives UTF-8");
    check((replacements == 0) == embdemo::is_valid_utf8(bytes), "U+FFFD goes in exactly where bytes are not UTF-8");
    if (replacements == 0) check(text == bytes, "UTF-8 bytes decode to themselves");
}

void check_quoting(std::string_view bytes) {
    const std::string label = embdemo::token_label(bytes);
    for (const char ch : label) {
        const auto byte = static_cast<unsigned char>(ch);
        check(byte >= 0x20 && byte != 0x7f, "token_label escapes every control byte");
    }
    check(embdemo::is_valid_utf8(label), "token_label is valid UTF-8 whatever the bytes");
    const std::string quoted = embdemo::quoted_text(bytes, 20);
    check(embdemo::is_valid_utf8(quoted), "quoted_text is valid UTF-8 whatever the bytes");
    // Zero-width characters count a column too (issue 28): 20 columns are at most 20 characters
    // of at most 4 bytes, between the quotes and before "...".
    std::size_t characters = 0;
    for (const char ch : quoted) characters += (static_cast<unsigned char>(ch) & 0xc0) != 0x80;
    check(characters <= 25 && quoted.size() <= 85, "quoted_text cuts characters and bytes, not only width");
    if (embdemo::is_valid_utf8(bytes)) (void)embdemo::display_width(bytes);
}

void check_tokens(std::string_view text) {
    const embdemo::Gpt2Vocabulary& vocab = vocabulary();
    std::string from_pieces;
    for (const std::string_view piece : embdemo::gpt2_pieces(text)) {
        check(!piece.empty(), "no piece is empty");
        from_pieces += piece;
    }
    check(from_pieces == text, "the pre-tokeniser's pieces concatenate back to the text");

    std::string from_ids;
    std::string from_tokenized;
    std::size_t id_count = 0;
    for (const embdemo::TextPiece& piece : embdemo::tokenize_gpt2(vocab, text)) {
        from_tokenized += piece.text;
        for (const std::uint64_t id : piece.ids) {
            check(id < vocab.size(), "every id is in GPT-2's vocabulary");
            from_ids += id == embdemo::k_gpt2_end_of_text ? std::string(embdemo::k_end_of_text_text) : vocab.bytes(id);
            ++id_count;
        }
    }
    check(from_tokenized == text, "tokenize_gpt2's pieces concatenate back to the text");
    check(from_ids == text, "the ids' bytes concatenate back to the text");
    const std::vector<std::uint64_t> ids = embdemo::encode_gpt2(vocab, text);
    check(ids.size() == id_count, "encode_gpt2 gives the pieces' ids");
    const embdemo::Gpt2Decoding decoded = embdemo::decode_gpt2(vocab, ids);
    check(decoded.bytes == text && decoded.text == text, "decode(encode(text)) is the text, byte for byte");
    for (const embdemo::DecodedToken& token : decoded.tokens) {
        check(token.utf8 != embdemo::TokenUtf8::broken, "a UTF-8 text's split characters join again");
    }
}

// The reference rescans every part per merge: inputs past these sizes would make a replay slow.
constexpr std::size_t k_max_reference_piece = 2048;
constexpr std::size_t k_max_repeated_unit = 512;

void check_bpe(std::string_view bytes) {
    if (bytes.empty()) return;
    const embdemo::Gpt2Vocabulary& vocab = vocabulary();
    if (bytes.size() <= k_max_reference_piece) {
        check(vocab.encode_piece(bytes) == embdemo::testing::reference_bpe(vocab, bytes),
              "BPE on the input as one piece gives tiktoken's ids");
    }
    if (bytes.size() > k_max_repeated_unit) return;
    std::string long_piece;
    while (long_piece.size() < embdemo::k_bpe_rank_bucket_bytes) long_piece += bytes;
    embdemo::BpeWork work;
    check(vocab.encode_piece(long_piece, nullptr, &work) == embdemo::testing::reference_bpe(vocab, long_piece),
          "BPE on the input repeated into a long piece gives tiktoken's ids");
    check(work.rank_buckets || vocab.find(long_piece).has_value(), "a long piece is merged with the per-rank queues");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    check_quoting(bytes);
    check_replacing(bytes);
    check_bpe(bytes);
    if (embdemo::is_valid_utf8(bytes)) check_tokens(bytes);
    return 0;
}
