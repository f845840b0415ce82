#include "render/kit/markdown_text.hpp"

#include <algorithm>

namespace embdemo {

std::string markdown_escape(std::string_view text) {
    std::string out;
    out.reserve(text.size() + text.size() / 8);
    for (const char ch : text) {
        switch (ch) {
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '&': out += "&amp;"; break;
            case '\n':
            case '\r': out += ' '; break;
            case '\\':
            case '`':
            case '*':
            case '_':
            case '[':
            case ']':
            case '|':
            case '~':
            case '!':
                out += '\\';
                out += ch;
                break;
            default: out += ch;
        }
    }
    return out;
}

std::string markdown_code(std::string_view text, std::size_t min_fence) {
    std::string content(text);
    std::replace(content.begin(), content.end(), '\n', ' ');
    std::replace(content.begin(), content.end(), '\r', ' ');
    std::size_t longest = 0;
    for (std::size_t run = 0, i = 0; i < content.size(); ++i) {
        run = content[i] == '`' ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    const std::string fence(std::max(longest + 1, min_fence), '`');
    const bool all_spaces = content.find_first_not_of(' ') == std::string::npos;
    const bool pad = !content.empty() && (content.front() == '`' || content.back() == '`' ||
                                          (!all_spaces && content.front() == ' ' && content.back() == ' '));
    return pad ? fence + ' ' + content + ' ' + fence : fence + content + fence;
}

std::string_view cut_for_markdown(std::string_view text, std::size_t max_chars) {
    std::size_t chars = 0;
    for (std::size_t at = 0; at < text.size(); ++at) {
        if ((static_cast<unsigned char>(text[at]) & 0xc0) == 0x80) continue;  // inside a character
        if (chars++ == max_chars) return text.substr(0, at);
    }
    return text;
}

}  // namespace embdemo
