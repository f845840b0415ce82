#include "render/json_text.hpp"

#include <cmath>
#include <cstdint>

#include <fmt/format.h>

#include "render/number_format.hpp"

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
    switch (origin.kind) {
        case WeightOrigin::Kind::torch: break;
        case WeightOrigin::Kind::torch_randint: return "randint";
        case WeightOrigin::Kind::index_pattern: return "index";
        case WeightOrigin::Kind::file: return "file";
    }
    return "torch";
}

// A JSON string in ASCII: UTF-8 text becomes \\u escapes, and bytes that are not UTF-8 (a file
// name may hold any bytes) become U+FFFD, so the output is always valid JSON.
std::string json_string(std::string_view text) {
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
        std::uint32_t code_point = byte < 0x80 ? byte : 0xfffd;
        std::size_t length = 1;
        if (byte >= 0xc2 && byte <= 0xf4) {
            const std::size_t expected = byte < 0xe0 ? 2 : byte < 0xf0 ? 3 : 4;
            std::uint32_t value = byte & (0x7f >> expected);
            std::size_t k = 1;
            for (; k < expected && i + k < text.size(); ++k) {
                const auto next = static_cast<unsigned char>(text[i + k]);
                if ((next & 0xc0) != 0x80) break;
                value = (value << 6) | (next & 0x3f);
            }
            const std::uint32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
            if (k == expected && value >= smallest[expected] && value <= 0x10ffff &&
                (value < 0xd800 || value > 0xdfff)) {
                code_point = value;
                length = expected;
            }
        }
        if (code_point >= 0x10000) {
            code_point -= 0x10000;
            out += fmt::format("\\u{:04x}\\u{:04x}", 0xd800 + (code_point >> 10), 0xdc00 + (code_point & 0x3ff));
        } else {
            out += fmt::format("\\u{:04x}", code_point);
        }
        i += length;
    }
    return out + '"';
}

std::string ids_json(const IdBatch& ids) {
    if (!ids.batched) return fmt::format("[{}]", fmt::join(ids.values, ", "));
    std::vector<std::string> rows;
    for (std::size_t b = 0; b < ids.batch; ++b) rows.push_back(fmt::format("[{}]", fmt::join(ids.row(b), ", ")));
    return fmt::format("[{}]", fmt::join(rows, ", "));
}

}  // namespace embdemo
