// The --format python scripts of the lessons beyond lookup and grad: how they spell values
// Python must read back exactly. Whether the scripts pass in PyTorch is torch_live.python_lessons'
// business (it needs torch); these need nothing.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "core/lessons/bag_lesson.hpp"
#include "core/lessons/tied_lesson.hpp"
#include "render/kit/python_kit.hpp"
#include "render/views/python_script.hpp"
#include "render/sheet/sheet_writers.hpp"
#include "render/views/tied/view.hpp"
#include "render/views/bag/view.hpp"

namespace embdemo {
namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("python_double and python_float32 spell floats that Python reads back as the same value") {
    CHECK(python_double(2.0) == "2.0");
    CHECK(python_double(1e-8) == "1e-08");
    CHECK(python_double(0.1) == "0.1");
    CHECK(python_double(-0.0) == "-0.0");
    CHECK(python_double(INFINITY) == "float(\"inf\")");
    CHECK(python_float32(-0.0f) == "-0.0");
    CHECK(python_float32(0.1f) == "0.1");
    CHECK(python_float32(1e-3f) == "0.001");
}

TEST_CASE("a bag script keeps a per-sample weight of -0.0 negative and checks every weight's bits") {
    BagRequest request;
    request.bags.ids = {1, 0};
    request.bags.offsets = {0, 2};
    request.vocab_size = 2;
    request.dim = 2;
    request.mode = BagMode::sum;
    request.per_sample_weights = {-0.0f, 0.5f};
    const std::string script = render_sheet_python(bag_sheet(run_bag_lesson(request)));
    CHECK(contains(script, "per_sample_weights = torch.tensor([-0.0, 0.5], dtype=torch.float32)"));
    CHECK(contains(script, "assert same_bits(per_sample_weights, from_bits([0x80000000, 0x3f000000], (2,)))"));
    CHECK(contains(script, "bag = torch.nn.EmbeddingBag(2, 2, mode=\"sum\")"));
}

TEST_CASE("a tied script lists every logit up to a million of them, and a checksum a row past that") {
    TiedRequest request;
    request.vocab_size = 50257;
    request.dim = 2;
    request.ids.values.assign(21, 7);
    request.ids.seq = 21;
    request.top = 2;
    const std::string big = render_sheet_python(tied_sheet(run_tied_lesson(request, Matrix()), ""));
    CHECK(contains(big, "expected_checksums = ["));
    CHECK_FALSE(contains(big, "expected_logits = "));
    request.ids.values.assign(20, 7);
    request.ids.seq = 20;
    const std::string listed = render_sheet_python(tied_sheet(run_tied_lesson(request, Matrix()), ""));
    CHECK(contains(listed, "expected_logits = from_bits(["));
}

}  // namespace embdemo
