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
    std::string escaped = escape_for_message(text);
    if (escaped.size() > max_chars) {
        escaped.resize(max_chars);
        escaped += "...";
    }
    return '"' + escaped + '"';
}

}  // namespace embdemo
