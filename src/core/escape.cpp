#include "core/escape.hpp"

namespace embdemo {

std::string escape_for_message(std::string_view text) {
    static constexpr char k_hex[] = "0123456789abcdef";
    std::string escaped;
    escaped.reserve(text.size());
    for (const char ch : text) {
        const auto byte = static_cast<unsigned char>(ch);
        if (byte == '\\') {
            escaped += "\\\\";
        } else if (byte >= 0x20 && byte < 0x7f) {
            escaped += ch;
        } else {
            escaped += "\\x";
            escaped += k_hex[byte >> 4];
            escaped += k_hex[byte & 0xf];
        }
    }
    return escaped;
}

std::string quote_for_message(std::string_view text, std::size_t max_chars) {
    // Every byte escapes to at least one character, so the first max_chars + 1 bytes decide the
    // quote: a 16 MiB text is not escaped whole (64 MiB) to show 60 characters of it.
    std::string escaped = escape_for_message(text.substr(0, max_chars + 1));
    if (escaped.size() > max_chars) {
        escaped.resize(max_chars);
        escaped += "...";
    }
    return '"' + escaped + '"';
}

std::optional<Utf8Char> decode_utf8(std::string_view text, std::size_t at) {
    const auto byte = static_cast<unsigned char>(text[at]);
    if (byte < 0x80) return Utf8Char{byte, 1};
    if (byte < 0xc2 || byte > 0xf4) return std::nullopt;  // continuation byte, overlong lead, or past U+10FFFF
    const std::size_t length = byte < 0xe0 ? 2 : byte < 0xf0 ? 3 : 4;
    if (at + length > text.size()) return std::nullopt;
    std::uint32_t value = byte & (0x7fu >> length);
    for (std::size_t k = 1; k < length; ++k) {
        const auto next = static_cast<unsigned char>(text[at + k]);
        if ((next & 0xc0) != 0x80) return std::nullopt;
        value = (value << 6) | (next & 0x3fu);
    }
    constexpr std::uint32_t k_smallest[] = {0, 0, 0x80, 0x800, 0x10000};  // shorter would do: overlong
    if (value < k_smallest[length] || value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff)) return std::nullopt;
    return Utf8Char{value, length};
}

bool is_valid_utf8(std::string_view text) {
    for (std::size_t i = 0; i < text.size();) {
        const auto next = decode_utf8(text, i);
        if (!next) return false;
        i += next->length;
    }
    return true;
}

}  // namespace embdemo
