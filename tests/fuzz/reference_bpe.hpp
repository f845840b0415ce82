// The slow, straightforward BPE that the fast one (core/gpt2/gpt2_bpe.cpp) is checked against:
// tiktoken's byte_pair_merge (openai/tiktoken, src/lib.rs) line for line. Each part keeps the
// rank of the pair it starts; every merge rescans all parts for the lowest rank (the leftmost
// of equals), so a piece of n bytes costs up to n^2 / 2 comparisons: fine for the tests' pieces
// of a few thousand bytes, and the reason the real one does not work this way.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>
#include <utility>
#include <vector>

#include "core/gpt2/gpt2_vocab.hpp"

namespace embdemo::testing {

inline std::vector<std::uint64_t> reference_bpe(const Gpt2Vocabulary& vocab, std::string_view piece) {
    if (const auto whole = vocab.find(piece)) return {*whole};
    constexpr std::uint64_t none = std::numeric_limits<std::uint64_t>::max();
    // (start, rank of the pair that starts here), plus two sentinels as in tiktoken.
    std::vector<std::pair<std::size_t, std::uint64_t>> parts;
    const auto rank_at = [&](std::size_t i) -> std::uint64_t {
        if (i + 3 >= parts.size()) return none;
        const auto found = vocab.find(piece.substr(parts[i].first, parts[i + 3].first - parts[i].first));
        return found ? *found : none;
    };
    for (std::size_t i = 0; i + 1 < piece.size(); ++i) {
        const auto found = vocab.find(piece.substr(i, 2));
        parts.emplace_back(i, found ? *found : none);
    }
    parts.emplace_back(piece.size() - 1, none);
    parts.emplace_back(piece.size(), none);
    while (true) {
        std::size_t best = parts.size();
        std::uint64_t lowest = none;
        for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
            if (parts[i].second < lowest) {
                lowest = parts[i].second;
                best = i;
            }
        }
        if (lowest == none) break;
        if (best > 0) parts[best - 1].second = rank_at(best - 1);
        parts[best].second = rank_at(best);
        parts.erase(parts.begin() + static_cast<std::ptrdiff_t>(best) + 1);
    }
    std::vector<std::uint64_t> ids;
    for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
        ids.push_back(*vocab.find(piece.substr(parts[i].first, parts[i + 1].first - parts[i].first)));
    }
    return ids;
}

}  // namespace embdemo::testing
