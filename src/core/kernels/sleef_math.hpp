// expf and logf as PyTorch's CPU kernels compute them on a CPU with AVX2: its Vectorized<float>
// exp() and log() are SLEEF's Sleef_expf8_u10 and Sleef_logf8_u10 (1-ulp bounds, fused
// multiply-adds), which differ from glibc's correctly rounded expf in about one value in ten.
// These are SLEEF's algorithms (xexpf, xlogf_u1 and its double-float helpers) one lane at a
// time with std::fma, so the bits are SLEEF's on every machine; held to torch.exp's and
// torch.log's bits on 6,510 values (tests/data/train/sleef_vectors.tsv). Pure.
#pragma once

#include <cstddef>

namespace embdemo {

float sleef_expf(float d);
float sleef_logf(float d);

// values[i] = sleef_expf(values[i]) for a whole row: with the CPU's FMA instructions where it has
// them (the same bits: a fused multiply-add rounds once whoever computes it).
void sleef_expf_all(float* values, std::size_t count);

}  // namespace embdemo
