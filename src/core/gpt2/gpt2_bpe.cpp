// BPE on one pre-tokenised piece, exactly as tiktoken's byte_pair_merge (src/lib.rs) does it:
// repeatedly join the adjacent pair whose joined bytes are the lowest-ranked token, the leftmost
// such pair on a tie, until no adjacent pair is a token. tiktoken rescans every pair after each
// merge, n^2 on a megabyte without a space; here the candidate pairs wait in a queue ordered by
// (rank, start), and a merge offers at most the two pairs it changed, so a piece costs n log n
// at worst. A pair whose parts changed since it was queued is stale: its start's current pair
// has another rank (ranks name distinct bytes), and it is skipped when it comes out.
//
// Short pieces (all of ordinary text) keep the candidates in one binary heap. A long piece would
// make that heap megabytes large and every pop a walk of cache misses, so it keeps a queue per
// rank instead (core/gpt2/bpe_queues.hpp): a run of one character merges rank by rank from left
// to right, so the pairs each merge offers reach their rank's queue in increasing order.
#include "core/gpt2/bpe_queues.hpp"
#include "core/gpt2/gpt2_vocab.hpp"

namespace embdemo {

namespace {

// The parts are a linked list of start offsets; pair_rank[i] is the rank of the pair that
// starts at part i (the token its two parts would join into), or k_no_pair.
template <typename Queue>
std::vector<std::uint64_t> merge_with(Queue& queue, std::string_view piece,
                                             const TokenIndex& ids_of_bytes, const std::vector<std::string>& tokens,
                                             const std::array<std::uint32_t, 256>& byte_ids,
                                             std::vector<BpeMerge>* merges, BpeWork* work) {
    const auto n = static_cast<std::uint32_t>(piece.size());
    std::vector<std::uint32_t> next(n), prev(n), id(n), pair_rank(n, k_no_pair);
    for (std::uint32_t i = 0; i < n; ++i) {
        next[i] = i + 1;
        prev[i] = i == 0 ? n : i - 1;
        id[i] = byte_ids[static_cast<unsigned char>(piece[i])];
    }
    const auto offer = [&](std::uint32_t left) {
        pair_rank[left] = k_no_pair;
        if (next[left] >= n) return;
        const std::uint32_t end = next[next[left]];
        if (work) ++work->pair_lookups;
        const auto found = ids_of_bytes.find(tokens, piece.substr(left, end - left));
        if (!found) return;
        pair_rank[left] = *found;
        queue.push({pair_rank[left], left});
    };
    for (std::uint32_t i = 0; i + 1 < n; ++i) offer(i);
    Candidate top;
    while (queue.pop(top)) {
        if (work) ++work->pops;
        if (pair_rank[top.start] != top.rank) continue;  // stale: a part changed, or died
        const std::uint32_t left = top.start;
        const std::uint32_t right = next[left];
        if (merges) merges->push_back({id[left], id[right], top.rank});
        id[left] = top.rank;
        pair_rank[right] = k_no_pair;
        next[left] = next[right];
        if (next[left] < n) prev[next[left]] = left;
        offer(left);
        if (prev[left] < n) offer(prev[left]);
    }
    std::vector<std::uint64_t> ids;
    for (std::uint32_t i = 0; i < n; i = next[i]) ids.push_back(id[i]);
    return ids;
}

}  // namespace

std::vector<std::uint64_t> Gpt2Vocabulary::merge_bytes(std::string_view piece, std::vector<BpeMerge>* merges,
                                                       BpeWork* work) const {
    if (piece.size() >= k_bpe_rank_bucket_bytes) {
        if (work) work->rank_buckets = true;
        RankBucketQueue queue(m_tokens.size());
        return merge_with(queue, piece, m_ids, m_tokens, m_byte_ids, merges, work);
    }
    HeapQueue queue(piece.size());
    return merge_with(queue, piece, m_ids, m_tokens, m_byte_ids, merges, work);
}

}  // namespace embdemo
