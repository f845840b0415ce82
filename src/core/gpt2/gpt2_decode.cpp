#include "core/gpt2/gpt2_decode.hpp"

#include "core/escape.hpp"

namespace embdemo {

namespace {

// How many bytes the well-formed sequence led by `lead` has, and the range its second byte must
// fall in (Unicode's Table 3-7: no overlong forms, no surrogates, nothing past U+10FFFF); 0 for a
// byte that cannot lead one.
struct LeadByte {
    std::size_t length = 0;
    unsigned char low = 0x80;
    unsigned char high = 0xbf;
};

LeadByte lead_byte(unsigned char lead) {
    if (lead >= 0xc2 && lead <= 0xdf) return {2};
    if (lead == 0xe0) return {3, 0xa0, 0xbf};
    if (lead == 0xed) return {3, 0x80, 0x9f};
    if (lead >= 0xe1 && lead <= 0xef) return {3};
    if (lead == 0xf0) return {4, 0x90, 0xbf};
    if (lead >= 0xf1 && lead <= 0xf3) return {4};
    if (lead == 0xf4) return {4, 0x80, 0x8f};
    return {0};
}

}  // namespace

std::string decode_utf8_replacing(std::string_view bytes, std::size_t* replacements,
                                  std::vector<ReplacedStretch>* stretches) {
    if (stretches) stretches->clear();
    static constexpr std::string_view k_replacement = "\xef\xbf\xbd";  // U+FFFD
    std::string text;
    text.reserve(bytes.size());
    std::size_t replaced = 0;
    for (std::size_t at = 0; at < bytes.size();) {
        const auto lead = static_cast<unsigned char>(bytes[at]);
        if (lead < 0x80) {
            text += static_cast<char>(lead);
            ++at;
            continue;
        }
        const LeadByte expected = lead_byte(lead);
        std::size_t good = expected.length == 0 ? 0 : 1;  // bytes of a well-formed prefix so far
        while (good > 0 && good < expected.length && at + good < bytes.size()) {
            const auto next = static_cast<unsigned char>(bytes[at + good]);
            const unsigned char low = good == 1 ? expected.low : 0x80;
            const unsigned char high = good == 1 ? expected.high : 0xbf;
            if (next < low || next > high) break;
            ++good;
        }
        if (good > 0 && good == expected.length) {
            text.append(bytes.substr(at, good));
            at += good;
            continue;
        }
        text += k_replacement;
        ++replaced;
        const std::size_t size = good > 0 ? good : 1;
        if (stretches) stretches->push_back({at, size});
        at += size;
    }
    if (replacements) *replacements = replaced;
    return text;
}

Gpt2Decoding decode_gpt2(const Gpt2Vocabulary& vocab, const std::vector<std::uint64_t>& ids) {
    Gpt2Decoding decoding;
    decoding.tokens.reserve(ids.size());
    for (const std::uint64_t id : ids) {
        const std::string& bytes = vocab.bytes(id);
        DecodedToken token;
        token.id = id;
        token.offset = decoding.bytes.size();
        token.size = bytes.size();
        token.utf8 = is_valid_utf8(bytes) ? TokenUtf8::valid : TokenUtf8::broken;
        decoding.bytes += bytes;
        decoding.tokens.push_back(token);
    }
    decoding.text = decode_utf8_replacing(decoding.bytes, &decoding.replacements, &decoding.replaced);
    std::vector<bool> replaced_byte(decoding.bytes.size(), false);
    for (const ReplacedStretch& stretch : decoding.replaced) {
        for (std::size_t b = stretch.offset; b < stretch.offset + stretch.size; ++b) replaced_byte[b] = true;
    }
    for (DecodedToken& token : decoding.tokens) {
        for (std::size_t b = token.offset; b < token.offset + token.size; ++b) token.replaced_bytes += replaced_byte[b];
    }

    // A token edge that a character of the joined bytes crosses ties the tokens on both sides
    // into one group. Characters are read from the joined bytes as a UTF-8 reader would: where
    // the bytes are ill-formed, one byte at a time.
    std::vector<bool> crossed(decoding.bytes.size() + 1, false);  // crossed[b]: a character spans b
    for (std::size_t at = 0; at < decoding.bytes.size();) {
        const auto next = decode_utf8(decoding.bytes, at);
        const std::size_t length = next ? next->length : 1;
        for (std::size_t b = at + 1; b < at + length; ++b) crossed[b] = true;
        at += length;
    }
    std::vector<DecodedToken>& tokens = decoding.tokens;
    for (std::size_t first = 0; first < tokens.size();) {
        std::size_t last = first;
        while (last + 1 < tokens.size() && crossed[tokens[last + 1].offset]) ++last;
        for (std::size_t k = first; k <= last; ++k) {
            tokens[k].group_first = first;
            tokens[k].group_last = last;
            // Which of a token's bytes decode replaces is the joined decode's, byte by byte: a
            // token can hold the end of a whole character and a byte that starts none.
            if (tokens[k].utf8 != TokenUtf8::broken) continue;
            if (tokens[k].replaced_bytes == 0) {
                tokens[k].utf8 = TokenUtf8::joined;
            } else if (tokens[k].replaced_bytes < tokens[k].size) {
                tokens[k].utf8 = TokenUtf8::partial;
            }
        }
        first = last + 1;
    }
    return decoding;
}

}  // namespace embdemo
