// The eight-lane AVX2 implementation of torch's vectorised normal kernel (§5.2 of
// ../shared/torch_rng.md), internal to the RNG: torch_rng.cpp decides at run time whether it may
// run and falls back to its per-lane reference otherwise. Both give the same bits.
#pragma once

#include <cstddef>

namespace embdemo::torch_rng_detail {

// True when this CPU and its operating system can run normal_blocks_avx2 (AVX2 and FMA present
// and the YMM registers enabled). Always false where the kernel is not compiled (not x86-64/GCC).
bool cpu_has_avx2_fma();

// §5.1 step 2 on `block_count` consecutive 16-element blocks: each holds float uniforms on entry
// and normals on exit. Call only when cpu_has_avx2_fma().
void normal_blocks_avx2(float* blocks, std::size_t block_count, float mean, float std_dev);

}  // namespace embdemo::torch_rng_detail
