#include "bench/bench.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>

#include <cblas.h>
#include <fmt/format.h>

#include "bench/kernels.hpp"
#include "bench/xtensor_paths.hpp"
#include "core/kernels/onehot_dense.hpp"
#include "core/kernels/rows.hpp"

namespace embdemo {

BenchPlan plan_bench(const BenchConfig& c) {
    BenchPlan plan;
    const std::uint64_t row_bytes = c.vocab_size * k_value_bytes;
    plan.chunk_rows = std::min<std::uint64_t>(c.ids, std::max<std::uint64_t>(1, c.onehot_chunk_bytes / row_bytes));
    plan.naive = c.ids * c.vocab_size * c.dim <= k_naive_max_terms;
    plan.xtensor_onehot = c.ids * c.vocab_size * c.dim <= k_xtensor_onehot_max_terms;
    const std::uint64_t nd = c.ids * c.dim;
    plan.buffers = {
        {"E (vocab x dim)", c.vocab_size * c.dim, k_value_bytes},
        {"the n x d results, one per path", (plan.naive ? 6 : 5) * nd, k_value_bytes},
        {"the dense one-hot buffer (rows x vocab)", plan.chunk_rows * c.vocab_size, k_value_bytes},
        {"the ids and the CSR one-hot", c.ids * k_index_bytes + csr_onehot_bytes(c.ids), 1},
    };
    return plan;
}

std::uint64_t address_space_per_thread(std::uint64_t stack_bytes) { return 2 * stack_bytes + k_openblas_buffer_bytes; }

unsigned threads_allowed(const ThreadLimits& limits, std::uint64_t planned_bytes) {
    std::uint64_t allowed = 256;  // bench's own cap on --threads
    if (limits.address_space != 0) {
        const std::uint64_t used = limits.mapped_bytes + planned_bytes + k_openblas_buffer_bytes;
        const std::uint64_t room = limits.address_space > used ? limits.address_space - used : 0;
        allowed = std::min(allowed, 1 + room / address_space_per_thread(limits.stack_bytes));
    }
    if (limits.tasks != 0) {
        const std::uint64_t room = limits.tasks > limits.user_tasks ? limits.tasks - limits.user_tasks : 0;
        allowed = std::min(allowed, 1 + room / 2);
    }
    return static_cast<unsigned>(allowed);
}

const PathResult& BenchResult::path(const std::string& name) const {
    for (const PathResult& p : paths) {
        if (p.name == name) return p;
    }
    return paths.front();
}

namespace {

using Clock = std::chrono::steady_clock;

struct TimedPath {
    PathResult& result;
    const char* label;
    std::function<void()> run;
};

double seconds_of(const std::function<void()>& run) {
    const auto start = Clock::now();
    run();
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// A warm-up run of each path, then their timed runs in turns (a, b, c, a, b, c, ...) and the
// median of each: on a machine shared with other work, a busy second slows every path of the
// group alike instead of one, so their ratios stay meaningful. Each path gets `repeats` runs,
// or as many as fill about half a second (3 to 1,000).
void time_in_turns(std::vector<TimedPath> paths, std::size_t repeats,
                   const std::function<void(const std::string&)>& progress) {
    std::vector<std::vector<double>> seconds(paths.size());
    std::size_t most = 0;
    for (std::size_t p = 0; p < paths.size(); ++p) {
        const double first = seconds_of(paths[p].run);
        const std::size_t runs =
            repeats ? repeats : static_cast<std::size_t>(std::clamp(0.5 / std::max(first, 1e-9), 3.0, 1000.0));
        if (first * static_cast<double>(runs) > 1.0) {
            progress(fmt::format("timing {}: {} runs of about {:.2f} s", paths[p].label, runs, first));
        }
        seconds[p].reserve(runs);
        paths[p].result.runs = runs;
        most = std::max(most, runs);
    }
    for (std::size_t turn = 0; turn < most; ++turn) {
        for (std::size_t p = 0; p < paths.size(); ++p) {
            if (turn < paths[p].result.runs) seconds[p].push_back(seconds_of(paths[p].run));
        }
    }
    for (std::size_t p = 0; p < paths.size(); ++p) {
        std::vector<double>& s = seconds[p];
        std::nth_element(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(s.size() / 2), s.end());
        paths[p].result.median_seconds = s[s.size() / 2];
        paths[p].result.ran = true;
    }
}

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
void sgemm_chunks(const BenchIds& ids, const float* E, std::size_t V, std::size_t d, std::size_t chunk_rows,
                  OneHotBuffer& X, float* out, bool build) {
    for (std::size_t first = 0; first < ids.size(); first += chunk_rows) {
        const std::size_t rows = std::min(chunk_rows, ids.size() - first);
        const float* x = build ? X.fill(ids, first, rows) : X.data();
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(rows), static_cast<int>(d),
                    static_cast<int>(V), 1.0f, x, static_cast<int>(V), E, static_cast<int>(d), 0.0f, out + first * d,
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
    // The pool first: when a thread cannot start, it throws before OpenBLAS starts its own.
    ThreadPool pool(config.threads);
    openblas_set_num_threads(static_cast<int>(config.threads));
    result.blas_core = openblas_get_corename();
    result.blas_config = openblas_get_config();

    const std::size_t n = config.ids, V = config.vocab_size, d = config.dim;
    const double out_bytes = static_cast<double>(n * d * k_value_bytes);
    const double flops = 2.0 * static_cast<double>(n) * static_cast<double>(V) * static_cast<double>(d);
    std::vector<float> E = zeroed_floats(V * d);  // allocated as embdemo allocates its tables
    fill_table(E.data(), E.size(), config.seed);
    const BenchIds ids = random_ids(n, V, config.seed);
    const unsigned parts = parts_for(n * d * k_value_bytes, pool);

    // The memory-bound paths, timed in turns.
    PathResult lookup = named("lookup");
    std::vector<float> reference(n * d);
    lookup.threads = parts;
    lookup.bytes = 2 * out_bytes;
    lookup_rows(E.data(), d, ids, reference.data(), pool, parts);
    PathResult copy = named("memcpy");
    std::vector<float> copied(n * d);
    copy.threads = parts;
    copy.bytes = 2 * out_bytes;
    PathResult csr = named("onehot_csr");
    const CsrMatrix X_csr = csr_onehot(ids);
    std::vector<float> sparse_out(n * d);
    csr.threads = parts;
    csr.bytes = 2 * out_bytes + static_cast<double>(csr_onehot_bytes(n));
    csr.flops = 2.0 * static_cast<double>(n * d);
    // xtensor's gather writes into `scratch`, which sgemm_alone reuses once it is checked: the
    // plan's buffers stay one per path that must outlive its group.
    PathResult xt_view = named("xtensor_view");
    std::vector<float> scratch(n * d);
    xt_view.threads = 1;
    xt_view.bytes = 2 * out_bytes;
    xt_view.note = "xt::view(E, xt::keep(ids), xt::all()) assigned into an xt::adapt of the output; one thread";
    time_in_turns({{lookup, "the lookup", [&] { lookup_rows(E.data(), d, ids, reference.data(), pool, parts); }},
                   {copy, "memcpy", [&] { copy_bytes(reference.data(), copied.data(), n * d * sizeof(float), pool, parts); }},
                   {csr, "the CSR one-hot product", [&] { csr_matmul(X_csr, E.data(), d, sparse_out.data(), pool, parts); }},
                   {xt_view, "xtensor's view gather", [&] { xtensor_gather(E.data(), V, d, ids, scratch.data()); }}},
                  config.repeats, progress);
    check_against(copy, reference, copied);
    check_against(csr, reference, sparse_out);
    check_against(xt_view, reference, scratch);

    // The dense paths, timed in turns: the one-hot product with X rebuilt each call, the same
    // sgemm calls on X as it stands, and embdemo's own kernel, which never stores X.
    const std::size_t chunk = result.plan.chunk_rows;
    OneHotBuffer X(chunk, V);
    std::vector<float> dense_out(n * d);
    PathResult dense = named("onehot_sgemm");
    dense.threads = config.threads;
    // Both read X and E and write the result; rebuilding X writes 2 floats a row besides.
    dense.bytes = static_cast<double>(n * V * k_value_bytes) + static_cast<double>(V * d * k_value_bytes) + out_bytes +
                  2.0 * static_cast<double>(n * k_value_bytes);
    dense.flops = flops;
    PathResult alone = named("sgemm_alone");
    alone.threads = config.threads;
    alone.bytes = dense.bytes - 2.0 * static_cast<double>(n * k_value_bytes);
    alone.flops = flops;
    alone.note = "the same sgemm calls on X as it stands, without building it: the BLAS's own rate";
    PathResult kernel = named("onehot_dense");
    kernel.threads = onehot_dense_threads(n, V, d, config.threads);
    // It reads E, writes the result and reads the ids; its one-hot panels stay in cache.
    kernel.bytes = static_cast<double>(V * d * k_value_bytes) + out_bytes + static_cast<double>(n * k_index_bytes);
    kernel.flops = flops;
    result.dense_isa = dense_isa_name(DenseIsa::best);
    kernel.note = fmt::format("embdemo's kernel (core/kernels/onehot_dense), {} tile: every multiply-add, in order of k, "
                              "mul then add; X never stored",
                              result.dense_isa);
    // The kernel writes into `copied`, memcpy's result, which is checked already: the plan's
    // buffers stay one per path that must outlive its group.
    time_in_turns({{dense, "the dense one-hot product (cblas_sgemm)",
                    [&] { sgemm_chunks(ids, E.data(), V, d, chunk, X, dense_out.data(), true); }},
                   {alone, "cblas_sgemm alone", [&] { sgemm_chunks(ids, E.data(), V, d, chunk, X, scratch.data(), false); }},
                   {kernel, "embdemo's dense one-hot kernel",
                    [&] { onehot_dense_product(ids.data(), n, E.data(), V, d, copied.data(), config.threads); }}},
                  config.repeats, progress);
    check_against(dense, reference, dense_out);
    // The table has no zero, inf or NaN, so the in-order sum is the looked-up value: the lookup
    // is the in-order formula's result here, and every output is compared, not a sample.
    check_against(kernel, reference, copied);
    if (chunk >= n) check_against(alone, reference, scratch);  // X holds every one: the whole result

    // The loops that do every multiply-add, timed in turns where they run; xtensor's writes
    // into `scratch` again, sgemm_alone's check being done.
    PathResult naive = named("naive");
    naive.threads = 1;
    naive.flops = flops;
    naive.bytes = dense.bytes;
    PathResult xt_onehot = named("xtensor_onehot");
    xt_onehot.threads = 1;
    xt_onehot.flops = flops;
    xt_onehot.bytes = static_cast<double>(V * d * k_value_bytes) + out_bytes;  // X is never stored
    std::vector<float> naive_out(result.plan.naive ? n * d : 0);
    std::vector<TimedPath> every_term;
    if (result.plan.naive) {
        every_term.push_back({naive, "the naive loop", [&] {
                                  for (std::size_t first = 0; first < n; first += chunk) {
                                      const std::size_t rows = std::min(chunk, n - first);
                                      naive_matmul(X.fill(ids, first, rows), rows, E.data(), V, d, naive_out.data() + first * d);
                                  }
                              }});
    } else {
        naive.note = fmt::format("skipped: n*V*d = {:.3g} multiply-adds, over the {:.3g} it does in about a second",
                                 static_cast<double>(n) * V * d, static_cast<double>(k_naive_max_terms));
    }
    if (result.plan.xtensor_onehot) {
        xt_onehot.note = "xt::sum(one-hot [n, V, 1] * E [1, V, d], axis 1), lazy, without xtensor-blas; one thread";
        every_term.push_back({xt_onehot, "xtensor's one-hot product",
                              [&] { xtensor_onehot_product(E.data(), V, d, ids, scratch.data()); }});
    } else {
        xt_onehot.note = fmt::format("skipped: n*V*d = {:.3g} multiply-adds, over the {:.3g} its lazy sum does in "
                                     "about half a second",
                                     static_cast<double>(n) * V * d, static_cast<double>(k_xtensor_onehot_max_terms));
    }
    if (!every_term.empty()) time_in_turns(every_term, config.repeats, progress);
    if (result.plan.naive) check_against(naive, reference, naive_out);
    if (result.plan.xtensor_onehot) check_against(xt_onehot, reference, scratch);
    result.paths = {lookup, copy, csr, xt_view, dense, alone, kernel, naive, xt_onehot};
    return result;
}

}  // namespace embdemo
