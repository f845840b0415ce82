// The lookup and the one-hot product as xtensor spells them, for `embdemo bench` to time beside
// embdemo's own loops. Plain pointers and sizes here (shape legend: n ids, V vocabulary rows,
// d dimensions; E is V x d, every result n x d, row-major float32): xtensor's headers stay in
// xtensor_paths.cpp, so no other file of the bench pays their compile time.
#pragma once

#include <cstddef>
#include <cstdint>

#include "bench/kernels.hpp"

namespace embdemo {

// out = E[ids, :]: xt::view(xt::adapt(E), xt::keep(ids), xt::all()) assigned into an
// xt::adapt of out. One thread (xtensor assigns on the calling thread unless it is built with
// TBB or OpenMP, which Debian's package is not).
void xtensor_gather(const float* E, std::size_t V, std::size_t d, const BenchIds& ids, float* out);

// out = one_hot(ids) @ E as one lazy xtensor expression without xtensor-blas: the one-hot rows
// compared from the ids (1 where k == ids[i]), broadcast against E to n x V x d and summed over
// k in order, so every zero term is multiplied and added, as the naive loop does. One thread.
void xtensor_onehot_product(const float* E, std::size_t V, std::size_t d, const BenchIds& ids, float* out);

// The one-hot expression runs only up to this many multiply-adds (n*V*d): its lazy broadcast
// and reduction take 11 to 13 ns a term on the machine the project is built on (the naive loop
// takes 0.1 to 0.2 ns), so this is under half a second; above it, it is skipped with a note.
inline constexpr std::uint64_t k_xtensor_onehot_max_terms = std::uint64_t{1} << 25;

}  // namespace embdemo
