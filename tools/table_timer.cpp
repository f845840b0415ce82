// Times embdemo making one nn.Embedding table in-process, as PyTorch's manual_seed + nn.Embedding
// is timed in tools/measure_table_threads.py (which compiles this file against build/'s core
// library and runs it): allocation, zeroing and the normal draws of torch_embedding_weight, with
// the thread count the program itself would choose (EMBDEMO_THREADS / OMP_NUM_THREADS decide).
// Prints the seconds and a position-sensitive checksum of the table's bits, so the script can
// hold every run against PyTorch's table. Not part of embdemo: a measuring tool only.
//
//   table_timer VOCAB DIM SEED   ->   "<seconds> <checksum>"
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "core/torch/init.hpp"

int main(int argc, char** argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: table_timer VOCAB DIM SEED\n");
        return 2;
    }
    const std::size_t vocab = std::strtoull(argv[1], nullptr, 10);
    const std::size_t dim = std::strtoull(argv[2], nullptr, 10);
    const std::uint64_t seed = std::strtoull(argv[3], nullptr, 10);
    const auto start = std::chrono::steady_clock::now();
    const embdemo::Matrix table = embdemo::torch_embedding_weight(vocab, dim, seed);
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    // sum of bits[i] * (2i + 1) modulo 2^64: numpy computes the same on torch's table.
    std::uint64_t checksum = 0;
    for (std::size_t i = 0; i < table.values.size(); ++i) {
        std::uint32_t bits;
        std::memcpy(&bits, &table.values[i], sizeof bits);
        checksum += bits * (2 * static_cast<std::uint64_t>(i) + 1);
    }
    std::printf("%.6f %llu\n", elapsed.count(), static_cast<unsigned long long>(checksum));
    return 0;
}
