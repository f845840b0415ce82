// BPE on one pre-tokenised piece, exactly as tiktoken's byte_pair_merge (src/lib.rs) does it:
// repeatedly join the adjacent pair whose joined bytes are the lowest-ranked token, the leftmost
// such pair on a tie, until no adjacent pair is a token. tiktoken rescans every pair after each
// merge, n^2 on a megabyte without a space; here the candidate pairs wait in a queue ordered by
// (rank, start), and a merge offers at most the two pairs it changed, so a piece costs n log n
// at worst. A pair whose parts changed since it was queued is stale: its start's current pair
// has another rank (ranks name distinct bytes), and it is skipped when it comes out.
//
// Two queues give the same order. Short pieces (all of ordinary text) use one binary heap. A
// long piece would make that heap megabytes large and every pop a walk of cache misses, so it
// keeps one queue per rank instead: a run of one character merges rank by rank from left to
// right, and the pairs each merge offers arrive at their rank's queue in increasing order,
// where appending keeps it sorted; the few that arrive out of order wait in a small heap.
#include <algorithm>
#include <functional>
#include <limits>

#include "core/gpt2/gpt2_vocab.hpp"

namespace embdemo {

namespace {

constexpr std::uint32_t k_no_pair = std::numeric_limits<std::uint32_t>::max();

struct Candidate {
    std::uint32_t rank = 0;
    std::uint32_t start = 0;
};

// One binary heap of (rank, start), packed into one integer so that a comparison is one compare.
class HeapQueue {
public:
    explicit HeapQueue(std::size_t pairs) { m_heap.reserve(pairs); }
    void push(Candidate c) {
        m_heap.push_back(std::uint64_t{c.rank} << 32 | c.start);
        std::push_heap(m_heap.begin(), m_heap.end(), std::greater<>());
    }
    bool pop(Candidate& c) {
        if (m_heap.empty()) return false;
        std::pop_heap(m_heap.begin(), m_heap.end(), std::greater<>());
        c = {static_cast<std::uint32_t>(m_heap.back() >> 32), static_cast<std::uint32_t>(m_heap.back())};
        m_heap.pop_back();
        return true;
    }

private:
    std::vector<std::uint64_t> m_heap;
};

// A queue per rank, and a bit per rank (with a bit per 64 ranks above it) to find the lowest
// rank that has candidates in a few word scans.
class RankBucketQueue {
public:
    explicit RankBucketQueue(std::size_t ranks)
        : m_bucket_of_rank(ranks, k_no_pair), m_has(words(ranks)), m_summary(words(words(ranks))) {}

    void push(Candidate c) {
        std::uint32_t& index = m_bucket_of_rank[c.rank];
        if (index == k_no_pair) {
            index = static_cast<std::uint32_t>(m_buckets.size());
            m_buckets.emplace_back();
        }
        Bucket& bucket = m_buckets[index];
        if (bucket.empty()) mark(c.rank, true);
        bucket.push(c.start);
    }

    bool pop(Candidate& c) {
        const std::size_t summary = first_set(m_summary);
        if (summary == m_summary.size()) return false;
        const std::size_t word = summary * 64 + lowest_bit(m_summary[summary]);
        c.rank = static_cast<std::uint32_t>(word * 64 + lowest_bit(m_has[word]));
        Bucket& bucket = m_buckets[m_bucket_of_rank[c.rank]];
        c.start = bucket.pop();
        if (bucket.empty()) mark(c.rank, false);
        return true;
    }

private:
    // Starts in increasing order from m_sorted[m_next] on, and the ones that came out of order.
    struct Bucket {
        std::vector<std::uint32_t> m_sorted;
        std::size_t m_next = 0;
        std::vector<std::uint32_t> m_late;  // a min-heap

        bool empty() const { return m_next == m_sorted.size() && m_late.empty(); }
        void push(std::uint32_t start) {
            if (m_next == m_sorted.size()) {
                m_sorted.clear();
                m_next = 0;
            }
            if (m_sorted.empty() || start >= m_sorted.back()) {
                m_sorted.push_back(start);
                return;
            }
            m_late.push_back(start);
            std::push_heap(m_late.begin(), m_late.end(), std::greater<>());
        }
        std::uint32_t pop() {
            if (!m_late.empty() && (m_next == m_sorted.size() || m_late.front() < m_sorted[m_next])) {
                std::pop_heap(m_late.begin(), m_late.end(), std::greater<>());
                const std::uint32_t start = m_late.back();
                m_late.pop_back();
                return start;
            }
            return m_sorted[m_next++];
        }
    };

    static std::size_t words(std::size_t bits) { return (bits + 63) / 64; }
    static std::size_t lowest_bit(std::uint64_t word) { return static_cast<std::size_t>(__builtin_ctzll(word)); }
    static std::size_t first_set(const std::vector<std::uint64_t>& words) {
        std::size_t i = 0;
        while (i < words.size() && words[i] == 0) ++i;
        return i;
    }
    void mark(std::uint32_t rank, bool has) {
        const std::uint64_t bit = std::uint64_t{1} << (rank % 64);
        std::uint64_t& word = m_has[rank / 64];
        word = has ? word | bit : word & ~bit;
        const std::uint64_t summary_bit = std::uint64_t{1} << (rank / 64 % 64);
        std::uint64_t& summary = m_summary[rank / 64 / 64];
        summary = word != 0 ? summary | summary_bit : summary & ~summary_bit;
    }

    std::vector<std::uint32_t> m_bucket_of_rank;
    std::vector<Bucket> m_buckets;
    std::vector<std::uint64_t> m_has;
    std::vector<std::uint64_t> m_summary;
};

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
