// Each lesson's plan (render/views/NAME/view.hpp: *_report_values, *_script_values; grad's beside
// grad_report and render_grad_python), which
// its checks hold to the printed-numbers cap before anything is drawn, against what the lesson
// then prints: the values of its report's tables (json, csv and tsv print every one), and the
// float32 bit patterns its PyTorch script embeds. On random sizes, modes and encodings, so that a
// table or an embedded tensor added to a view without its plan is caught here.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <regex>
#include <string>
#include <vector>

#include "core/gpt2/data_loader.hpp"
#include "core/lessons/bag_lesson.hpp"
#include "core/lessons/grad_lesson.hpp"
#include "render/views/grad/report.hpp"
#include "render/views/python_script.hpp"
#include "render/views/bag/view.hpp"
#include "render/sheet/sheet_writers.hpp"
#include "render/views/factor/view.hpp"
#include "render/views/positions/view.hpp"
#include "render/views/tied/view.hpp"
#include "render/views/grad/view.hpp"

namespace embdemo {
namespace {

// Sizes only: these draws choose cases, never numbers of a table.
struct Cases {
    std::mt19937_64 rng{20261126};
    std::uint64_t between(std::uint64_t low, std::uint64_t high) {
        return std::uniform_int_distribution<std::uint64_t>(low, high)(rng);
    }
    bool chance(int percent) { return between(1, 100) <= static_cast<std::uint64_t>(percent); }
    template <typename Request>
    void sizes(Request& request) {
        request.vocab_size = between(1, 40);
        request.dim = between(1, 9);
        request.seed = between(0, 1000);
    }
    IdBatch ids(std::uint64_t vocab) {
        IdBatch batch;
        batch.batch = between(1, 3);
        batch.seq = between(1, 6);
        batch.batched = batch.batch > 1 || chance(30);
        for (std::size_t i = 0; i < batch.batch * batch.seq; ++i) batch.values.push_back(between(0, vocab - 1));
        return batch;
    }
};

std::uint64_t report_values(const LessonReport& report) {
    std::uint64_t values = 0;
    for (const LessonTable& table : report.tables) {
        if (!table.in_json) continue;
        std::uint64_t count = 1;
        for (const std::size_t extent : table.shape) count *= extent;
        values += count;
    }
    return values;
}

// The float32 values a script embeds: from_bits([0x3f800000, ...]) lists, one bit pattern each.
std::uint64_t script_values(const std::string& script) {
    static const std::regex bits("\\b0x[0-9a-f]{8}\\b");
    return static_cast<std::uint64_t>(std::distance(std::sregex_iterator(script.begin(), script.end(), bits),
                                                    std::sregex_iterator()));
}

constexpr int k_cases = 60;

}  // namespace

TEST_CASE("factor's plan counts what its report and script print") {
    Cases cases;
    for (int i = 0; i < k_cases; ++i) {
        FactorRequest request;
        cases.sizes(request);
        request.dim = cases.between(2, 9);
        request.rank = cases.between(1, request.dim - 1);
        request.ids = cases.ids(request.vocab_size);
        const FactorLesson lesson = run_factor_lesson(request);
        CAPTURE(i);
        const LessonSheet sheet = factor_sheet(lesson);
        CHECK(report_values(sheet_report(sheet)) == report_values(factor_tables(request, nullptr)));
        CHECK(script_values(render_sheet_python(sheet)) == script_values(factor_tables(request, nullptr)));
    }
}

TEST_CASE("positions' plan counts what its report and script print, for every encoding and the loader") {
    Cases cases;
    for (int i = 0; i < k_cases; ++i) {
        PositionsRequest request;
        cases.sizes(request);
        request.encoding = k_position_encodings[static_cast<std::size_t>(i) % std::size(k_position_encodings)].encoding;
        if (traits_of(request.encoding).turns_rows) request.dim = 2 * cases.between(1, 4);
        request.heads = cases.between(1, 9);
        request.encoding_given = cases.chance(50);
        if (cases.chance(30)) {
            IdBatch tokens = cases.ids(request.vocab_size);
            while (tokens.values.size() < 12) tokens.values.push_back(cases.between(0, request.vocab_size - 1));
            tokens.batch = 1;
            tokens.seq = tokens.values.size();
            tokens.batched = false;
            request.ids = first_loader_batch(tokens, {2, 2, 3}).value().inputs;
        } else {
            request.ids = cases.ids(request.vocab_size);
        }
        request.context = request.ids.seq + cases.between(0, 4);
        const PositionsLesson lesson = run_positions_lesson(request);
        const LessonSheet sheet = positions_sheet(lesson);
        CAPTURE(i);
        CAPTURE(std::string(encoding_name(request.encoding)));
        CHECK(report_values(sheet_report(sheet)) == report_values(positions_tables(request, nullptr)));
        CHECK(script_values(render_sheet_python(sheet)) == script_values(positions_tables(request, nullptr)));
    }
}

TEST_CASE("tied's plan counts what its report and script print") {
    Cases cases;
    for (int i = 0; i < k_cases; ++i) {
        TiedRequest request;
        cases.sizes(request);
        request.ids = cases.ids(request.vocab_size);
        request.top = cases.between(1, request.vocab_size);
        const TiedLesson lesson = run_tied_lesson(request, {});
        CAPTURE(i);
        const LessonSheet sheet = tied_sheet(lesson, "");
        CHECK(report_values(sheet_report(sheet)) == report_values(tied_tables(request, nullptr)));
        CHECK(script_values(render_sheet_python(sheet)) == script_values(tied_tables(request, nullptr)));
    }
}

TEST_CASE("bag's plan counts what its report prints, and bounds what its script embeds") {
    Cases cases;
    const BagMode modes[] = {BagMode::sum, BagMode::mean, BagMode::max};
    for (int i = 0; i < k_cases; ++i) {
        BagRequest request;
        cases.sizes(request);
        request.mode = modes[cases.between(0, 2)];
        const std::uint64_t bags = cases.between(1, 5);
        request.bags.offsets.push_back(0);
        for (std::uint64_t b = 0; b < bags; ++b) {
            const std::uint64_t size = cases.between(0, 4);
            for (std::uint64_t k = 0; k < size; ++k) request.bags.ids.push_back(cases.between(0, request.vocab_size - 1));
            request.bags.offsets.push_back(request.bags.ids.size());
        }
        if (request.mode == BagMode::sum && cases.chance(50)) {
            for (std::size_t k = 0; k < request.bags.ids.size(); ++k) {
                request.per_sample_weights.push_back(static_cast<float>(cases.between(1, 8)) / 4.0f);
            }
        }
        const BagLesson lesson = run_bag_lesson(request);
        CAPTURE(i);
        const LessonSheet sheet = bag_sheet(lesson);
        CHECK(report_values(sheet_report(sheet)) == report_values(bag_tables(request, nullptr)));
        // M's columns in the script are the distinct ids, which the plan bounds by min(ids, V).
        CHECK(script_values(render_sheet_python(sheet)) <= script_values(bag_tables(request, nullptr)));
    }
}

TEST_CASE("grad's plan counts what its report prints, and bounds what its script embeds") {
    Cases cases;
    for (int i = 0; i < k_cases; ++i) {
        GradRequest request;
        cases.sizes(request);
        request.ids = cases.ids(request.vocab_size);
        request.sparse = cases.chance(40);
        if (!request.sparse && cases.chance(40)) request.scale_grad_by_freq = true;
        if (cases.chance(30)) request.max_norm = MaxNorm{0.5, 2.0};
        if (cases.chance(30)) request.padding_idx = static_cast<std::int64_t>(cases.between(0, request.vocab_size - 1));
        const GradLesson lesson = run_grad_lesson(request, {}, {});
        CAPTURE(i);
        // The sparse values are counted at one row per id, their most: the coalesced ones hold
        // one a distinct id.
        const std::uint64_t printed = report_values(grad_report(lesson));
        if (request.sparse) {
            CHECK(printed <= grad_report_values(request));
        } else {
            CHECK(printed == grad_report_values(request));
        }
        CHECK(script_values(render_grad_python(lesson, "")) <= grad_script_values(request));
    }
}

}  // namespace embdemo
