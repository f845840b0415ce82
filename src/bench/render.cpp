#include "bench/render.hpp"

#include <fmt/format.h>

#include "core/limits.hpp"
#include "render/kit/json_text.hpp"
#include "render/kit/lesson_report.hpp"
#include "render/kit/table.hpp"

namespace embdemo {
namespace {

double rate(double amount, const PathResult& path) { return path.ran ? amount / path.median_seconds / 1e9 : 0; }

const char* path_label(const std::string& name) {
    if (name == "lookup") return "lookup (row copy)";
    if (name == "memcpy") return "memcpy, same bytes";
    if (name == "onehot_csr") return "CSR one-hot @ E";
    if (name == "onehot_sgemm") return "one-hot @ E, sgemm";
    if (name == "sgemm_alone") return "sgemm alone";
    if (name == "onehot_dense") return "one-hot @ E, kernel";
    if (name == "xtensor_view") return "xt::view gather";
    if (name == "xtensor_onehot") return "xt::sum(one-hot*E)";
    return "naive loop";
}

std::string check_cell(const PathResult& path) {
    if (path.name == "lookup") return "reference";
    if (!path.checked) return "-";
    return path.identical ? "identical" : "differs";
}

std::string header(const BenchResult& result) {
    const BenchConfig& c = result.config;
    const std::string model = c.model ? fmt::format("{} (--model {}), ", c.model->label, c.model->name) : "";
    const char* source = c.token_source == TokenSource::context ? " (its context length)" : "";
    const std::string core = result.coretype_env ? "OPENBLAS_CORETYPE=" + *result.coretype_env
                                                 : std::string("OPENBLAS_CORETYPE not set");
    std::string out = wrap_words(
        fmt::format("embdemo bench: {}n = {} tokens{}, V = {}, d = {}; {} thread{}; OpenBLAS core {} ({}).", model,
                    group_thousands(c.ids), source, group_thousands(c.vocab_size), group_thousands(c.dim), c.threads,
                    c.threads == 1 ? "" : "s", result.blas_core, core),
        "", "");
    out += wrap_words(fmt::format("E: {} of xorshift floats in [-1, 1), not torch's draw; ids uniform in [0, V) "
                                  "from mt19937_64 seed {}. Medians of timed runs after one warm-up run; paths of similar cost "
                                  "take turns, so that other work on the machine slows them alike.",
                                  describe_bytes(c.vocab_size * c.dim * k_value_bytes), c.seed),
                      "", "");
    return out;
}

std::string table(const BenchResult& result) {
    std::string out = fmt::format("\n{:<20}{:>10}{:>6}{:>8}{:>10}{:>10}  {}\n", "path", "median", "runs", "threads",
                                  "GB/s", "GFLOP/s", "check");
    for (const PathResult& p : result.paths) {
        if (!p.ran) {
            out += wrap_words(p.note, fmt::format("{:<20}", path_label(p.name)), std::string(20, ' '));
            continue;
        }
        out += fmt::format("{:<20}{:>10}{:>6}{:>8}{:>10.2f}{:>10}  {}\n", path_label(p.name),
                           describe_seconds(p.median_seconds), p.runs, p.threads, rate(p.bytes, p),
                           p.flops > 0 ? fmt::format("{:.2f}", rate(p.flops, p)) : "-", check_cell(p));
    }
    return out;
}

std::string times(double ratio) {
    return ratio >= 100 ? group_thousands(static_cast<std::uint64_t>(ratio + 0.5)) + 'x' : fmt::format("{:.2f}x", ratio);
}

std::string checks(const BenchResult& result) {
    std::string same, differ;
    for (const PathResult& p : result.paths) {
        if (!p.checked) continue;
        if (p.identical) {
            same += (same.empty() ? "" : ", ") + p.name;
        } else {
            differ += fmt::format(" {} differs: max abs diff {:.3g}{}.", p.name, p.max_abs_diff,
                                  p.name == "onehot_sgemm" || p.name == "sgemm_alone"
                                      ? " (a BLAS may order its sums as it likes)" : "");
        }
    }
    return wrap_words(fmt::format("Checked against the lookup, bit for bit: {}{}.{}", same.empty() ? "none" : same,
                                  same.empty() ? "" : " identical", differ),
                      "", "");
}

}  // namespace

std::string describe_seconds(double seconds) {
    if (seconds >= 1) return fmt::format("{:.3g} s", seconds);
    if (seconds >= 1e-3) return fmt::format("{:.3g} ms", seconds * 1e3);
    if (seconds >= 1e-6) return fmt::format("{:.3g} us", seconds * 1e6);
    return fmt::format("{:.3g} ns", seconds * 1e9);
}

BenchRatios bench_ratios(const BenchResult& result) {
    const PathResult& lookup = result.path("lookup");
    const PathResult& copy = result.path("memcpy");
    const PathResult& csr = result.path("onehot_csr");
    const PathResult& dense = result.path("onehot_sgemm");
    const PathResult& alone = result.path("sgemm_alone");
    BenchRatios r;
    r.onehot_over_lookup = dense.median_seconds / lookup.median_seconds;
    const double gather = rate(copy.bytes, copy);
    const double gemm = rate(alone.flops, alone);
    r.predicted = static_cast<double>(result.config.vocab_size) * gather / (4.0 * gemm);
    r.lookup_over_memcpy = copy.median_seconds / lookup.median_seconds;
    r.csr_over_lookup = csr.median_seconds / lookup.median_seconds;
    r.onehot_over_sgemm = alone.median_seconds / dense.median_seconds;
    r.dense_kernel_over_sgemm = alone.median_seconds / result.path("onehot_dense").median_seconds;
    r.xtensor_view_over_lookup = result.path("xtensor_view").median_seconds / lookup.median_seconds;
    r.copied_bytes = copy.bytes / 2;  // read and written
    r.copy_rate_is_overhead = r.copied_bytes < k_least_copy_rate_bytes;
    return r;
}

bool bench_all_identical(const BenchResult& result) {
    for (const PathResult& p : result.paths) {
        if (p.checked && !p.identical) return false;
    }
    return true;
}

std::string render_bench_text(const BenchResult& result) {
    const BenchRatios r = bench_ratios(result);
    std::string out = header(result) + table(result) + '\n';
    out += wrap_words(
        fmt::format("The dense one-hot product took {} the lookup's time; the machine's own rates predict {} "
                    "(V*B/(4*F) with B = {:.2f} GB/s, memcpy's rate on the same {}, and F = {:.2f} GFLOP/s, sgemm's "
                    "rate on this shape).",
                    times(r.onehot_over_lookup), times(r.predicted), rate(result.path("memcpy").bytes, result.path("memcpy")),
                    describe_bytes(static_cast<std::uint64_t>(r.copied_bytes)),
                    rate(result.path("sgemm_alone").flops, result.path("sgemm_alone"))),
        "", "");
    if (r.copy_rate_is_overhead) {
        out += wrap_words(
            fmt::format("At {} a copy takes only {} (the lookup) and {} (memcpy), in which a call and two reads of "
                        "the clock weigh: B is no copy rate of this machine, nor is the lookup's share of it below ({} "
                        "or more copied, e.g. --tokens 1024 --dim 256, measure one).",
                        describe_bytes(static_cast<std::uint64_t>(r.copied_bytes)),
                        describe_seconds(result.path("lookup").median_seconds),
                        describe_seconds(result.path("memcpy").median_seconds),
                        describe_bytes(static_cast<std::uint64_t>(k_least_copy_rate_bytes))),
            "", "");
    }
    out += wrap_words(fmt::format("The lookup copies at {:.0f}% of memcpy's rate; the CSR one-hot product takes "
                                  "{} the lookup's time; the dense path, X rebuilt in its reused buffer included, "
                                  "runs at {:.0f}% of sgemm alone's rate.",
                                  100 * r.lookup_over_memcpy, times(r.csr_over_lookup), 100 * r.onehot_over_sgemm),
                      "", "");
    const PathResult& kernel = result.path("onehot_dense");
    out += wrap_words(fmt::format("embdemo's dense kernel ({} tile, {} thread{}; every multiply-add in order of k, "
                                  "{}) runs at {:.0f}% of sgemm alone's rate ({} thread{}).",
                                  result.dense_isa, kernel.threads, kernel.threads == 1 ? "" : "s",
                                  kernel.identical ? "the lookup's bits" : "not the lookup's bits",
                                  100 * r.dense_kernel_over_sgemm, result.config.threads,
                                  result.config.threads == 1 ? "" : "s"),
                      "", "");
    out += wrap_words(fmt::format("xtensor's view gather (one thread) takes {} the time of the lookup ({} thread{}).",
                                  times(r.xtensor_view_over_lookup), result.path("lookup").threads,
                                  result.path("lookup").threads == 1 ? "" : "s"),
                      "", "");
    return out + checks(result);
}

std::string render_bench_json(const BenchResult& result) {
    const BenchConfig& c = result.config;
    std::vector<std::string> paths;
    for (const PathResult& p : result.paths) {
        paths.push_back(fmt::format(
            "{{\"name\": \"{}\", \"ran\": {}, \"note\": {}, \"median_seconds\": {}, \"runs\": {}, \"threads\": {}, "
            "\"bytes\": {}, \"flops\": {}, \"gb_per_s\": {}, \"gflop_per_s\": {}, \"checked\": {}, \"identical\": {}, "
            "\"max_abs_diff\": {}}}",
            p.name, p.ran, p.note.empty() ? "null" : json_string(p.note), p.median_seconds, p.runs, p.threads, p.bytes,
            p.flops, rate(p.bytes, p), rate(p.flops, p), p.checked, p.identical, p.max_abs_diff));
    }
    const BenchRatios r = bench_ratios(result);
    LessonReport report;
    report.head = {
        {"schema", json_string(k_bench_json_schema)},
        {"model", c.model ? json_string(c.model->name) : "null"},
        {"tokens", std::to_string(c.ids)},
        {"tokens_source", json_string(token_source_name(c.token_source))},
        {"vocab", std::to_string(c.vocab_size)},
        {"dim", std::to_string(c.dim)},
        {"threads", std::to_string(c.threads)},
        {"seed", std::to_string(c.seed)},
        {"table_fill", json_string("xorshift64* floats in [-1, 1)")},
        {"blas_core", json_string(result.blas_core)},
        {"blas_config", json_string(result.blas_config)},
        {"openblas_coretype", result.coretype_env ? json_string(*result.coretype_env) : "null"},
        {"onehot_chunk_rows", std::to_string(result.plan.chunk_rows)},
        {"dense_kernel_isa", json_string(result.dense_isa)},
    };
    report.checks = {
        {"paths", "[\n    " + fmt::format("{}", fmt::join(paths, ",\n    ")) + "\n  ]"},
        {"onehot_over_lookup", fmt::format("{}", r.onehot_over_lookup)},
        {"predicted_onehot_over_lookup", fmt::format("{}", r.predicted)},
        {"lookup_over_memcpy_rate", fmt::format("{}", r.lookup_over_memcpy)},
        {"copied_bytes", fmt::format("{}", r.copied_bytes)},
        {"copy_rate_is_overhead", r.copy_rate_is_overhead ? "true" : "false"},
        {"csr_over_lookup", fmt::format("{}", r.csr_over_lookup)},
        {"onehot_over_sgemm_rate", fmt::format("{}", r.onehot_over_sgemm)},
        {"dense_kernel_over_sgemm_rate", fmt::format("{}", r.dense_kernel_over_sgemm)},
        {"xtensor_view_over_lookup", fmt::format("{}", r.xtensor_view_over_lookup)},
        {"identical", bench_all_identical(result) ? "true" : "false"},
    };
    return render_lesson_json(report, {});
}

}  // namespace embdemo
