// GPT-2's decoder (core/gpt2/gpt2_decode) against tiktoken: decode(encode(text)) gives the text
// back byte for byte on every recorded text of tests/data/gpt2_token_vectors.txt (tiktoken's own
// ids), and the replacement of ill-formed bytes is CPython's bytes.decode("utf-8", "replace").
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "core/escape.hpp"
#include "core/gpt2/gpt2_decode.hpp"
#include "core/gpt2/gpt2_tokenizer.hpp"
#include "core/ids.hpp"
#include "gpt2_vocabulary.hpp"
#include "render/views/tokens/decode.hpp"

namespace embdemo {
namespace {

std::string from_hex(const std::string& hex) {
    std::string bytes;
    for (std::size_t i = 0; i + 1 < hex.size(); i += 2) bytes += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
    return bytes;
}

}  // namespace

TEST_CASE("decode gives back tiktoken's texts byte for byte from tiktoken's ids, and from ours") {
    std::ifstream in(EMBDEMO_TEST_DATA_DIR "/gpt2_token_vectors.txt");
    REQUIRE(in);
    std::size_t texts = 0;
    for (std::string line; std::getline(in, line);) {
        std::istringstream fields(line);
        std::string kind, hex, word, id_list;
        fields >> kind >> hex >> word >> id_list;
        if (kind != "text") continue;
        const std::string text = from_hex(hex);
        CAPTURE(escape_for_message(text));
        const auto ids = parse_id_list(id_list);
        REQUIRE(ids);
        const Gpt2Decoding theirs = decode_gpt2(testing::gpt2_vocabulary(), ids.value());
        CHECK(theirs.bytes == text);
        CHECK(theirs.text == text);  // every recorded text is UTF-8, so decode changes nothing
        CHECK(theirs.valid_utf8());
        CHECK(decode_gpt2(testing::gpt2_vocabulary(), encode_gpt2(testing::gpt2_vocabulary(), text)).bytes == text);
        std::size_t bytes = 0;
        for (const DecodedToken& token : theirs.tokens) {
            CHECK(token.offset == bytes);
            CHECK(theirs.bytes_of(token) == testing::gpt2_vocabulary().bytes(token.id));
            CHECK(token.utf8 != TokenUtf8::broken);  // a valid text's split characters always join
            bytes += token.size;
        }
        ++texts;
    }
    CHECK(texts > 400);
}

TEST_CASE("ill-formed bytes become U+FFFD as CPython's errors=\"replace\" makes them") {
    // (bytes, bytes.decode("utf-8", "replace") re-encoded, its U+FFFD count), from python3.
    const struct {
        const char* bytes;
        const char* decoded;
        std::size_t replacements;
    } cases[] = {
        {"e28026ef", "efbfbd26efbfbd", 2},   {"f08080", "efbfbdefbfbdefbfbd", 3},
        {"eda080", "efbfbdefbfbdefbfbd", 3}, {"f4908080", "efbfbdefbfbdefbfbdefbfbd", 4},
        {"c0af", "efbfbdefbfbd", 2},         {"61e280", "61efbfbd", 1},
        {"f09f98", "efbfbd", 1},             {"f09f9880", "f09f9880", 0},
        {"e09f80", "efbfbdefbfbdefbfbd", 3}, {"80bf", "efbfbdefbfbd", 2},
        {"f18080ff", "efbfbdefbfbd", 2},
    };
    for (const auto& c : cases) {
        CAPTURE(c.bytes);
        std::size_t replacements = 99;
        CHECK(decode_utf8_replacing(from_hex(c.bytes), &replacements) == from_hex(c.decoded));
        CHECK(replacements == c.replacements);
    }
}

TEST_CASE("a token whose bytes decode partly keeps and partly replaces is 'partial', its replaced bytes named") {
    // c3 | 9a e9: c3 9a is "\xc3\x9a" (U+00DA), and only e9 becomes U+FFFD, as Python's
    // bytes.decode("utf-8", errors="replace") gives "\u00da\ufffd".
    const Gpt2Decoding split = decode_gpt2(testing::gpt2_vocabulary(), {127, 21253});
    CHECK(split.text == "\xc3\x9a\xef\xbf\xbd");
    CHECK(split.tokens[0].utf8 == TokenUtf8::joined);
    CHECK(split.tokens[1].utf8 == TokenUtf8::partial);
    CHECK(split.tokens[1].replaced_bytes == 1);
    REQUIRE(split.replaced.size() == 1);
    CHECK(split.replaced[0].offset == 2);
    CHECK(split.replaced[0].size == 1);
    CHECK(token_utf8_note(split, 0) == "not UTF-8 alone: ids[0..1] make \"\xc3\x9a\"");
    CHECK(token_utf8_note(split, 1) ==
          "not UTF-8 alone: ids[0..1] make \"\xc3\x9a\", and decode gives one U+FFFD for \\xe9");
    // f0 9f | 9a e9: f0 9f 9a is one broken-off prefix (one U+FFFD across both tokens), e9 another.
    const Gpt2Decoding across = decode_gpt2(testing::gpt2_vocabulary(), {8582, 21253});
    CHECK(across.replacements == 2);
    CHECK(across.tokens[0].utf8 == TokenUtf8::broken);
    CHECK(across.tokens[1].utf8 == TokenUtf8::broken);
    CHECK(token_utf8_note(across, 1) ==
          "not UTF-8, even joined: decode gives a U+FFFD each for \\xf0\\x9f\\x9a (ids[0..1]) and \\xe9");
}

TEST_CASE("a token that holds part of a character is marked, with the tokens it joins into a character") {
    // tiktoken: "It’s" -> 1026, 447, 247, 82 (’ is e2 80 99, split as e2 80 | 99).
    const Gpt2Decoding split = decode_gpt2(testing::gpt2_vocabulary(), {1026, 447, 247, 82});
    REQUIRE(split.tokens.size() == 4);
    CHECK(split.bytes == "It\xe2\x80\x99s");
    CHECK(split.tokens[0].utf8 == TokenUtf8::valid);
    CHECK(split.tokens[1].utf8 == TokenUtf8::joined);
    CHECK(split.tokens[2].utf8 == TokenUtf8::joined);
    CHECK(split.tokens[1].group_first == 1);
    CHECK(split.tokens[1].group_last == 2);
    CHECK(split.tokens[3].group_first == 3);
    CHECK(token_utf8_note(split, 2) == "not UTF-8 alone: ids[1..2] make \"\xe2\x80\x99\"");
    CHECK(token_utf8_note(split, 0).empty());

    // The first half alone, then "&": nothing completes the character.
    const Gpt2Decoding broken = decode_gpt2(testing::gpt2_vocabulary(), {447, 5});
    CHECK(broken.tokens[0].utf8 == TokenUtf8::broken);
    CHECK(broken.tokens[0].group_last == 0);
    CHECK(broken.replacements == 1);
    CHECK(broken.text == "\xef\xbf\xbd&");
    CHECK(token_utf8_note(broken, 0) == "not UTF-8, even joined: decode gives U+FFFD");
}

TEST_CASE("the decode text view escapes control bytes and bytes that are not UTF-8") {
    // 198 is "\n", 447 "\xe2\x80"; 5 is "&". 215 is the byte 0x1b (ESC).
    const std::string view = render_tokens_decode_text(decode_gpt2(testing::gpt2_vocabulary(), {215, 447, 198, 5}));
    CHECK(view.find('\x1b') == std::string::npos);
    CHECK(is_valid_utf8(view));
    CHECK(view.find("\"\\x1b\\xe2\\x80\\n\"") != std::string::npos);
    CHECK(view.find("decode (errors=\"replace\") puts U+FFFD in 1 place") != std::string::npos);
}

}  // namespace embdemo
