#include <doctest/doctest.h>

#include <cmath>

#include "core/torch/init.hpp"
#include "core/lessons/report.hpp"
#include "render/kit/delimited.hpp"
#include "render/views/lookup_report.hpp"
#include "render/views/markdown.hpp"
#include "render/formats/projector.hpp"

using namespace embdemo;

namespace {

DemoReport tiny_report(Matrix weight, WeightOrigin origin = {}) {
    DemoRequest request;
    request.ids = {1, 0};
    request.vocab_size = weight.rows;
    request.dim = weight.cols;
    request.origin = std::move(origin);
    return build_demo_report(request, std::move(weight));
}

Matrix tiny_weight() {
    Matrix e(2, 2);
    e.values = {0.5f, -1.0f, 0.1f, INFINITY};
    return e;
}

}  // namespace

TEST_CASE("csv with --show is the bare matrix, non-finite values spelled out") {
    const DemoReport report = tiny_report(tiny_weight());
    CHECK(render_lesson_delimited(lookup_report(report, {ReportMatrix::weight}), ',', {"weight"}) == "0.5,-1\n0.1,inf\n");
    CHECK(render_lesson_delimited(lookup_report(report, {ReportMatrix::onehot}), '\t', {"onehot"}) == "0\t1\n1\t0\n");
    CHECK(render_lesson_delimited(lookup_report(report, {ReportMatrix::onehot_matmul}), ',', {"onehot_matmul"}) == "0.1,inf\n0.5,nan\n");
}

TEST_CASE("csv without --show names every matrix in a header line") {
    const std::string csv = render_lesson_delimited(lookup_report(tiny_report(tiny_weight())), ',', {});
    CHECK(csv.rfind("# weight (E) 2 x 2\n0.5,-1\n0.1,inf\n\n# onehot (X = one_hot(ids)) 2 x 2\n", 0) == 0);
    CHECK(csv.find("\n# linear_output (X @ W.T with W = E.T) 2 x 2\n") != std::string::npos);
}

TEST_CASE("markdown says why the results differ") {
    const std::string markdown = render_markdown(tiny_report(tiny_weight()), 4, {});
    CHECK(markdown.find("**Verdict: DIFFERENT** -- 1 of 4 values differs, max abs diff nan. Why: first at ids[1] = 0, column 1: E[1, 1] is inf, and 0 * inf = nan makes the sum "
                        "X[1] @ E nan (lookup -1, product nan).") != std::string::npos);
}

TEST_CASE("json names a weight file as an ASCII JSON string that keeps every byte") {
    WeightOrigin origin;
    origin.kind = WeightOrigin::Kind::file;
    // Not UTF-8: 0xff alone, 0xc3 cut short, an overlong "/" (0xc0 0xaf); each byte is kept
    // as U+DC00 + byte, Python's surrogateescape.
    origin.detail = "a\"b\\c\x01 \xc3\xa9 \xf0\x9f\x98\x80 \xff \xc3x \xc0\xaf.npy";
    const std::string json = render_lesson_json(lookup_report(tiny_report(tiny_weight(), origin)), {});
    CHECK(json.find("  \"seed\": null,\n  \"weight_source\": \"file\",\n") != std::string::npos);
    CHECK(json.find("  \"weight_file\": \"a\\\"b\\\\c\\u0001 \\u00e9 \\ud83d\\ude00 \\udcff \\udcc3x "
                    "\\udcc0\\udcaf.npy\",\n") != std::string::npos);
    CHECK(json.find("\"cause\": \"nonfinite_elsewhere\"") != std::string::npos);
}

TEST_CASE("the projector files hold E and one label per row") {
    CHECK(render_projector_vectors(tiny_weight(), 0, 2) == "0.5\t-1\n0.1\tinf\n");
    CHECK(render_projector_vectors(tiny_weight(), 1, 2) == "0.1\tinf\n");
    const std::vector<std::string> no_labels, labels{"the", "cat"};
    const ProjectorMetadata ids{no_labels, {}}, named{labels, {}};
    CHECK(render_projector_metadata_header(ids).empty());  // one column: the projector reads no header
    CHECK(render_projector_metadata(ids, 0, 3) == "0\n1\n2\n");
    CHECK(render_projector_metadata(ids, 1, 3) == "1\n2\n");
    CHECK(render_projector_metadata(named, 0, 2) == "the\ncat\n");
}

TEST_CASE("with tokens the projector's metadata has two columns under a header, cells without tabs") {
    const std::vector<std::string> no_labels, labels{"a\tb", "c"};
    // A token as views quote it, and one handed over raw: neither may split its line.
    const auto token_of = [](std::uint64_t id) { return id == 0 ? std::string(" journey") : std::string("x\ty\nz"); };
    const ProjectorMetadata ids{no_labels, token_of}, named{labels, token_of};
    CHECK(render_projector_metadata_header(ids) == "id\ttoken\n");
    CHECK(render_projector_metadata_header(named) == "label\ttoken\n");
    CHECK(render_projector_metadata(ids, 0, 2) == "0\t\" journey\"\n1\t\"x\\ty\\nz\"\n");
    CHECK(render_projector_metadata(named, 0, 2) == "a\\tb\t\" journey\"\n"
                                                    "c\t\"x\\ty\\nz\"\n");
}

TEST_CASE("json with --show carries only the matrices named, after a shown field") {
    const DemoReport report = tiny_report(tiny_weight());
    const std::string every = render_lesson_json(lookup_report(report), {});
    CHECK(every.find("\"shown\"") == std::string::npos);
    CHECK(render_lesson_json(lookup_report(report, {}), {}) == every);
    const std::string some = render_lesson_json(lookup_report(report, {ReportMatrix::onehot_matmul, ReportMatrix::lookup}), {"onehot_matmul", "lookup"});
    CHECK(some.find("  \"weight_file\": null,\n  \"shown\": [\"onehot_matmul\", \"lookup\"],\n  \"onehot_matmul\": [") !=
          std::string::npos);
    CHECK(some.find("\"lookup\": [") > some.find("\"onehot_matmul\": ["));
    for (const char* absent : {"\"weight\":", "\"onehot\":", "\"linear_output\":"}) {
        CAPTURE(absent);
        CHECK(some.find(absent) == std::string::npos);
    }
    CHECK(some.find("\"identical\": false") != std::string::npos);  // the verdict still covers everything
}
