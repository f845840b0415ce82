#include "bench/kernels.hpp"

#include <algorithm>
#include <cstring>
#include <random>

#include "core/kernels/rows.hpp"

namespace embdemo {

ThreadPool::ThreadPool(unsigned threads) {
    try {
        m_workers.reserve(threads);
        for (unsigned i = 1; i < std::max(threads, 1u); ++i) m_workers.emplace_back([this] { work(); });
    } catch (...) {
        // A thread that cannot start (a process or memory limit) throws; the ones already
        // running must be joined, or their std::thread destructors would end the program.
        stop();
        throw;
    }
}

ThreadPool::~ThreadPool() { stop(); }

void ThreadPool::stop() {
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    for (std::thread& worker : m_workers) worker.join();
    m_workers.clear();
}

void ThreadPool::work() {
    std::uint64_t seen = 0;
    for (;;) {
        // About a millisecond of spinning, then sleep until the next call.
        for (int spin = 0; spin < 200000 && generation_of(m_claim.load(std::memory_order_acquire)) == seen && !m_stop;
             ++spin) {
            __builtin_ia32_pause();
        }
        {
            std::unique_lock<std::mutex> lock(m_mutex);
            m_wake.wait(lock, [&] { return m_stop || generation_of(m_claim.load()) != seen; });
            if (m_stop) return;
        }
        seen = generation_of(m_claim.load(std::memory_order_acquire));
        run_pieces(seen);
    }
}

void ThreadPool::run_pieces(std::uint64_t generation) {
    for (;;) {
        std::uint64_t claim = m_claim.load(std::memory_order_acquire);
        const unsigned pieces = static_cast<unsigned>((claim >> 16) & 0xffff);
        const unsigned next = static_cast<unsigned>(claim & 0xffff);
        if (generation_of(claim) != generation || next >= pieces) return;
        if (!m_claim.compare_exchange_weak(claim, claim + 1, std::memory_order_acq_rel)) continue;
        // The piece is ours, so its call cannot have returned: m_task is still its task.
        (*m_task)(next, pieces);
        m_done.fetch_add(1, std::memory_order_acq_rel);
    }
}

void ThreadPool::run(unsigned parts, const std::function<void(unsigned, unsigned)>& task) {
    parts = std::clamp(parts, 1u, size());
    if (parts == 1) {
        task(0, 1);
        return;
    }
    const unsigned pieces = parts * k_pieces_per_thread;
    std::uint64_t generation = 0;
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_task = &task;
        m_done.store(0, std::memory_order_relaxed);
        generation = generation_of(m_claim.load()) + 1;
        m_claim.store((generation << 32) | (std::uint64_t{pieces} << 16), std::memory_order_release);
    }
    m_wake.notify_all();
    run_pieces(generation);
    // Only pieces that another thread claimed are left, and it is running them; if it shares
    // this core, yielding lets it finish.
    for (unsigned spin = 0; m_done.load(std::memory_order_acquire) != pieces; ++spin) {
        if (spin < 4096) {
            __builtin_ia32_pause();
        } else {
            std::this_thread::yield();
        }
    }
}

unsigned parts_for(std::size_t bytes, const ThreadPool& pool) {
    return static_cast<unsigned>(std::clamp<std::size_t>(bytes / k_bytes_per_thread, 1, pool.size()));
}

namespace {

// The CSR product's two row operations, compiled for AVX2 as well as for plain x86-64 and
// chosen when the program loads: the product is memory-bound only if its arithmetic keeps up.
// Each element is one rounded multiply (and one rounded add), in any width, so both give the
// same bits.
__attribute__((target_clones("avx2", "default"))) void scale_row(float* row, float value, const float* e,
                                                                 std::size_t d) {
    for (std::size_t j = 0; j < d; ++j) row[j] = value * e[j];
}

__attribute__((target_clones("avx2", "default"))) void add_scaled_row(float* row, float value, const float* e,
                                                                      std::size_t d) {
    for (std::size_t j = 0; j < d; ++j) row[j] += value * e[j];
}

// [begin, end) of part `part` out of `parts` over `count` items.
std::pair<std::size_t, std::size_t> share(std::size_t count, unsigned part, unsigned parts) {
    return {count * part / parts, count * (part + 1) / parts};
}

}  // namespace

void lookup_rows(const float* E, std::size_t d, const BenchIds& ids, float* out, ThreadPool& pool, unsigned parts) {
    pool.run(parts, [&](unsigned part, unsigned count) {
        const auto [begin, end] = share(ids.size(), part, count);
        gather_rows(E, d, ids.data() + begin, end - begin, out + begin * d);
    });
}

void copy_bytes(const void* from, void* to, std::size_t bytes, ThreadPool& pool, unsigned parts) {
    pool.run(parts, [&](unsigned part, unsigned count) {
        const auto [begin, end] = share(bytes, part, count);
        std::memcpy(static_cast<char*>(to) + begin, static_cast<const char*>(from) + begin, end - begin);
    });
}

CsrMatrix csr_onehot(const BenchIds& ids) {
    CsrMatrix X;
    X.values.assign(ids.size(), 1.0f);
    X.columns = ids;
    X.row_start.resize(ids.size() + 1);
    for (std::size_t i = 0; i <= ids.size(); ++i) X.row_start[i] = static_cast<std::int64_t>(i);
    return X;
}

void csr_matmul(const CsrMatrix& X, const float* E, std::size_t d, float* out, ThreadPool& pool, unsigned parts) {
    const std::size_t n = X.row_start.size() - 1;
    pool.run(parts, [&](unsigned part, unsigned count) {
        const auto [begin, end] = share(n, part, count);
        for (std::size_t i = begin; i < end; ++i) {
            float* row = out + i * d;
            const auto first = static_cast<std::size_t>(X.row_start[i]);
            const auto last = static_cast<std::size_t>(X.row_start[i + 1]);
            if (first == last) std::fill(row, row + d, 0.0f);
            // The first stored value sets the row (a GEMM's beta = 0), the others add to it.
            for (std::size_t k = first; k < last; ++k) {
                // The row a few entries ahead is asked for early, as the lookup does.
                if (k + k_prefetch_rows_ahead < X.columns.size()) {
                    prefetch_row(E + X.columns[k + k_prefetch_rows_ahead] * d, d);
                }
                const float* e = E + X.columns[k] * d;
                if (k == first) {
                    scale_row(row, X.values[k], e, d);
                } else {
                    add_scaled_row(row, X.values[k], e, d);
                }
            }
        }
    });
}

OneHotBuffer::OneHotBuffer(std::size_t capacity_rows, std::size_t V)
    : m_vocab(V), m_values(zeroed_floats(capacity_rows * V)) {}

const float* OneHotBuffer::fill(const BenchIds& ids, std::size_t first, std::size_t rows) {
    for (std::size_t i = 0; i < m_ones.size(); ++i) m_values[i * m_vocab + m_ones[i]] = 0.0f;
    const auto begin = ids.begin() + static_cast<std::ptrdiff_t>(first);
    m_ones.assign(begin, begin + static_cast<std::ptrdiff_t>(rows));
    for (std::size_t i = 0; i < rows; ++i) m_values[i * m_vocab + m_ones[i]] = 1.0f;
    return m_values.data();
}

void naive_matmul(const float* X, std::size_t rows, const float* E, std::size_t V, std::size_t d, float* out) {
    for (std::size_t i = 0; i < rows; ++i) {
        float* row = out + i * d;
        std::fill(row, row + d, 0.0f);
        for (std::size_t k = 0; k < V; ++k) {
            const float x = X[i * V + k];  // 0 for all k but one, multiplied all the same
            const float* e = E + k * d;
            for (std::size_t j = 0; j < d; ++j) row[j] += x * e[j];
        }
    }
}

void fill_table(float* E, std::size_t values, std::uint64_t seed) {
    std::uint64_t state = seed * 0x9E3779B97F4A7C15ull + 1;
    for (std::size_t i = 0; i < values; ++i) {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        const std::uint64_t bits = state * 0x2545F4914F6CDD1Dull;
        // 24 random bits -> k / 2^23 - 1 in [-1, 1); k = 2^23 would be 0, so it becomes 2^-24.
        const float value = static_cast<float>(static_cast<std::int64_t>(bits >> 40) - (1 << 23)) / 8388608.0f;
        E[i] = value == 0.0f ? 5.9604645e-08f : value;
    }
}

BenchIds random_ids(std::size_t n, std::uint64_t V, std::uint64_t seed) {
    __extension__ using Wide = unsigned __int128;  // GCC's, for the 64 x 64 -> 128-bit product
    std::mt19937_64 engine(seed);
    BenchIds ids(n);
    for (std::uint64_t& id : ids) {
        id = static_cast<std::uint64_t>((static_cast<Wide>(engine()) * V) >> 64);
    }
    return ids;
}

}  // namespace embdemo
