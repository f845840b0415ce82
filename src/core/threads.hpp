// The threads a kernel may use: how many a product's work is worth, and running its parts on
// them. A room of its own, so that what only needs a thread count (torch's normal draws of a
// large table, the faulting in of a buffer) does not include the product kernels.
#pragma once

#include <cstdint>
#include <functional>

namespace embdemo {

// The threads a product of n x V x d multiply-adds is worth on this machine: all cores (at most
// two blocks' worth of work each) once it takes more than a few milliseconds, else one.
// EMBDEMO_THREADS or OMP_NUM_THREADS, when set to a positive number, decide instead.
unsigned product_threads(std::uint64_t ids, std::uint64_t vocab_size, std::uint64_t dim);

// part(0) .. part(parts - 1), each on a thread of its own (part 0 on this one) while threads can be
// started, the rest on this thread; returns when all are done. For work whose result does not
// depend on which thread does which part.
void run_parts(unsigned parts, const std::function<void(unsigned)>& part);

}  // namespace embdemo
