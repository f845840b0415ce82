#include "bench/bench.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>

#include <cblas.h>
#include <fmt/format.h>

#include "bench/kernels.hpp"

namespace embdemo {

BenchPlan plan_bench(const BenchConfig& c) {
    BenchPlan plan;
    const std::uint64_t row_bytes = c.vocab_size * k_value_bytes;
    plan.chunk_rows = std::min<std::uint64_t>(c.ids, std::max<std::uint64_t>(1, c.onehot_chunk_bytes / row_bytes));
    plan.naive = c.ids * c.vocab_size * c.dim <= k_naive_max_terms;
    const std::uint64_t nd = c.ids * c.dim;
    plan.buffers = {
        {"E (vocab x dim)", c.vocab_size * c.dim, k_value_bytes},
        {"the n x d results, one per path", (plan.naive ? 6 : 5) * nd, k_value_bytes},
        {"the dense one-hot buffer (rows x vocab)", plan.chunk_rows * c.vocab_size, k_value_bytes},
        {"the ids and the CSR one-hot", c.ids * k_index_bytes + csr_onehot_bytes(c.ids), 1},
    };
    return plan;
}

const PathResult& BenchResult::path(const std::string& name) const {
    for (const PathResult& p : paths) {
        if (p.name == name) return p;
    }
    return paths.front();
}

namespace {

using Clock = std::chrono::steady_clock;

struct Timer {
    std::size_t repeats;
    const std::function<void(const std::string&)>& progress;

    // A warm-up run, then the median of the timed ones.
    void time(PathResult& result, const char* label, const std::function<void()>& run) const {
        const auto start = Clock::now();
        run();
        const double first = std::chrono::duration<double>(Clock::now() - start).count();
        const std::size_t runs =
            repeats ? repeats : static_cast<std::size_t>(std::clamp(0.5 / std::max(first, 1e-9), 3.0, 1000.0));
        if (first * static_cast<double>(runs) > 1.0) {
            progress(fmt::format("timing {}: {} runs of about {:.2f} s", label, runs, first));
        }
        std::vector<double> seconds(runs);
        for (double& s : seconds) {
            const auto t0 = Clock::now();
            run();
            s = std::chrono::duration<double>(Clock::now() - t0).count();
        }
        std::nth_element(seconds.begin(), seconds.begin() + static_cast<std::ptrdiff_t>(runs / 2), seconds.end());
        result.median_seconds = seconds[runs / 2];
        result.runs = runs;
        result.ran = true;
    }
};

PathResult named(const char* name) {
    PathResult result;
    result.name = name;
    return result;
}

void check_against(PathResult& result, const std::vector<float>& reference, const std::vector<float>& out) {
    result.checked = true;
    result.identical = std::memcmp(reference.data(), out.data(), out.size() * sizeof(float)) == 0;
    double worst = 0;
    for (std::size_t i = 0; i < out.size(); ++i) {
        worst = std::max(worst, std::fabs(static_cast<double>(out[i]) - static_cast<double>(reference[i])));
    }
    result.max_abs_diff = worst;
}

// X @ E chunk by chunk through cblas_sgemm; `build` false reuses X as it stands (the BLAS alone).
void sgemm_chunks(const std::vector<std::int64_t>& ids, const float* E, std::size_t V, std::size_t d,
                  std::size_t chunk_rows, float* X, float* out, bool build, ThreadPool& pool) {
    for (std::size_t first = 0; first < ids.size(); first += chunk_rows) {
        const std::size_t rows = std::min(chunk_rows, ids.size() - first);
        if (build) {
            pool.run(parts_for(rows * V * sizeof(float), pool), [&](unsigned part, unsigned parts) {
                const std::size_t begin = rows * part / parts, end = rows * (part + 1) / parts;
                fill_onehot_rows(ids, first + begin, end - begin, V, X + begin * V);
            });
        }
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(rows), static_cast<int>(d),
                    static_cast<int>(V), 1.0f, X, static_cast<int>(V), E, static_cast<int>(d), 0.0f, out + first * d,
                    static_cast<int>(d));
    }
}

}  // namespace

BenchResult run_bench(const BenchConfig& config, const std::optional<std::string>& coretype_env,
                      const std::function<void(const std::string&)>& progress) {
    BenchResult result;
    result.config = config;
    result.plan = plan_bench(config);
    result.coretype_env = coretype_env;
    openblas_set_num_threads(static_cast<int>(config.threads));
    result.blas_core = openblas_get_corename();
    result.blas_config = openblas_get_config();

    const std::size_t n = config.ids, V = config.vocab_size, d = config.dim;
    const double out_bytes = static_cast<double>(n * d * k_value_bytes);
    const double flops = 2.0 * static_cast<double>(n) * static_cast<double>(V) * static_cast<double>(d);
    std::vector<float> E(V * d);
    fill_table(E.data(), E.size(), config.seed);
    const std::vector<std::int64_t> ids = random_ids(n, V, config.seed);
    ThreadPool pool(config.threads);
    const Timer timer{config.repeats, progress};
    const unsigned parts = parts_for(n * d * k_value_bytes, pool);

    PathResult lookup = named("lookup");
    std::vector<float> reference(n * d);
    lookup.threads = parts;
    lookup.bytes = 2 * out_bytes;
    timer.time(lookup, "the lookup", [&] { lookup_rows(E.data(), d, ids, reference.data(), pool, parts); });

    PathResult copy = named("memcpy");
    std::vector<float> copied(n * d);
    copy.threads = parts;
    copy.bytes = 2 * out_bytes;
    timer.time(copy, "memcpy", [&] { copy_bytes(reference.data(), copied.data(), n * d * sizeof(float), pool, parts); });
    check_against(copy, reference, copied);

    PathResult csr = named("onehot_csr");
    const CsrMatrix X_csr = csr_onehot(ids);
    std::vector<float> sparse_out(n * d);
    csr.threads = parts;
    csr.bytes = 2 * out_bytes + static_cast<double>(csr_onehot_bytes(n));
    csr.flops = 2.0 * static_cast<double>(n * d);
    timer.time(csr, "the CSR one-hot product", [&] { csr_matmul(X_csr, E.data(), d, sparse_out.data(), pool, parts); });
    check_against(csr, reference, sparse_out);

    const std::size_t chunk = result.plan.chunk_rows;
    std::vector<float> X(chunk * V);
    std::vector<float> dense_out(n * d);
    PathResult dense = named("onehot_sgemm");
    dense.threads = config.threads;
    dense.bytes = 2.0 * static_cast<double>(n * V * k_value_bytes) + static_cast<double>(V * d * k_value_bytes) + out_bytes;
    dense.flops = flops;
    timer.time(dense, "the dense one-hot product (cblas_sgemm)",
               [&] { sgemm_chunks(ids, E.data(), V, d, chunk, X.data(), dense_out.data(), true, pool); });
    check_against(dense, reference, dense_out);

    PathResult alone = named("sgemm_alone");
    alone.threads = config.threads;
    alone.bytes = dense.bytes - static_cast<double>(n * V * k_value_bytes);
    alone.flops = flops;
    alone.note = "the same sgemm calls on X as it stands, without building it: the BLAS's own rate";
    std::vector<float> scratch(n * d);
    timer.time(alone, "cblas_sgemm alone", [&] { sgemm_chunks(ids, E.data(), V, d, chunk, X.data(), scratch.data(), false, pool); });
    if (chunk >= n) check_against(alone, reference, scratch);  // X holds every one: the whole result

    PathResult naive = named("naive");
    naive.threads = 1;
    naive.flops = flops;
    naive.bytes = dense.bytes;
    if (result.plan.naive) {
        std::vector<float> naive_out(n * d);
        timer.time(naive, "the naive loop", [&] {
            for (std::size_t first = 0; first < n; first += chunk) {
                const std::size_t rows = std::min(chunk, n - first);
                fill_onehot_rows(ids, first, rows, V, X.data());
                naive_matmul(X.data(), rows, E.data(), V, d, naive_out.data() + first * d);
            }
        });
        check_against(naive, reference, naive_out);
    } else {
        naive.note = fmt::format("skipped: n*V*d = {:.3g} multiply-adds, over the {:.3g} it does in about a second",
                                 static_cast<double>(n) * V * d, static_cast<double>(k_naive_max_terms));
    }
    result.paths = {lookup, copy, csr, dense, alone, naive};
    return result;
}

}  // namespace embdemo
