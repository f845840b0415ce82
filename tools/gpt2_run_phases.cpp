// Where the GPT-2 run's time goes, phase by phase, in one process: the table (as `embdemo` makes
// it), the lookup, the one-hot product X @ E and F.linear with nn.Linear's W = E.T (read in place
// as E, this table holding no inf or nan), each through the functions build_demo_report calls, with the threads the program would choose. For
// docs/performance.md ("The whole GPT-2 run"); compile it against build/'s core library:
//
//   c++ -std=c++17 -O2 -Isrc tools/gpt2_run_phases.cpp build/libembdemo_core.a -lpthread -ldl \
//       -o build/gpt2_run_phases && build/gpt2_run_phases [REPEATS]
//
// Prints one line per repeat, milliseconds per phase. Not part of embdemo: a measuring tool only.
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "core/kernels/embedding.hpp"
#include "core/kernels/onehot_products.hpp"
#include "core/torch/init.hpp"

namespace {

template <typename Work>
double milliseconds(Work&& work) {
    const auto start = std::chrono::steady_clock::now();
    work();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
    const int repeats = argc > 1 ? std::atoi(argv[1]) : 1;
    const embdemo::TokenIds ids = {5, 40000, 50256};
    constexpr std::size_t vocab = 50257, dim = 768;
    std::printf("table  lookup  X@E  F.linear  (ms)\n");
    for (int r = 0; r < repeats; ++r) {
        embdemo::Matrix table, product, linear;
        const double t_table = milliseconds([&] { table = embdemo::torch_embedding_weight(vocab, dim, 123); });
        embdemo::OneHotProductSettings settings;
        settings.threads = embdemo::product_threads(ids.size(), vocab, dim);
        settings.finite_table = true;
        embdemo::Matrix rows;
        const double t_lookup = milliseconds([&] { rows = embdemo::lookup(table, ids); });
        const double t_mm = milliseconds([&] { product = embdemo::onehot_mm(ids, table, settings); });
        const double t_linear = milliseconds([&] { linear = embdemo::onehot_linear(ids, table, settings); });
        if (!(product == rows) || !(linear == rows)) {
            std::fprintf(stderr, "gpt2_run_phases: a product differs from the lookup\n");
            return 1;
        }
        std::printf("%.1f  %.3f  %.1f  %.1f\n", t_table, t_lookup, t_mm, t_linear);
    }
    return 0;
}
