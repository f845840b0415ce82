#include <doctest/doctest.h>

#include <limits>
#include <string>

#include "core/torch/init.hpp"
#include "core/file_formats/weight_file.hpp"
#include "core/memory.hpp"
#include "core/lessons/report.hpp"
#include "core/lessons/report_matrices.hpp"

using namespace embdemo;

TEST_CASE("estimate_peak_bytes is the process base plus the sum of the buffers") {
    CHECK(estimate_peak_bytes({}) == k_process_base_bytes);
    CHECK(estimate_peak_bytes({{"a", 10, 4}, {"b", 3, 20}}) == k_process_base_bytes + 100);
    CHECK(estimate_peak_bytes({{"huge", UINT64_MAX, 4}, {"more", 1, 1}}) == UINT64_MAX);
}

TEST_CASE("demo_buffers lists every matrix the report holds, at its size") {
    DemoRequest request;
    request.ids = {2, 3, 1, 3};
    request.vocab_size = 7;
    request.dim = 5;
    request.origin.kind = WeightOrigin::Kind::file;  // so that the report looks for inf and nan
    const std::uint64_t table_bytes = 7 * 5 * 4;
    for (const bool special_values : {false, true}) {
        CAPTURE(special_values);
        Matrix table = index_pattern_weight(7, 5);
        if (special_values) table.at(4, 2) = std::numeric_limits<float>::infinity();
        const DemoReport report = build_demo_report(request, table);
        WeightOrigin origin;
        origin.special_values = special_values;
        const auto buffers = demo_buffers(4, 7, 5, origin);
        std::uint64_t listed = 0;
        for (const Buffer& buffer : buffers) listed += buffer.elements * buffer.element_bytes;
        std::uint64_t held = 0;
        for (const ReportMatrix which : k_report_matrices) held += report_matrix(report, which).values.size() * 4;
        // The report's five matrices and the products' work space (the dense kernel's panels, or
        // the BLAS's), plus, for a table with inf or nan, nn.Linear's weight W = E.T made for it.
        const std::uint64_t work_space = buffers.back().elements * buffers.back().element_bytes;
        CHECK(listed == held + work_space + (special_values ? table_bytes : 0));
    }
}

TEST_CASE("a file's table counts what reading it takes beyond the run's other buffers") {
    // The readers' vector doubles: at its last move it holds 2^k values twice.
    CHECK(values_read_peak(0) == 0);
    CHECK(values_read_peak(1) == 1);
    CHECK(values_read_peak(3) == 4);
    CHECK(values_read_peak(4) == 4);
    CHECK(values_read_peak(5) == 8);
    CHECK(values_read_peak(3000 * 768) == 2 * 2097152);
    const auto total = [](const std::vector<Buffer>& buffers) {
        std::uint64_t bytes = 0;
        for (const Buffer& buffer : buffers) bytes += buffer.elements * buffer.element_bytes;
        return bytes;
    };
    WeightOrigin file;
    file.kind = WeightOrigin::Kind::file;
    const auto drawn = demo_buffers(1, 3000, 768);
    const auto read = demo_buffers(1, 3000, 768, file);
    CHECK(total(read) == 2 * 2097152 * 4);  // reading is the peak: the rest is smaller
    CHECK(read[1].name == "E while the file is read");
    CHECK(read.size() == drawn.size() + 1);
    file.special_values = true;  // W = E.T and the BLAS outweigh the reading's room
    const auto special = demo_buffers(1, 3000, 768, file);
    CHECK(total(special) > 2 * 2097152 * 4);
    for (const Buffer& buffer : special) CHECK(buffer.name != "E while the file is read");
}

TEST_CASE("check_memory_budget names the estimate, the largest buffers and the way out") {
    // A table with inf or nan: nn.Linear's W = E.T is made for the BLAS.
    WeightOrigin special;
    special.special_values = true;
    const auto buffers = demo_buffers(3, 4, 16777216, special);
    CHECK_FALSE(check_memory_budget(buffers, std::uint64_t{2} << 30));
    const auto problem = check_memory_budget(buffers, std::uint64_t{512} << 20);
    REQUIRE(problem);
    CHECK(*problem ==
          "the run would need about 1.1 GiB of memory (largest: E (vocab x dim) 256.0 MiB, nn.Linear's "
          "weight W = E.T (dim x vocab) 256.0 MiB, the lookup E[ids] (ids x dim) 192.0 MiB); the budget is "
          "512.0 MiB (allowed: --max-memory SIZE to raise it, e.g. --max-memory 4G, or fewer ids or a "
          "smaller vocab or dim)");
    // Any other table: W is read in place as E.
    const auto drawn = check_memory_budget(demo_buffers(3, 4, 16777216), std::uint64_t{512} << 20);
    REQUIRE(drawn);
    CHECK(drawn->find("about 836.0 MiB") != std::string::npos);
    CHECK(drawn->find("W = E.T") == std::string::npos);
}

TEST_CASE("parse_memory_size reads binary units and refuses the rest") {
    CHECK(parse_memory_size("4G").value() == std::uint64_t{4} << 30);
    CHECK(parse_memory_size("512M").value() == std::uint64_t{512} << 20);
    CHECK(parse_memory_size("512mib").value() == std::uint64_t{512} << 20);
    CHECK(parse_memory_size("2048K").value() == std::uint64_t{2} << 20);
    CHECK(parse_memory_size("1T").value() == std::uint64_t{1} << 40);
    CHECK(parse_memory_size("1048576").value() == std::uint64_t{1} << 20);
    struct Bad {
        const char* text;
        const char* problem;
    };
    for (const Bad bad : {Bad{"", "is not a size"}, Bad{"G", "is not a size"}, Bad{"4X", "is not a size"},
                          Bad{"-1G", "is not a size"}, Bad{"1.5G", "is not a size"}, Bad{"4 G", "is not a size"},
                          Bad{"1K", "is less than 1 MiB"}, Bad{"16777216T", "is more than 2^64 bytes"},
                          Bad{"99999999999999999999", "is more than 2^64 bytes"},
                          // A leading zero is refused as for every integer option, not taken for 2^64.
                          Bad{"010", "has a leading zero (refused because other tools read it as octal)"},
                          Bad{"00", "has a leading zero (refused because other tools read it as octal)"},
                          Bad{"01M", "has a leading zero (refused because other tools read it as octal)"}}) {
        CAPTURE(bad.text);
        const auto parsed = parse_memory_size(bad.text);
        REQUIRE_FALSE(parsed);
        CHECK(parsed.error() == bad.problem);
    }
}
