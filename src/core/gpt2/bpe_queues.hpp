// The two queues BPE keeps its candidate pairs in (core/gpt2/gpt2_bpe.cpp): each gives back what
// was pushed in order of (rank, start), the lowest rank first and the leftmost of equal ranks,
// which is tiktoken's merge order. HeapQueue is one binary heap; RankBucketQueue keeps a queue per
// rank, for long pieces, where each rank's starts mostly arrive in increasing order and are
// appended, and only the ones that arrive out of order go to a small heap of that rank.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <vector>

namespace embdemo {

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

}  // namespace embdemo
