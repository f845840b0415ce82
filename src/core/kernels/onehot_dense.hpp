// The dense one-hot product one_hot(ids, V) @ E at the machine's speed, with the bits of the
// in-order reference (`matmul` in embedding.hpp) for every input: -0.0, inf, NaN payloads and
// subnormals included. It does every one of the n*V*d multiply-adds, the zeros too, because that
// is what the dense form costs; it never stores the n x V matrix X, only small one-hot panels.
// How it stays exact while running like a GEMM: docs/performance.md, "The dense one-hot kernel".
//
// Shape legend: n = number of ids, V = vocabulary size (rows of E), d = embedding dimension.
// E is V x d, out is n x d, both row-major float32. Ids are validated by the caller (every
// id < V); an id >= V is not read out of bounds, its row simply receives no 1.
#pragma once

#include <cstddef>
#include <cstdint>

namespace embdemo {

// out[i][j] = sum over k = 0 .. V-1 of X[i][k] * E[k][j], X = one_hot(ids, V): one float
// accumulator per output from +0.0, each product rounded, then added in order of k, exactly
// as `matmul(one_hot(ids, V), E)` computes it. `threads` is the most threads to use (0 counts as
// 1); the rows are split between them, which changes no bit. Returns the threads it used.
unsigned onehot_dense_product(const std::uint64_t* ids, std::size_t n, const float* E, std::size_t V,
                              std::size_t d, float* out, unsigned threads);

// Up to this many ids, a row-major E is read in place instead of packed (onehot_dense.cpp).
inline constexpr std::size_t k_stream_rows = 12;

// The floats of packed panels each thread of the product holds for n ids and d columns (its
// memory beyond E and out), at most about 410,000 (1.6 MiB); for at most k_stream_rows ids one
// strip of 16 columns.
std::size_t onehot_dense_panel_floats(std::size_t n, std::size_t d);

// How many of `threads` onehot_dense_product uses for this shape: one per k_dense_terms_per_thread
// multiply-adds, at most one per row, at least one.
unsigned onehot_dense_threads(std::size_t n, std::size_t V, std::size_t d, unsigned threads);
inline constexpr double k_dense_terms_per_thread = 16.0 * 1024 * 1024;

// The instruction sets the kernel has a tile for. `best` is the widest this CPU runs (chosen
// once, with core/cpu_features); the others exist so that tests can compare them.
enum class DenseIsa { best, avx, sse2, scalar };
bool dense_isa_available(DenseIsa isa);
// "avx", "sse2" or "scalar": what `isa` (best: the one chosen) runs on this CPU.
const char* dense_isa_name(DenseIsa isa);

// onehot_dense_product with a given instruction set (one that dense_isa_available says runs),
// on exactly min(threads, n) threads (at least 1) whatever the shape, so that tests can split
// small products. Returns the threads it used.
unsigned onehot_dense_product_with(DenseIsa isa, const std::uint64_t* ids, std::size_t n, const float* E,
                                   std::size_t V, std::size_t d, float* out, unsigned threads);

}  // namespace embdemo
