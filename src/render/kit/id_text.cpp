#include "render/kit/id_text.hpp"

#include <fmt/format.h>

#include "core/limits.hpp"

namespace embdemo {

std::string describe_id_count(const IdShape& shape, std::size_t count) {
    return shape.batched ? fmt::format("B x T = {} x {}", shape.batch, shape.seq) : fmt::format("n = {}", count);
}

std::string per_id_shape(const IdShape& shape, std::size_t count, std::size_t cols) {
    if (!shape.batched) return fmt::format("{} x {}", group_thousands(count), group_thousands(cols));
    return fmt::format("{} x {} x {}", group_thousands(shape.batch), group_thousands(shape.seq), group_thousands(cols));
}

std::string describe_positions(const std::vector<std::size_t>& positions, const IdShape& shape) {
    constexpr std::size_t k_max_listed = 3;
    std::string text;
    for (std::size_t i = 0; i < positions.size() && i < k_max_listed; ++i) {
        text += fmt::format("{}ids[{}]", i ? ", " : "", torch_index(shape, positions[i]));
    }
    if (positions.size() > k_max_listed) text += fmt::format(", ... ({} times)", positions.size());
    return text;
}

// At most 12 ids, and at most k_max_id_chars characters: "  ids    " before the list and
// "  (n = 1,048,576)" after it must still fit 80 columns when the ids have five digits (GPT-2's).
constexpr std::size_t k_max_id_chars = 52;

std::string format_ids(const TokenIds& ids) {
    constexpr std::size_t k_max_listed = 12;
    const auto tail = [&ids](std::size_t listed) {
        return ", ... " + std::to_string(ids.size() - listed - 1) + " more ..., " + std::to_string(ids.back()) + "]";
    };
    std::string text = "[";
    for (std::size_t i = 0; i < ids.size(); ++i) {
        const std::string item = (i > 0 ? ", " : "") + std::to_string(ids[i]);
        // Would listing this id still leave room to end the list after it (or is it the last)?
        const std::string end = i + 1 == ids.size()   ? "]"
                                : i + 2 == ids.size() ? ", " + std::to_string(ids.back()) + "]"
                                                      : tail(i + 1);
        const bool fits = text.size() + item.size() + end.size() <= k_max_id_chars;
        if (i > 0 && ids.size() > i + 1 && (i == k_max_listed || !fits)) return text + tail(i);
        text += item;
    }
    return text + "]";
}

std::string format_id_batch(const IdBatch& ids) {
    if (!ids.batched) return format_ids(ids.values);
    std::string text = "[";
    for (std::size_t b = 0; b < ids.batch; ++b) {
        const std::string row = (b ? ", " : "") + format_ids(ids.row(b));
        const std::string more = fmt::format(", ... {} more {}]", ids.batch - b, ids.batch - b == 1 ? "row" : "rows");
        // The first row always; later ones while the whole list stays within the same width.
        if (b > 0 && ((b == 3 && ids.batch > 4) || text.size() + row.size() + (b + 1 < ids.batch ? more.size() : 1) > k_max_id_chars)) {
            return text + more;
        }
        text += row;
    }
    return text + "]";
}
std::string position_index(const IdBatch& ids, std::size_t flat) {
    if (!ids.batched || ids.seq == 0) return std::to_string(flat);
    return fmt::format("{}, {}", flat / ids.seq, flat % ids.seq);
}

std::string position_label(const IdBatch& ids, std::size_t flat) {
    return fmt::format("G[{}]", position_index(ids, flat));
}

}  // namespace embdemo
