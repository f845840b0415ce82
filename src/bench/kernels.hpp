// The paths `embdemo bench` times, as plain kernels over explicit sizes (llm.c style), and the
// few threads they share. Shape legend: n ids, V vocabulary rows, d dimensions; E is V x d and
// every result n x d, row-major float32. The ids are valid (checked where they are made).
// Nothing here times, prints or allocates per call except the thread pool itself.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace embdemo {

// Worker threads kept for the whole bench, so a timed call pays a wake-up, not a thread start.
// Between calls a worker spins for a while before it sleeps: timed calls come back to back, and
// a sleeping thread takes tens of microseconds to wake, as long as a GPT-2 lookup takes.
// A call is cut into k_pieces_per_thread pieces per thread, which the threads claim one at a
// time, and the caller waits only for pieces another thread has claimed: on a machine where
// another program holds a core, a worker that is not scheduled leaves its pieces to the caller
// instead of making every call wait a scheduler time slice (8 ms, measured).
class ThreadPool {
public:
    // Throws std::system_error when a thread cannot start, after joining those that did.
    explicit ThreadPool(unsigned threads);
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;
    unsigned size() const { return static_cast<unsigned>(m_workers.size()) + 1; }
    // task(piece, pieces) once for each piece = 0 .. pieces - 1, on up to `parts` threads
    // (parts <= size()); pieces is 1 when parts is 1.
    void run(unsigned parts, const std::function<void(unsigned, unsigned)>& task);
    static constexpr unsigned k_pieces_per_thread = 4;

private:
    static std::uint64_t generation_of(std::uint64_t claim) { return claim >> 32; }
    void stop();  // ends and joins every worker
    void work();
    void run_pieces(std::uint64_t generation);
    std::vector<std::thread> m_workers;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    const std::function<void(unsigned, unsigned)>* m_task = nullptr;
    // generation (32 bits) | pieces (16) | next unclaimed piece (16), changed as one word so that
    // a worker late for one call can never claim a piece of the next.
    std::atomic<std::uint64_t> m_claim{0};
    std::atomic<unsigned> m_done{0};
    std::atomic<bool> m_stop{false};
};

// How many parts a pass writing `bytes` is worth: one per k_bytes_per_thread, at most the pool.
inline constexpr std::size_t k_bytes_per_thread = std::size_t{1} << 20;
unsigned parts_for(std::size_t bytes, const ThreadPool& pool);

using BenchIds = std::vector<std::uint64_t>;

// out[i] = E[ids[i]]: embdemo's own lookup kernel (core/kernels/rows' gather_rows), rows split between
// `parts` threads.
void lookup_rows(const float* E, std::size_t d, const BenchIds& ids, float* out, ThreadPool& pool, unsigned parts);

// memcpy of `bytes`, split between `parts` threads: the physical limit of a gather.
void copy_bytes(const void* from, void* to, std::size_t bytes, ThreadPool& pool, unsigned parts);

// One-hot X as CSR: row i holds a single 1.0 at column ids[i].
struct CsrMatrix {
    std::vector<float> values;
    std::vector<std::uint64_t> columns;
    std::vector<std::int64_t> row_start;  // n + 1
};
CsrMatrix csr_onehot(const BenchIds& ids);

// out = X @ E for CSR X: every stored value times its row of E, added; skips nothing stored.
void csr_matmul(const CsrMatrix& X, const float* E, std::size_t d, float* out, ThreadPool& pool, unsigned parts);

// The dense one-hot X for up to `capacity_rows` ids at a time (capacity_rows x V floats), zeroed
// once when made. Each fill clears the ones the previous fill set and sets the new ones, so the
// buffer always holds exactly one_hot(ids[first, first + rows)) followed by zero rows, and
// rebuilding it costs `rows` writes instead of rows x V: what a program that keeps its X pays.
class OneHotBuffer {
public:
    OneHotBuffer(std::size_t capacity_rows, std::size_t V);
    const float* fill(const BenchIds& ids, std::size_t first, std::size_t rows);
    const float* data() const { return m_values.data(); }

private:
    std::size_t m_vocab;
    std::vector<float> m_values;
    std::vector<std::uint64_t> m_ones;  // the column holding the 1 of each row filled last
};

// out rows [first, first + rows) = X @ E with the reference loop: every term, zeros included.
void naive_matmul(const float* X, std::size_t rows, const float* E, std::size_t V, std::size_t d, float* out);

// E filled fast with pseudo-random floats in [-1, 1) (xorshift64*, not torch's draw: the timings
// do not depend on the values, and a normal draw of a 2 GiB table would dominate the run); no
// value is 0, so no sign of zero can make the one-hot product differ from the lookup.
void fill_table(float* E, std::size_t values, std::uint64_t seed);

// n ids uniform in [0, V) from std::mt19937_64 (multiply-shift, no std distribution).
BenchIds random_ids(std::size_t n, std::uint64_t V, std::uint64_t seed);

}  // namespace embdemo
