// embdemo-bench's result as text (80 columns) or JSON (schema embdemo-bench/1, docs/schema.md),
// with the ratios the issue asks for: measured against predicted from the machine's own rates.
#pragma once

#include <string>

#include "bench/bench.hpp"

namespace embdemo {

inline constexpr const char* k_bench_json_schema = "embdemo-bench/1";

struct BenchRatios {
    double onehot_over_lookup = 0;   // time of the dense one-hot path / time of the lookup
    double predicted = 0;            // V*B/(4*F): B memcpy's GB/s, F sgemm alone's GFLOP/s
    double lookup_over_memcpy = 0;   // rate of the lookup / rate of memcpy (same bytes)
    double csr_over_lookup = 0;      // time of the CSR product / time of the lookup
    double onehot_over_sgemm = 0;    // rate of the dense path / rate of sgemm alone
    double dense_kernel_over_sgemm = 0;  // rate of embdemo's dense kernel / rate of sgemm alone
    double xtensor_view_over_lookup = 0;  // time of xtensor's view gather / time of the lookup
    double copied_bytes = 0;              // n x d x 4, what the lookup and memcpy copy
    bool copy_rate_is_overhead = false;   // too few bytes for memcpy's GB/s to be a copy rate
};

// Below this many copied bytes a memcpy takes less than about 10 us, of which the ~100 ns of a
// call and two clock reads are a large share: its GB/s is no copy rate (4 KiB "copied" at
// 74 GB/s, in cache; a gather read as 852% of memcpy's rate), and the text says so.
inline constexpr double k_least_copy_rate_bytes = 1 << 20;

BenchRatios bench_ratios(const BenchResult& result);

// True when every path that ran and was compared gave the lookup's bits.
bool bench_all_identical(const BenchResult& result);

std::string render_bench_text(const BenchResult& result);
std::string render_bench_json(const BenchResult& result);

// "80.1 us", "2.17 ms", "1.35 s": a duration with 3 significant digits.
std::string describe_seconds(double seconds);

}  // namespace embdemo
