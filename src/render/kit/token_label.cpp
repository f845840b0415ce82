#include "render/kit/token_label.hpp"

#include "core/gpt2/gpt2_tokenizer.hpp"

namespace embdemo {

std::string id_label(std::uint64_t id, const IdSource& source) {
    if (!source.token_of) return std::to_string(id);
    return std::to_string(id) + " \"" + source.token_of(id) + '"';
}

std::string short_token(const std::string& label) {
    constexpr std::size_t k_most_columns = 16;
    if (display_width(label) <= k_most_columns) return label;
    std::string out;
    std::size_t columns = 0;
    for (std::size_t i = 0; i < label.size();) {
        const auto byte = static_cast<unsigned char>(label[i]);
        std::size_t length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
        if (byte == '\\') length = i + 1 < label.size() && label[i + 1] == 'x' ? 4 : 2;
        const std::string piece = label.substr(i, length);
        if (columns + display_width(piece) > k_most_columns - 3) break;
        out += piece;
        columns += display_width(piece);
        i += length;
    }
    return out + "...";
}

std::string short_id_label(std::uint64_t id, const IdSource& source) {
    if (!source.token_of) return std::to_string(id);
    return std::to_string(id) + " \"" + short_token(source.token_of(id)) + '"';
}

}  // namespace embdemo
