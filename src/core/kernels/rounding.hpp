// How far apart two float32 results are allowed to be, and are: the distance in units in the last
// place, and the classic bound on a dot product's rounding error. The table lessons use them to
// compare sums that PyTorch adds in an order it does not promise (BLAS) or that two forms add in
// different orders (a bag's in-order sum and its multi-hot product).
#pragma once

#include <cstddef>
#include <cstdint>

namespace embdemo {

// The number of float32 values strictly between a and b, plus one (0 when the bits are equal,
// +0 and -0 are 1 apart). Both must be finite.
std::uint64_t ulp_distance(float a, float b);

// |computed - exact| <= gamma_m * sum_k |a_k * b_k| holds for a float32 dot product of m terms
// summed in any order, with or without fused multiply-adds (Higham, Accuracy and Stability of
// Numerical Algorithms, 2nd ed., eq. 3.5), where gamma_m = m*u / (1 - m*u) and u = 2^-24.
// Two such results differ by at most twice that: this returns 2 * gamma_m * abs_sum.
double dot_tolerance(std::size_t m, double abs_sum);

}  // namespace embdemo
