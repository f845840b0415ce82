#include "core/gpt2/token_index.hpp"

#include <algorithm>
#include <cstring>

namespace embdemo {

namespace {

// A multiply-and-fold hash over 8-byte words: tokens are short (most under 8 bytes), so the
// cost is a word load and two multiplies. Any hash gives the same ids; this one is fast.
std::uint64_t hash_bytes(std::string_view bytes) {
    constexpr std::uint64_t k_mul = 0x9e3779b97f4a7c15ull;
    std::uint64_t h = bytes.size() * k_mul;
    std::size_t at = 0;
    for (; at + 8 <= bytes.size(); at += 8) {
        std::uint64_t word = 0;
        std::memcpy(&word, bytes.data() + at, 8);
        h = (h ^ word) * k_mul;
        h ^= h >> 32;
    }
    if (at < bytes.size()) {
        std::uint64_t word = 0;
        std::memcpy(&word, bytes.data() + at, bytes.size() - at);
        h = (h ^ word) * k_mul;
        h ^= h >> 32;
    }
    h *= 0xd6e8feb86659fd93ull;
    return h ^ (h >> 29);
}

}  // namespace

void TokenIndex::build(const std::vector<std::string>& tokens, std::size_t count) {
    std::size_t size = 1;
    while (size < count * 2) size *= 2;
    m_slots.assign(size, Slot{});
    count = std::min<std::size_t>(count, k_empty);
    for (std::uint32_t id = 0; id < count; ++id) {
        const std::uint64_t h = hash_bytes(tokens[id]);
        for (std::size_t at = h & (size - 1);; at = (at + 1) & (size - 1)) {
            if (m_slots[at].id == k_empty) {
                m_slots[at] = {static_cast<std::uint16_t>(h >> 48), static_cast<std::uint16_t>(id)};
                break;
            }
        }
    }
}

std::optional<std::uint32_t> TokenIndex::find(const std::vector<std::string>& tokens, std::string_view bytes) const {
    const std::uint64_t h = hash_bytes(bytes);
    const auto tag = static_cast<std::uint16_t>(h >> 48);
    const std::size_t mask = m_slots.size() - 1;
    for (std::size_t at = h & mask;; at = (at + 1) & mask) {
        const Slot& slot = m_slots[at];
        if (slot.id == k_empty) return std::nullopt;
        if (slot.tag == tag && tokens[slot.id] == bytes) return slot.id;
    }
}

}  // namespace embdemo
