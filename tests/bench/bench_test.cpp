// embdemo-bench's kernels, checks, plan and command line on tiny sizes. Correctness only: no
// test here looks at a timing.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "bench/bench.hpp"
#include "bench/kernels.hpp"
#include "bench/options.hpp"
#include "bench/render.hpp"

using namespace embdemo;

namespace {

BenchConfig tiny(std::uint64_t n, std::uint64_t V, std::uint64_t d) {
    BenchConfig config;
    config.ids = n;
    config.vocab_size = V;
    config.dim = d;
    config.threads = 2;
    config.repeats = 1;
    return config;
}

BenchCommandLine parse(std::vector<const char*> args) {
    args.insert(args.begin(), "embdemo-bench");
    return parse_bench_command_line(static_cast<int>(args.size()), args.data(), 2);
}

void silent(const std::string&) {}

}  // namespace

TEST_CASE("every bench path gives the lookup's bits on small sizes") {
    for (const BenchConfig& config : {tiny(5, 7, 3), tiny(64, 300, 17), tiny(1, 1, 1)}) {
        CAPTURE(config.vocab_size);
        const BenchResult result = run_bench(config, std::nullopt, silent);
        REQUIRE(result.paths.size() == 9);
        for (const PathResult& path : result.paths) {
            CAPTURE(path.name);
            CHECK(path.ran);
            CHECK(path.runs == 1);
            if (path.name == "lookup") continue;
            CHECK(path.checked);
            CHECK(path.identical);
            CHECK(path.max_abs_diff == 0.0);
        }
        CHECK(bench_all_identical(result));
    }
}

TEST_CASE("the dense one-hot product is built in chunks of the capped buffer, and still checked") {
    BenchConfig config = tiny(50, 100, 8);
    config.onehot_chunk_bytes = 7 * 100 * 4;  // 7 rows of X at a time: 8 chunks, the last one short
    const BenchResult result = run_bench(config, std::nullopt, silent);
    CHECK(result.plan.chunk_rows == 7);
    CHECK(result.path("onehot_sgemm").identical);
    CHECK(result.path("naive").identical);
    CHECK(result.path("xtensor_onehot").identical);  // written where sgemm_alone's X was checked
    CHECK_FALSE(result.path("sgemm_alone").checked);  // X holds only the last chunk's ones
}

TEST_CASE("xtensor's one-hot product is skipped with a note above its size, and the rest still run") {
    BenchConfig config = tiny(8192, 2048, 4);  // 2^26 multiply-adds: over xtensor's cap, under the naive loop's
    config.onehot_chunk_bytes = std::uint64_t{1} << 20;
    const BenchResult result = run_bench(config, std::nullopt, silent);
    const PathResult& skipped = result.path("xtensor_onehot");
    CHECK_FALSE(skipped.ran);
    CHECK_FALSE(skipped.checked);
    CHECK(skipped.note.find("skipped: n*V*d = 6.71e+07 multiply-adds") != std::string::npos);
    CHECK(result.path("naive").identical);
    CHECK(result.path("xtensor_view").identical);
}

TEST_CASE("a differing path is caught: the check compares bits, not just values") {
    std::vector<float> reference{1.0f, 0.0f};
    std::vector<float> ids_out(2);
    ThreadPool pool(2);
    const BenchIds ids{1, 0};
    const std::vector<float> E{0.0f, -0.0f};  // rows: +0, -0
    lookup_rows(E.data(), 1, ids, ids_out.data(), pool, 2);
    CHECK(std::signbit(ids_out[0]));
    CHECK_FALSE(std::signbit(ids_out[1]));
    // The CSR product with beta = 0 keeps -0 * 1 = -0; summing from +0 would give +0.
    const CsrMatrix X = csr_onehot(ids);
    std::vector<float> sparse(2);
    csr_matmul(X, E.data(), 1, sparse.data(), pool, 1);
    CHECK(std::memcmp(sparse.data(), ids_out.data(), sizeof(float) * 2) == 0);
}

TEST_CASE("the CSR product adds every stored value, and the naive loop every term") {
    // Row 0: 2 * E[1] + 1 * E[2]; row 1: nothing stored.
    CsrMatrix X;
    X.values = {2.0f, 1.0f};
    X.columns = {1, 2};
    X.row_start = {0, 2, 2};
    const std::vector<float> E{1, 2, 3, 4, 5, 6};  // 3 x 2
    std::vector<float> out(4, 9.0f);
    ThreadPool pool(1);
    csr_matmul(X, E.data(), 2, out.data(), pool, 1);
    CHECK(out == std::vector<float>{11, 14, 0, 0});
    const std::vector<float> dense{0, 2, 1, 0, 0, 0};
    std::vector<float> naive(4, 9.0f);
    naive_matmul(dense.data(), 2, E.data(), 3, 2, naive.data());
    CHECK(naive == out);
}

TEST_CASE("the thread pool runs every piece once, whichever thread claims it") {
    ThreadPool pool(2);
    const unsigned pieces = 2 * ThreadPool::k_pieces_per_thread;
    std::vector<std::atomic<int>> hits(pieces);
    std::atomic<int> wrong_counts{0};  // doctest's checks are for the test's own thread
    for (int round = 0; round < 1000; ++round) {
        pool.run(2, [&](unsigned piece, unsigned count) {
            wrong_counts += count != pieces || piece >= pieces;
            if (piece < pieces) hits[piece].fetch_add(1);
        });
    }
    CHECK(wrong_counts.load() == 0);
    for (const std::atomic<int>& hit : hits) CHECK(hit.load() == 1000);
    int alone = 0;
    pool.run(1, [&](unsigned piece, unsigned count) { alone += piece == 0 && count == 1; });
    CHECK(alone == 1);
    CHECK(parts_for(100, pool) == 1);
    CHECK(parts_for(std::size_t{64} << 20, pool) == 2);
}

TEST_CASE("the table has no zero and the ids are in range") {
    std::vector<float> E(100000);
    fill_table(E.data(), E.size(), 123);
    for (const float value : E) {
        REQUIRE(value != 0.0f);
        REQUIRE(value >= -1.0f);
        REQUIRE(value < 1.0f);
    }
    for (const std::uint64_t id : random_ids(1000, 3, 5)) REQUIRE(id < 3);
}

TEST_CASE("the plan skips the naive loop above its size and lists what it allocates") {
    const BenchPlan small = plan_bench(tiny(2, 3, 4));
    CHECK(small.naive);
    CHECK(small.xtensor_onehot);
    CHECK(small.chunk_rows == 2);
    CHECK(estimate_peak_bytes(small.buffers) > 0);
    BenchConfig gpt2 = tiny(1024, 50257, 768);
    const BenchPlan big = plan_bench(gpt2);
    CHECK_FALSE(big.naive);
    CHECK_FALSE(big.xtensor_onehot);
    CHECK(plan_bench(tiny(8, 4096, 1024)).xtensor_onehot);  // 2^25 multiply-adds: the last size it runs
    CHECK_FALSE(plan_bench(tiny(9, 4096, 1024)).xtensor_onehot);
    CHECK(big.chunk_rows == (std::uint64_t{1} << 27) / (50257 * 4));
    // E 154,389,504 + 5 results of 3,145,728 + X 667 x 50,257 x 4 + ids and CSR (1,024 + 2,561) x 8.
    CHECK(estimate_peak_bytes(big.buffers) - k_process_base_bytes ==
          154389504ull + 5 * 3145728ull + 667ull * 50257 * 4 + 1024 * 8 + 20488);
    const auto refused = check_memory_budget(plan_bench(tiny(8192, 128256, 4096)).buffers, std::uint64_t{1} << 30);
    REQUIRE(refused);
    CHECK(refused->find("the run would need about 2.7 GiB") != std::string::npos);
}

TEST_CASE("embdemo-bench's command line") {
    const BenchCommandLine model = parse({"--model", "gpt2-xl", "--tokens", "8", "--threads", "1"});
    REQUIRE(model.run);
    CHECK(model.config.dim == 1600);
    CHECK(model.config.ids == 8);
    CHECK(model.config.threads == 1);
    const BenchCommandLine sizes = parse({"--tokens", "3", "--vocab", "5", "--dim", "2", "--format", "json"});
    REQUIRE(sizes.run);
    CHECK(sizes.json);
    CHECK(sizes.config.threads == 2);  // all cores by default
    struct Bad {
        std::vector<const char*> args;
        const char* message;
    };
    const Bad cases[] = {
        {{}, "embdemo bench needs sizes"},
        {{"--model", "gpt3"}, "--model \"gpt3\": is not a known model"},
        {{"--model", "gpt2", "--vocab", "3"}, "--model gpt2 already sets --vocab and --dim"},
        {{"--model", "gpt2", "--threads", "0"}, "--threads \"0\": is less than 1"},
        {{"--model", "gpt2", "--repeats", "1001"}, "--repeats \"1001\""},
        {{"--model", "gpt2", "--format", "csv"}, "--format \"csv\": is not a format of embdemo bench"},
        {{"--model", "gpt2", "--max-memory", "12Q"}, "--max-memory \"12Q\""},
        {{"--model", "gpt2", "--ids", "1"}, "--ids"},
    };
    for (const Bad& bad : cases) {
        CAPTURE(bad.message);
        const BenchCommandLine result = parse(bad.args);
        CHECK_FALSE(result.run);
        CHECK(result.exit_code == 2);
        CHECK(result.error.find(bad.message) != std::string::npos);
    }
}

TEST_CASE("the bench text fits 80 columns and prints its checks") {
    const BenchResult result = run_bench(tiny(5, 7, 3), std::string("Haswell"), silent);
    std::string text = render_bench_text(result);
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t end = text.find('\n', start);
        CHECK(end - start <= 80);
        start = end + 1;
    }
    std::replace(text.begin(), text.end(), '\n', ' ');  // sentences are wrapped
    CHECK(text.find("OPENBLAS_CORETYPE=Haswell") != std::string::npos);
    CHECK(text.find("Checked against the lookup, bit for bit: memcpy, onehot_csr, xtensor_view, onehot_sgemm, "
                    "sgemm_alone, onehot_dense, naive, xtensor_onehot identical.") != std::string::npos);
    CHECK(text.find("embdemo's dense kernel (" + result.dense_isa +
                    " tile, 1 thread; every multiply-add in order of k, the lookup's bits) runs at ") !=
          std::string::npos);
    CHECK(text.find("xtensor's view gather (one thread) takes") != std::string::npos);
    const std::string json = render_bench_json(result);
    CHECK(json.find("\"schema\": \"embdemo-bench/1\"") != std::string::npos);
    CHECK(json.find("\"identical\": true") != std::string::npos);
    CHECK(json.find("\"xtensor_view_over_lookup\": ") != std::string::npos);
    CHECK(json.find("\"dense_kernel_over_sgemm_rate\": ") != std::string::npos);
    CHECK(json.find("\"dense_kernel_isa\": \"" + result.dense_isa + "\"") != std::string::npos);
}

TEST_CASE("the bench says when memcpy's bytes are too few for a copy rate") {
    // 60 bytes: the lookup's and memcpy's times are a call and two clock reads; 4 KiB read as
    // 74 GB/s and a gather as 852% of memcpy's rate.
    const BenchResult small = run_bench(tiny(5, 7, 3), std::nullopt, silent);
    std::string text = render_bench_text(small);
    std::replace(text.begin(), text.end(), '\n', ' ');
    CHECK(text.find("memcpy's rate on the same 60 bytes") != std::string::npos);
    CHECK(text.find("At 60 bytes a copy takes only ") != std::string::npos);
    CHECK(text.find("B is no copy rate of this machine") != std::string::npos);
    CHECK(render_bench_json(small).find("\"copy_rate_is_overhead\": true") != std::string::npos);
    // 1 MiB: a rate.
    const BenchResult large = run_bench(tiny(256, 8, 1024), std::nullopt, silent);
    text = render_bench_text(large);
    std::replace(text.begin(), text.end(), '\n', ' ');
    CHECK(text.find("memcpy's rate on the same 1.0 MiB") != std::string::npos);
    CHECK(text.find("B is no copy rate") == std::string::npos);
    const std::string json = render_bench_json(large);
    CHECK(json.find("\"copied_bytes\": 1048576") != std::string::npos);
    CHECK(json.find("\"copy_rate_is_overhead\": false") != std::string::npos);
}

TEST_CASE("the bench's dense kernel uses a second thread only when the product pays for it") {
    BenchConfig config = tiny(5, 7, 3);
    CHECK(run_bench(config, std::nullopt, silent).path("onehot_dense").threads == 1);
    config = tiny(600, 300, 200);  // 36 million multiply-adds: two threads' worth
    const BenchResult result = run_bench(config, std::nullopt, silent);
    CHECK(result.path("onehot_dense").threads == 2);
    CHECK(result.path("onehot_dense").identical);
    CHECK((result.dense_isa == "avx" || result.dense_isa == "sse2" || result.dense_isa == "scalar"));
}

TEST_CASE("the reused one-hot buffer holds exactly one_hot of the rows filled last, zeros after them") {
    const std::size_t V = 5, capacity = 3;
    const BenchIds ids{4, 0, 4, 2, 1};
    OneHotBuffer X(capacity, V);
    const auto expect = [&](std::size_t first, std::size_t rows) {
        std::vector<float> want(capacity * V, 0.0f);
        for (std::size_t i = 0; i < rows; ++i) want[i * V + ids[first + i]] = 1.0f;
        return want;
    };
    for (const auto& [first, rows] : {std::pair<std::size_t, std::size_t>{0, 3}, {3, 2}, {1, 3}, {4, 1}, {0, 3}}) {
        const float* x = X.fill(ids, first, rows);
        CHECK(std::vector<float>(x, x + capacity * V) == expect(first, rows));
    }
}

TEST_CASE("threads_allowed leaves room in the address-space and task limits") {
    ThreadLimits none;
    CHECK(threads_allowed(none, 1u << 20) == 256);
    ThreadLimits space;
    space.address_space = std::uint64_t{4096} << 20;
    space.mapped_bytes = std::uint64_t{200} << 20;
    space.stack_bytes = std::uint64_t{8} << 20;
    // 4096 MiB less 200 mapped, 96 planned and the first thread's OpenBLAS buffer; a thread
    // beyond the first takes two stacks and a buffer.
    const std::uint64_t buffer = k_openblas_buffer_bytes;
    const std::uint64_t room = (std::uint64_t{4096 - 200 - 96} << 20) - buffer;
    CHECK(threads_allowed(space, std::uint64_t{96} << 20) == 1 + room / ((std::uint64_t{16} << 20) + buffer));
    space.mapped_bytes = space.address_space;  // nothing left: still the one thread
    CHECK(threads_allowed(space, 0) == 1);
    ThreadLimits tasks;
    tasks.tasks = 20;
    tasks.user_tasks = 4;
    CHECK(threads_allowed(tasks, 0) == 9);  // each thread beyond the first starts two
}
