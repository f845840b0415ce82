#include "core/escape.hpp"

#include <utf8proc.h>

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

namespace {

// The value of the 4 hex digits at json[at], or nullopt.
std::optional<std::uint32_t> hex4(std::string_view json, std::size_t at) {
    if (at + 4 > json.size()) return std::nullopt;
    std::uint32_t value = 0;
    for (std::size_t k = 0; k < 4; ++k) {
        const char ch = json[at + k];
        const int digit = ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
                          : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
        if (digit < 0) return std::nullopt;
        value = value * 16 + static_cast<std::uint32_t>(digit);
    }
    return value;
}

bool shows_as_itself(std::uint32_t c) {
    const utf8proc_property_t* property = utf8proc_get_property(static_cast<utf8proc_int32_t>(c));
    if (property->ignorable) return false;
    switch (property->category) {
        case UTF8PROC_CATEGORY_CN: case UTF8PROC_CATEGORY_CC: case UTF8PROC_CATEGORY_CF:
        case UTF8PROC_CATEGORY_CS: case UTF8PROC_CATEGORY_CO: case UTF8PROC_CATEGORY_ZS:
        case UTF8PROC_CATEGORY_ZL: case UTF8PROC_CATEGORY_ZP:
            return false;
        default:
            return true;
    }
}

void append_utf8(std::string& out, std::uint32_t c) {
    utf8proc_uint8_t bytes[4];
    const utf8proc_ssize_t length = utf8proc_encode_char(static_cast<utf8proc_int32_t>(c), bytes);
    out.append(reinterpret_cast<const char*>(bytes), static_cast<std::size_t>(length));
}

}  // namespace

std::string json_with_visible_characters(std::string_view json) {
    std::string out;
    out.reserve(json.size());
    for (std::size_t i = 0; i < json.size(); ++i) {
        if (json[i] != '\\' || i + 1 >= json.size()) {
            out += json[i];
            continue;
        }
        // An escape: \uXXXX (with its pair's low half) is decoded or copied whole; any other,
        // backslash and letter, is copied, so "\\u00e9" (a backslash, then u00e9) stays.
        std::size_t length = 2;
        std::optional<std::uint32_t> code_point;
        if (json[i + 1] == 'u') {
            if (const auto high = hex4(json, i + 2)) {
                length = 6;
                code_point = *high;
                if (*high >= 0xd800 && *high <= 0xdbff) {
                    const auto low = i + 12 <= json.size() && json[i + 6] == '\\' && json[i + 7] == 'u'
                                         ? hex4(json, i + 8) : std::nullopt;
                    if (low && *low >= 0xdc00 && *low <= 0xdfff) {
                        length = 12;
                        code_point = 0x10000 + ((*high - 0xd800) << 10) + (*low - 0xdc00);
                    } else {
                        code_point.reset();  // a lone surrogate is no character
                    }
                }
            }
        }
        if (code_point && *code_point >= 0x80 && shows_as_itself(*code_point)) {
            append_utf8(out, *code_point);
        } else {
            out.append(json.substr(i, length));
        }
        i += length - 1;
    }
    return out;
}

}  // namespace embdemo
