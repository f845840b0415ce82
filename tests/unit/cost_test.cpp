#include <doctest/doctest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "cli/exit_codes.hpp"
#include "cli/command_line.hpp"
#include "cli/lessons/lesson.hpp"
#include "core/lessons/cost.hpp"
#include "render/views/cost/report.hpp"
#include "render/views/cost/text.hpp"
#include "render/kit/lesson_report.hpp"

using namespace embdemo;

namespace {

struct Expected {
    CostMethod method;
    CostPass pass;
    std::uint64_t multiply_adds, zero_multiplies, additions, bytes_read, bytes_written, extra_bytes;
};

void check_rows(const std::vector<CostRow>& rows, const std::vector<Expected>& expected) {
    REQUIRE(rows.size() == expected.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        CAPTURE(i);
        CHECK(rows[i].method == expected[i].method);
        CHECK(rows[i].pass == expected[i].pass);
        CHECK(rows[i].multiply_adds == expected[i].multiply_adds);
        CHECK(rows[i].zero_multiplies == expected[i].zero_multiplies);
        CHECK(rows[i].additions == expected[i].additions);
        CHECK(rows[i].bytes_read == expected[i].bytes_read);
        CHECK(rows[i].bytes_written == expected[i].bytes_written);
        CHECK(rows[i].extra_bytes == expected[i].extra_bytes);
    }
}

CommandLine parse(std::vector<const char*> args) {
    args.insert(args.begin(), "embdemo");
    return parse_command_line(static_cast<int>(args.size()), args.data());
}

std::size_t widest_line(const std::string& text) {
    std::istringstream lines(text);
    std::size_t widest = 0;
    for (std::string line; std::getline(lines, line);) widest = std::max(widest, line.size());
    return widest;
}

using M = CostMethod;
using P = CostPass;

}  // namespace

TEST_CASE("cost_rows counts the notebook's sizes by hand") {
    // n = 3, V = 4, d = 5: ids 24 bytes, out 60, E 80, X 48, CSR 12 + 24 + 32 = 68.
    check_rows(cost_rows(3, 4, 5), {
                                       {M::lookup, P::forward, 0, 0, 0, 24 + 60, 60, 0},
                                       {M::onehot_dense, P::forward, 60, 45, 0, 24 + 48 + 80, 48 + 60, 48},
                                       {M::onehot_sparse, P::forward, 15, 0, 0, 24 + 68 + 60, 68 + 60, 68},
                                       {M::lookup, P::backward, 0, 0, 15, 24 + 60 + 60, 80 + 60, 0},
                                       {M::onehot_dense, P::backward, 60, 45, 0, 48 + 60, 80, 48},
                                       {M::onehot_sparse, P::backward, 15, 0, 0, 68 + 60 + 60, 80 + 60, 68},
                                   });
}

TEST_CASE("cost_rows at GPT-2 small with its 1,024-token context") {
    check_rows(cost_rows(1024, 50257, 768),
               {
                   {M::lookup, P::forward, 0, 0, 0, 3153920, 3145728, 0},
                   {M::onehot_dense, P::forward, 39523713024, 39522926592, 0, 360250368, 208998400, 205852672},
                   {M::onehot_sparse, P::forward, 786432, 0, 0, 3174408, 3166216, 20488},
                   {M::lookup, P::backward, 0, 0, 786432, 6299648, 157535232, 0},
                   {M::onehot_dense, P::backward, 39523713024, 39522926592, 0, 208998400, 154389504, 205852672},
                   {M::onehot_sparse, P::backward, 786432, 0, 0, 6311944, 157535232, 20488},
               });
}

TEST_CASE("cost_rows agrees with embedding_cost, which the walkthrough prints") {
    const EmbeddingCost old = embedding_cost(7, 11, 13);
    const std::vector<CostRow> rows = cost_rows(7, 11, 13);
    CHECK(rows[1].multiply_adds == old.product_multiplies);
    CHECK(rows[1].zero_multiplies == old.zero_multiplies);
    CHECK(rows[2].multiply_adds == old.lookup_copies);
    CHECK(rows[1].extra_bytes == old.onehot_entries * 4);
}

TEST_CASE("the model presets are the real models' token tables") {
    REQUIRE(find_model_preset("gpt2") != nullptr);
    CHECK(find_model_preset("gpt2")->vocab_size == 50257);
    CHECK(find_model_preset("gpt2-xl")->dim == 1600);
    CHECK(find_model_preset("llama3-8b")->vocab_size == 128256);
    CHECK(find_model_preset("llama3-8b")->dim == 4096);
    CHECK(find_model_preset("GPT2") == nullptr);
    CHECK(model_preset_names() ==
          "gpt2, gpt2-xl, llama3-8b, bert-base, llama-3.2-1b, qwen2.5-0.5b, gemma-3-270m, xlm-r-base");
}

TEST_CASE("short_count keeps three significant digits in at most 7 columns") {
    CHECK(short_count(0) == "0");
    CHECK(short_count(9999) == "9,999");
    CHECK(short_count(10000) == "10 k");
    CHECK(short_count(786432) == "786 k");
    CHECK(short_count(999999) == "1 M");
    CHECK(short_count(39523713024) == "39.5 G");
    CHECK(short_count(std::uint64_t{1} << 60) == "1.15 E");
}

TEST_CASE("the cost text view fits 80 columns from one id to the largest sizes") {
    struct Sizes {
        std::uint64_t n, v, d;
    };
    for (const Sizes& sizes : {Sizes{1, 1, 1}, Sizes{1024, 50257, 768},
                               Sizes{k_max_cost_tokens, k_max_cost_vocab, k_max_cost_dim}}) {
        CAPTURE(sizes.n);
        CostRequest request;
        request.ids = sizes.n;
        request.vocab_size = sizes.v;
        request.dim = sizes.d;
        CHECK(widest_line(render_cost_text(run_cost_lesson(request))) <= 80);
    }
}

TEST_CASE("the cost narration follows the sizes: one id in a vocab of 2") {
    CostRequest request;
    request.ids = 1;
    request.vocab_size = 2;
    request.dim = 3;
    request.token_source = TokenSource::ids;
    request.vocab_inferred = true;
    std::string text = render_cost_text(run_cost_lesson(request));
    std::replace(text.begin(), text.end(), '\n', ' ');  // sentences are wrapped
    CHECK(text.find("n = 1 id (--ids), V = 2 rows (largest id + 1), d = 3 columns") != std::string::npos);
    CHECK(text.find("does 6 multiply-adds to make 3 numbers: 3 of them (50.0%) multiply") != std::string::npos);
    CHECK(text.find("V*B/(4*F) = 2*B/(4*F)") != std::string::npos);
}

TEST_CASE("the presets' token tables are the shares their configs give") {
    const auto share = [](const char* name) { return 100.0 * model_share(*find_model_preset(name)).table_share; };
    CHECK(share("gpt2") == doctest::Approx(31.0).epsilon(0.005));
    CHECK(share("bert-base") == doctest::Approx(21.4).epsilon(0.005));
    CHECK(share("qwen2.5-0.5b") == doctest::Approx(27.6).epsilon(0.005));
    CHECK(share("gemma-3-270m") == doctest::Approx(62.6).epsilon(0.005));
    CHECK(share("xlm-r-base") == doctest::Approx(69.1).epsilon(0.005));
    CHECK(share("llama3-8b") == doctest::Approx(6.5).epsilon(0.01));
    const ModelShare llama = model_share(*find_model_preset("llama3-8b"));
    CHECK(100.0 * llama.embedding_share == doctest::Approx(13.1).epsilon(0.01));  // input and output tables
    const ModelShare bert = model_share(*find_model_preset("bert-base"), 128);
    CHECK(bert.factored == 30522u * 128 + 128u * 768);
    CHECK(bert.saved == 30522u * 768 - bert.factored);
}

TEST_CASE("the presets' parameter counts are their configs' sums") {
    // Llama-style decoder layer: q, k, v, o projections (grouped keys and values), a gated MLP, two norms.
    const auto llama_layer = [](std::uint64_t d, std::uint64_t kv, std::uint64_t ff) {
        return 2 * d * d + 2 * d * kv + 3 * d * ff + 2 * d;
    };
    CHECK(find_model_preset("llama3-8b")->parameters == 32 * llama_layer(4096, 1024, 14336) + 2 * 128256ull * 4096 + 4096);
    CHECK(find_model_preset("llama-3.2-1b")->parameters == 16 * llama_layer(2048, 512, 8192) + 128256ull * 2048 + 2048);
    // Qwen2.5 adds biases to q, k and v.
    CHECK(find_model_preset("qwen2.5-0.5b")->parameters ==
          24 * (llama_layer(896, 128, 4864) + 896 + 2 * 128) + 151936ull * 896 + 896);
    // Gemma 3: 4 query heads and 1 key-value head of 256, four norms a layer and q/k norms of 256.
    CHECK(find_model_preset("gemma-3-270m")->parameters ==
          18 * (640 * 1024 * 2 + 2 * 640 * 256 + 3 * 640 * 2048 + 4 * 640 + 2 * 256) + 262144ull * 640 + 640);
    // BERT-style encoder layer (12 d^2 + 13 d), embeddings with positions, types and a norm, a pooler.
    const auto encoder = [](std::uint64_t vocab, std::uint64_t positions, std::uint64_t types) {
        return 12 * (12 * 768 * 768 + 13 * 768) + (vocab + positions + types + 2) * 768 + 768 * 768 + 768;
    };
    CHECK(find_model_preset("bert-base")->parameters == encoder(30522, 512, 2));
    CHECK(find_model_preset("xlm-r-base")->parameters == encoder(250002, 514, 1));
    CHECK(find_model_preset("gpt2")->parameters == 12 * (12 * 768 * 768 + 13 * 768) + (50257 + 1024 + 2) * 768);
    CHECK(find_model_preset("gpt2-xl")->parameters ==
          48 * (12 * 1600 * 1600 + 13 * 1600) + (50257 + 1024 + 2) * 1600ull);
}

TEST_CASE("embdemo cost reads a preset, --tokens, or --ids") {
    const CommandLine model = parse({"cost", "--model", "gpt2-xl", "--tokens", "7"});
    REQUIRE(model.run);
    CHECK(std::string(model.options.lesson->name) == "cost");
    CHECK(own_settings<CostRequest>(model.options).ids == 7);
    CHECK(own_settings<CostRequest>(model.options).dim == 1600);
    CHECK(own_settings<CostRequest>(model.options).token_source == TokenSource::tokens);
    const CommandLine ids = parse({"cost", "--ids", "2,3;1,9", "--dim", "5", "--format", "json"});
    REQUIRE(ids.run);
    CHECK(own_settings<CostRequest>(ids.options).ids == 4);
    CHECK(own_settings<CostRequest>(ids.options).vocab_size == 10);
    CHECK(own_settings<CostRequest>(ids.options).vocab_inferred);
    CHECK(ids.options.format == OutputFormat::json);
    const CommandLine context = parse({"cost", "--model", "llama3-8b"});
    REQUIRE(context.run);
    CHECK(own_settings<CostRequest>(context.options).ids == 8192);
    CHECK(own_settings<CostRequest>(context.options).token_source == TokenSource::context);
}

TEST_CASE("embdemo cost refuses what it cannot use, naming the option") {
    struct Bad {
        std::vector<const char*> args;
        const char* message;
    };
    const Bad cases[] = {
        {{"cost"}, "embdemo cost needs sizes"},
        {{"cost", "--tokens", "5", "--dim", "3"}, "embdemo cost needs sizes"},
        {{"cost", "--model", "bert"}, "--model \"bert\": is not a known model (allowed: gpt2, gpt2-xl, llama3-8b, bert-base, "
                                       "llama-3.2-1b, qwen2.5-0.5b, gemma-3-270m, xlm-r-base)"},
        {{"cost", "--model", "gpt2", "--dim", "5"}, "--model gpt2 already sets --vocab and --dim"},
        {{"cost", "--model", "gpt2", "--ids", "50257"}, "--ids: id 50257 is out of range for a vocab of 50,257"},
        {{"cost", "--ids", "1", "--tokens", "2", "--dim", "3"}, "--ids and --tokens both give n"},
        {{"cost", "--tokens", "0", "--vocab", "5", "--dim", "3"}, "--tokens \"0\": is less than 1"},
        {{"cost", "--tokens", "1048577", "--vocab", "5", "--dim", "3"}, "--tokens \"1048577\""},
        {{"cost", "--tokens", "1", "--vocab", "16777217", "--dim", "3"}, "--vocab \"16777217\""},
        {{"cost", "--model", "gpt2", "--format", "python"}, "--format \"python\": embdemo cost has no python view"},
        {{"cost", "--model", "gpt2", "--seed", "4"}, "--seed has no effect on embdemo cost"},
        {{"cost", "--model", "gpt2", "--walkthrough"}, "--walkthrough has no effect on embdemo cost"},
        {{"--ids", "1", "--dim", "2", "bench"}, "bench must be the first word"},
    };
    for (const Bad& bad : cases) {
        CAPTURE(bad.message);
        const CommandLine command_line = parse(bad.args);
        CHECK_FALSE(command_line.run);
        CHECK(command_line.exit_code == k_exit_usage);
        CHECK(command_line.error.find(bad.message) != std::string::npos);
    }
}

TEST_CASE("embdemo bench hands every later word to embdemo-bench unparsed") {
    const CommandLine command_line = parse({"bench", "--model", "gpt2", "--ids", "whatever"});
    REQUIRE(command_line.run);
    CHECK(std::string(command_line.options.lesson->name) == "bench");
    CHECK(command_line.options.bench_args == std::vector<std::string>{"--model", "gpt2", "--ids", "whatever"});
}

TEST_CASE("the cost JSON lists the six rows with exact counts") {
    CostRequest request;
    request.ids = 3;
    request.vocab_size = 4;
    request.dim = 5;
    const std::string json = render_lesson_json(cost_report(run_cost_lesson(request)), {});
    CHECK(json.find("\"schema\": \"embdemo-cost/1\"") != std::string::npos);
    CHECK(json.find("{\"method\": \"onehot_dense\", \"pass\": \"forward\", \"multiply_adds\": 60, "
                    "\"zero_multiplies\": 45, \"additions\": 0, \"bytes_read\": 152, \"bytes_written\": 108, "
                    "\"extra_bytes\": 48}") != std::string::npos);
}
