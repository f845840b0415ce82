#include "render/kit/json_text.hpp"

#include <cmath>
#include <cstdint>

#include <fmt/format.h>

#include "core/escape.hpp"
#include "render/kit/number_format.hpp"

namespace embdemo {

// JSON has no NaN or infinity; those become the strings "nan", "inf", "-inf".
std::string json_number(float value) {
    const std::string text = shortest_round_trip(value);
    return std::isfinite(value) ? text : '"' + text + '"';
}

std::string json_number(double value) {
    if (std::isnan(value)) return "\"nan\"";
    if (std::isinf(value)) return value > 0 ? "\"inf\"" : "\"-inf\"";
    return fmt::format("{}", value);
}

const char* weight_source_name(const WeightOrigin& origin) {
    return origin.kind == WeightOrigin::Kind::file ? "file" : name_of(k_init_kinds, origin.kind);
}

// A JSON string in ASCII: UTF-8 text becomes \\u escapes. A byte that is not UTF-8 (a file name
// may hold any bytes) becomes the lone surrogate U+DC80 + (byte - 0x80), as Python's
// "surrogateescape" does, so that the exact bytes can be recovered (os.fsencode in Python).
std::string json_string(std::string_view text) {
    const auto escape = [](std::uint32_t unit) { return fmt::format("\\u{:04x}", unit); };
    std::string out = "\"";
    for (std::size_t i = 0; i < text.size();) {
        const auto byte = static_cast<unsigned char>(text[i]);
        if (byte == '"' || byte == '\\') {
            out += '\\';
            out += static_cast<char>(byte);
            ++i;
            continue;
        }
        if (byte >= 0x20 && byte < 0x7f) {
            out += static_cast<char>(byte);
            ++i;
            continue;
        }
        const auto character = decode_utf8(text, i);
        if (!character) {
            out += escape(0xdc00 + byte);  // only bytes >= 0x80 can fail to decode
            ++i;
            continue;
        }
        std::uint32_t code_point = character->code_point;
        if (code_point >= 0x10000) {
            code_point -= 0x10000;
            out += escape(0xd800 + (code_point >> 10)) + escape(0xdc00 + (code_point & 0x3ff));
        } else {
            out += escape(code_point);
        }
        i += character->length;
    }
    return out + '"';
}

std::string ids_json(const IdBatch& ids) {
    if (!ids.batched) return fmt::format("[{}]", fmt::join(ids.values, ", "));
    std::vector<std::string> rows;
    for (std::size_t b = 0; b < ids.batch; ++b) rows.push_back(fmt::format("[{}]", fmt::join(ids.row(b), ", ")));
    return fmt::format("[{}]", fmt::join(rows, ", "));
}

std::string tokens_json(const IdBatch& ids) {
    std::vector<std::string> tokens;
    tokens.reserve(ids.values.size());
    for (const std::uint64_t id : ids.values) tokens.push_back(json_string(ids.source.token_of(id)));
    return fmt::format("[{}]", fmt::join(tokens, ", "));
}

std::string id_source_json(const IdBatch& ids, const std::string& indent) {
    if (!ids.source.from_text()) return "";
    // GPT-2's runs keep the fields they always had; another tokenizer is named.
    const std::string tokenizer = ids.source.tokenizer == TokenizerKind::gpt2
                                      ? std::string()
                                      : fmt::format("{}\"tokenizer\": {},\n", indent, json_string(tokenizer_name(ids.source.tokenizer)));
    return fmt::format("{0}\"text\": {1},\n{3}{0}\"tokens\": {2},\n", indent, json_string(ids.source.text),
                       tokens_json(ids), tokenizer);
}

}  // namespace embdemo
