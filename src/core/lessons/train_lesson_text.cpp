#include "core/lessons/train_lesson_text.hpp"

#include <algorithm>
#include <numeric>
#include <unordered_map>

namespace embdemo {
namespace {

bool ascii_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

}  // namespace

TextUnits split_text(std::string_view text, TextLevel level) {
    TextUnits out;
    const auto end_line = [&out] {
        if (out.units.size() > (out.line_ends.empty() ? 0 : out.line_ends.back())) out.line_ends.push_back(out.units.size());
    };
    std::size_t i = 0;
    while (i < text.size()) {
        if (level == TextLevel::character) {
            std::size_t length = 1;
            while (i + length < text.size() && (static_cast<unsigned char>(text[i + length]) & 0xC0) == 0x80) ++length;
            out.units.emplace_back(text.substr(i, length));
            if (text[i] == '\n') end_line();
            i += length;
            continue;
        }
        if (ascii_space(text[i])) {
            if (text[i] == '\n') end_line();
            ++i;
            continue;
        }
        std::size_t j = i;
        while (j < text.size() && !ascii_space(text[j])) ++j;
        out.units.emplace_back(text.substr(i, j - i));
        i = j;
    }
    end_line();
    return out;
}

CompactIds compact_by_count(const std::vector<std::uint64_t>& original) {
    std::unordered_map<std::uint64_t, std::size_t> first_index;
    std::vector<std::uint64_t> distinct;
    std::vector<std::uint64_t> counts;
    for (const std::uint64_t id : original) {
        const auto [it, inserted] = first_index.emplace(id, distinct.size());
        if (inserted) {
            distinct.push_back(id);
            counts.push_back(0);
        }
        ++counts[it->second];
    }
    std::vector<std::size_t> order(distinct.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&counts](std::size_t a, std::size_t b) { return counts[a] > counts[b]; });
    std::vector<std::uint64_t> row_of(distinct.size());
    CompactIds out;
    for (std::size_t k = 0; k < order.size(); ++k) {
        row_of[order[k]] = k;
        out.rows.push_back(distinct[order[k]]);
    }
    out.ids.reserve(original.size());
    for (const std::uint64_t id : original) out.ids.push_back(row_of[first_index[id]]);
    return out;
}

FirstSeen ids_by_first_appearance(const std::vector<std::string>& units) {
    FirstSeen out;
    std::unordered_map<std::string, std::uint64_t> index;
    out.ids.reserve(units.size());
    for (const std::string& unit : units) {
        const auto [it, inserted] = index.emplace(unit, out.values.size());
        if (inserted) out.values.push_back(unit);
        out.ids.push_back(it->second);
    }
    return out;
}

std::vector<std::size_t> sentence_ends(const std::vector<std::size_t>& line_ends, std::size_t longest) {
    std::vector<std::size_t> out;
    std::size_t begin = 0;
    for (const std::size_t end : line_ends) {
        for (std::size_t cut = begin + longest; cut < end; cut += longest) out.push_back(cut);
        out.push_back(end);
        begin = end;
    }
    return out;
}

}  // namespace embdemo
