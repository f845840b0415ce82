#include "core/gpt2/gpt2_vocab.hpp"

#include <array>
#include <unordered_map>

#include "core/escape.hpp"
#include "core/limits.hpp"

namespace embdemo {

namespace {

// GPT-2's bytes_to_unicode(): bytes that print as themselves keep their code point; the others
// are numbered from U+0100 upwards in byte order. The same order numbers ids 0-255.
struct ByteAlphabet {
    std::array<std::uint32_t, 256> char_of{};
    std::array<unsigned char, 256> byte_of_id{};
    std::unordered_map<std::uint32_t, unsigned char> byte_of_char;

    ByteAlphabet() {
        const auto prints_as_itself = [](unsigned b) {
            return (b >= '!' && b <= '~') || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
        };
        std::size_t id = 0;
        for (unsigned b = 0; b < 256; ++b) {
            if (!prints_as_itself(b)) continue;
            char_of[b] = b;
            byte_of_id[id++] = static_cast<unsigned char>(b);
        }
        std::uint32_t next = 0x100;
        for (unsigned b = 0; b < 256; ++b) {
            if (prints_as_itself(b)) continue;
            char_of[b] = next++;
            byte_of_id[id++] = static_cast<unsigned char>(b);
        }
        for (unsigned b = 0; b < 256; ++b) byte_of_char[char_of[b]] = static_cast<unsigned char>(b);
    }
};

const ByteAlphabet& alphabet() {
    static const ByteAlphabet instance;
    return instance;
}

// "Ġt" -> " t": a token as vocab.bpe spells it back to its bytes.
std::optional<std::string> token_bytes(std::string_view spelled) {
    std::string bytes;
    for (std::size_t at = 0; at < spelled.size();) {
        const auto next = decode_utf8(spelled, at);
        if (!next) return std::nullopt;
        const auto found = alphabet().byte_of_char.find(next->code_point);
        if (found == alphabet().byte_of_char.end()) return std::nullopt;
        bytes += static_cast<char>(found->second);
        at += next->length;
    }
    return bytes;
}

std::string_view next_line(std::string_view& text) {
    const std::size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    return line;
}

}  // namespace

std::uint32_t gpt2_byte_char(unsigned char byte) { return alphabet().char_of[byte]; }

ParseResult<Gpt2Vocabulary> Gpt2Vocabulary::parse(std::string_view vocab_bpe) {
    Gpt2Vocabulary vocab;
    vocab.m_tokens.reserve(k_gpt2_vocab_size);
    for (const unsigned char byte : alphabet().byte_of_id) vocab.m_tokens.emplace_back(1, static_cast<char>(byte));
    std::string_view rest = vocab_bpe;
    if (next_line(rest).rfind("#version", 0) != 0) return ParseResult<Gpt2Vocabulary>::fail("its first line is not \"#version ...\"");
    for (std::size_t line_number = 2; !rest.empty(); ++line_number) {
        const std::string_view line = next_line(rest);
        if (line.empty()) continue;
        const std::size_t space = line.find(' ');
        const auto left = token_bytes(line.substr(0, space));
        const auto right = space == std::string_view::npos ? std::nullopt : token_bytes(line.substr(space + 1));
        if (!left || !right || left->empty() || right->empty()) {
            return ParseResult<Gpt2Vocabulary>::fail("line " + std::to_string(line_number) + " is not a merge \"left right\"");
        }
        vocab.m_tokens.push_back(*left + *right);
    }
    if (vocab.m_tokens.size() != k_gpt2_end_of_text) {
        return ParseResult<Gpt2Vocabulary>::fail("it has " + count_of(vocab.m_tokens.size() - 256, "merge", "merges") +
                                                 ", GPT-2 has " + group_thousands(k_gpt2_end_of_text - 256));
    }
    vocab.m_tokens.emplace_back(k_end_of_text_text);
    vocab.m_ids.build(vocab.m_tokens, k_gpt2_end_of_text);
    for (std::uint32_t id = 0; id < 256; ++id) vocab.m_byte_ids[static_cast<unsigned char>(vocab.m_tokens[id][0])] = id;
    return ParseResult<Gpt2Vocabulary>::ok(std::move(vocab));
}

std::optional<std::uint64_t> Gpt2Vocabulary::find(std::string_view bytes) const {
    return m_ids.find(m_tokens, bytes);
}

std::vector<std::uint64_t> Gpt2Vocabulary::encode_piece(std::string_view piece, std::vector<BpeMerge>* merges,
                                                        BpeWork* work) const {
    if (merges) {
        std::vector<std::uint64_t> merged = merge_bytes(piece, merges, work);
        if (const auto whole = find(piece)) return {*whole};
        return merged;
    }
    if (const auto whole = find(piece)) return {*whole};
    return merge_bytes(piece, nullptr, work);
}

}  // namespace embdemo
