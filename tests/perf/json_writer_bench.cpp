// The JSON table writer, timed: render/kit/lesson_report's append_json_table (which walks the table
// by its shape through an xt::adapt over the matrix's buffer) against the stride arithmetic it
// replaced, kept here as the baseline. Both spell each value with the same code, so the times
// differ only by how the tensor is walked. Not a test of speed: `--check` only compares their
// bytes on small tables (ctest runs that); without it, it times a GPT-2 table (50,257 x 768) and
// a B x T x d batch (8 x 1,024 x 768), old and new in turns, and prints the medians.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/matrix.hpp"
#include "render/kit/json_text.hpp"
#include "render/kit/lesson_report.hpp"

using namespace embdemo;

namespace {

// The writer as it was before xtensor, word for word but for its name.
std::string baseline_cell(const LessonTable& table, std::size_t index) {
    const float value = table.matrix->values[index];
    const std::size_t cols = table.matrix->cols;
    return table.integral_column(cols ? index % cols : 0) ? fmt::format("{}", static_cast<long long>(value))
                                                           : json_number(value);
}

void baseline_nested(std::string& out, const LessonTable& table, std::size_t axis, std::size_t offset,
                     std::size_t indent) {
    const auto& shape = table.shape;
    if (axis + 1 == shape.size()) {
        out += '[';
        for (std::size_t j = 0; j < shape[axis]; ++j) out += (j ? ", " : "") + baseline_cell(table, offset + j);
        out += ']';
        return;
    }
    std::size_t stride = 1;
    for (std::size_t a = axis + 1; a < shape.size(); ++a) stride *= shape[a];
    out += '[';
    for (std::size_t i = 0; i < shape[axis]; ++i) {
        out += (i ? ",\n" : "\n") + std::string(indent + 2, ' ');
        baseline_nested(out, table, axis + 1, offset + i * stride, indent + 2);
    }
    out += shape[axis] ? '\n' + std::string(indent, ' ') + ']' : "]";
}

// Values like a trained table's: small, of every exponent near 0.02, none integral.
Matrix filled(std::size_t rows, std::size_t cols, std::uint64_t seed) {
    Matrix m(rows, cols);
    std::uint64_t state = seed * 0x9E3779B97F4A7C15ull + 1;
    for (float& value : m.values) {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        const auto bits = static_cast<std::int64_t>((state * 0x2545F4914F6CDD1Dull) >> 40) - (1 << 23);
        value = static_cast<float>(bits) / 8388608.0f * 0.06f;
    }
    return m;
}

bool same_bytes(const LessonTable& table) {
    std::string old_text, new_text;
    baseline_nested(old_text, table, 0, 0, 2);
    append_json_table(new_text, table);
    return old_text == new_text;
}

int check() {
    int failures = 0;
    const Matrix m = filled(24, 5, 1);
    Matrix counts(6, 4);
    for (std::size_t i = 0; i < counts.values.size(); ++i) counts.values[i] = static_cast<float>(i);
    const Matrix empty(0, 3);
    std::vector<LessonTable> tables{
        {"rows", "", &m, {24, 5}},      {"batch", "", &m, {2, 12, 5}}, {"deep", "", &m, {2, 3, 4, 5}},
        {"line", "", &m, {120}},        {"counts", "", &counts, {6, 4}, true}, {"empty", "", &empty, {0, 3}},
        {"empty_batch", "", &empty, {0, 4, 3}},
    };
    LessonTable mixed("mixed", "", &counts, {2, 3, 4});
    mixed.integral_columns = {0, 2};
    tables.push_back(mixed);
    for (const LessonTable& table : tables) {
        if (!same_bytes(table)) {
            std::printf("FAIL: %s is written differently\n", table.name.c_str());
            ++failures;
        }
    }
    return failures == 0 ? 0 : 1;
}

double median(std::vector<double> seconds) {
    std::nth_element(seconds.begin(), seconds.begin() + static_cast<std::ptrdiff_t>(seconds.size() / 2), seconds.end());
    return seconds[seconds.size() / 2];
}

// Old and new in turns (a busy moment on a shared machine slows both alike), `runs` each.
void time_both(const char* label, const LessonTable& table, int runs) {
    using Clock = std::chrono::steady_clock;
    std::string out;
    std::vector<double> old_seconds, new_seconds;
    std::size_t bytes = 0;
    for (int run = 0; run <= runs; ++run) {  // run 0 warms up
        for (const bool baseline : {true, false}) {
            out.clear();
            const auto start = Clock::now();
            if (baseline) {
                baseline_nested(out, table, 0, 0, 2);
            } else {
                append_json_table(out, table);
            }
            const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
            bytes = out.size();
            if (run > 0) (baseline ? old_seconds : new_seconds).push_back(seconds);
        }
    }
    const double old_median = median(old_seconds), new_median = median(new_seconds);
    fmt::print("{:<28} {:>6.1f} MB  stride loops {:.3f} s  xt::adapt walk {:.3f} s  new/old {:.3f}\n", label,
               static_cast<double>(bytes) / 1e6, old_median, new_median, new_median / old_median);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc > 1 && std::strcmp(argv[1], "--check") == 0) return check();
    const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
    const Matrix gpt2 = filled(50257, 768, 2);
    time_both("GPT-2 wte, 50,257 x 768", LessonTable("weight", "E", &gpt2, {50257, 768}), runs);
    const Matrix batch = filled(8 * 1024, 768, 3);
    time_both("batch, 8 x 1,024 x 768", LessonTable("lookup", "E[ids]", &batch, {8, 1024, 768}), runs);
    return 0;
}
