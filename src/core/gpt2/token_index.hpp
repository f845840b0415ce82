// Bytes -> token id for GPT-2's 50,256 tokens: the lookup BPE makes for every adjacent pair, a
// million times on a megabyte of text. std::unordered_map spent most of a long piece's time
// walking its node chains (a division and a cache miss per node); this is one flat array with
// open addressing, a tag of the hash beside each id so that a miss rarely touches the bytes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace embdemo {

class TokenIndex {
public:
    // Indexes tokens[0, count): tokens[id] are the bytes of token id (the first id of equal bytes
    // wins). count must be below 65,535 (GPT-2 has 50,256 tokens besides <|endoftext|>).
    void build(const std::vector<std::string>& tokens, std::size_t count);

    // The id whose bytes are `bytes`, checked against the same `tokens` the index was built from
    // (passed, not kept, so that moving the vocabulary cannot leave the index pointing at nothing).
    std::optional<std::uint32_t> find(const std::vector<std::string>& tokens, std::string_view bytes) const;

private:
    // Four bytes a slot, so that the whole table (512 KiB) stays in a core's cache: every lookup
    // is a random slot, and the miss to memory was most of BPE's time.
    struct Slot {
        std::uint16_t tag = 0;  // 16 bits of the hash that did not pick the slot
        std::uint16_t id = k_empty;
    };
    static constexpr std::uint16_t k_empty = 0xffff;

    std::vector<Slot> m_slots;  // a power of two, at most half full
};

}  // namespace embdemo
