// Writes the --format python scripts of many lesson runs, for the live test that runs each in
// real PyTorch (tests/scripts/python_exports_live.py, ctest label torch-live). The lessons are
// built through the core's run_* functions, not the CLI (which is the CLI's own tests' business):
// a few hand-picked cases a lesson that reach every option, then random ones from a seed that the
// caller prints, so that a failure can be repeated. Weight and hidden-state files go beside the
// scripts, which open them by name.
//
// Usage: python_cases DIR SEED COUNT   (COUNT random cases a lesson)
// Writes DIR/<lesson>_<n>.py and DIR/cases.txt, one line a script: its name and its case.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/gpt2/data_loader.hpp"
#include "core/lessons/grad_lesson.hpp"
#include "core/torch/init.hpp"
#include "core/file_formats/npy.hpp"
#include "render/views/python_script.hpp"
#include "render/views/grad/train_text.hpp"
#include "render/sheet/sheet_writers.hpp"
#include "render/views/factor/view.hpp"
#include "render/views/positions/view.hpp"
#include "render/views/tied/view.hpp"
#include "render/views/bag/view.hpp"
#include "render/views/grad/view.hpp"

namespace embdemo {
namespace {

// Special float32 values a weight or hidden file may hold: nan, -nan, inf, -inf, -0, subnormals,
// a signalling NaN and NaN payloads.
constexpr std::uint32_t k_special_bits[] = {0x7fc00000, 0xffc00000, 0x7f800000, 0xff800000, 0x80000000,
                                            0x00000001, 0x807fffff, 0x7fa00001, 0x7fc00123, 0xffe00042};

class Cases {
public:
    Cases(std::string dir, std::uint64_t seed) : m_dir(std::move(dir)), m_rng(seed) {}

    std::uint64_t below(std::uint64_t n) { return m_rng() % n; }
    std::uint64_t between(std::uint64_t lo, std::uint64_t hi) { return lo + below(hi - lo + 1); }
    bool chance(unsigned percent) { return below(100) < percent; }
    template <typename T> T pick(const std::vector<T>& items) { return items[below(items.size())]; }

    std::uint64_t seed() { return pick<std::uint64_t>({123, below(1ULL << 32), m_rng(), UINT64_MAX, (1ULL << 32) + 123}); }
    std::uint64_t size(std::uint64_t most) { return pick<std::uint64_t>({1, 2, 3, between(1, 16), between(1, most)}); }

    // Repeats on purpose: ids from a small pool mixed with fresh ones.
    std::vector<std::uint64_t> ids(std::uint64_t vocab, std::uint64_t most) {
        std::vector<std::uint64_t> pool(between(1, 4));
        for (auto& id : pool) id = below(vocab);
        std::vector<std::uint64_t> out(pick<std::uint64_t>({1, between(1, 6), between(1, most)}));
        for (auto& id : out) id = chance(50) ? pick(pool) : below(vocab);
        return out;
    }

    IdBatch batch(std::uint64_t vocab, std::uint64_t most) {
        IdBatch batch;
        batch.batched = chance(40);
        batch.batch = batch.batched ? between(1, 3) : 1;
        batch.seq = between(1, most);
        for (std::size_t i = 0; i < batch.batch * batch.seq; ++i) batch.values.push_back(below(vocab));
        return batch;
    }

    // Gaussian-ish values (a sum of uniforms: any spread will do) with special values sprinkled in.
    Matrix special_matrix(std::size_t rows, std::size_t cols) {
        Matrix m(rows, cols);
        for (float& v : m.values) v = static_cast<float>((static_cast<double>(below(2000001)) - 1e6) / 5e5);
        for (std::uint64_t i = between(1, std::max<std::size_t>(1, m.values.size() / 4)); i > 0; --i) {
            const std::uint32_t bits = pick(std::vector<std::uint32_t>(std::begin(k_special_bits), std::end(k_special_bits)));
            std::memcpy(&m.values[below(m.values.size())], &bits, sizeof bits);
        }
        return m;
    }

    std::string save(const Matrix& m) {
        const std::string name = fmt::format("file{}.npy", ++m_files);
        std::ofstream(m_dir + "/" + name, std::ios::binary) << encode_npy(m);
        return name;
    }

    void write(const std::string& lesson, const std::string& what, const std::string& script) {
        const std::string name = fmt::format("{}_{:03}.py", lesson, ++m_counts[lesson]);
        std::ofstream(m_dir + "/" + name) << script;
        std::ofstream(m_dir + "/cases.txt", std::ios::app) << name << '\t' << what << '\n';
    }

private:
    std::string m_dir;
    std::mt19937_64 m_rng;
    std::size_t m_files = 0;
    std::map<std::string, std::size_t> m_counts;
};

std::string join_ids(const std::vector<std::uint64_t>& ids) { return fmt::format("{}", fmt::join(ids, ",")); }

std::string bag_python(const BagLesson& lesson) { return render_sheet_python(bag_sheet(lesson)); }

// bag: mode, padding_idx (negative too), per-sample weights, empty bags and bags of padding only.
void bag_case(Cases& c, std::size_t forced) {
    BagRequest r;
    r.vocab_size = c.size(300);
    r.dim = c.size(48);
    r.seed = c.seed();
    r.mode = forced < 3 ? static_cast<BagMode>(forced) : c.pick<BagMode>({BagMode::sum, BagMode::mean, BagMode::max});
    if (c.chance(50) || forced == 1) {
        const auto k = static_cast<std::int64_t>(c.below(r.vocab_size));
        r.padding_idx = c.chance(30) ? k - static_cast<std::int64_t>(r.vocab_size) : k;
    }
    r.bags.offsets = {0};
    for (std::uint64_t b = c.between(1, 6); b > 0; --b) {
        std::vector<std::uint64_t> ids = c.chance(12) ? std::vector<std::uint64_t>{} : c.ids(r.vocab_size, 8);
        if (r.padding_idx && c.chance(20)) ids.push_back(r.padding_idx >= 0 ? *r.padding_idx : *r.padding_idx + r.vocab_size);
        r.bags.ids.insert(r.bags.ids.end(), ids.begin(), ids.end());
        r.bags.offsets.push_back(r.bags.ids.size());
    }
    if (r.mode == BagMode::sum && (c.chance(50) || forced == 0)) {
        for (std::size_t i = 0; i < r.bags.ids.size(); ++i) {
            r.per_sample_weights.push_back(c.pick<float>({0.1f, 0.5f, 2.0f, -1.5f, 0.0f, -0.0f, 1e-3f,
                                                          static_cast<float>((static_cast<double>(c.below(6001)) - 3000.0) / 1000.0)}));
        }
    }
    c.write("bag", fmt::format("mode {} V {} d {} seed {} bags {} offsets {} padding {} weights {}", bag_mode_name(r.mode),
                               r.vocab_size, r.dim, r.seed, join_ids(r.bags.ids), join_ids({r.bags.offsets.begin(), r.bags.offsets.end()}),
                               r.padding_idx ? std::to_string(*r.padding_idx) : "none", r.per_sample_weights.size()),
            bag_python(run_bag_lesson(r)));
}

// positions: every encoding of the table (rope with an even d, alibi with 1 to 16 heads), the
// encodings compared, and the data loader's batch. The forced cases are one per encoding, then
// the loader, then the comparison.
constexpr std::size_t k_encodings = std::size(k_position_encodings);
void positions_case(Cases& c, std::size_t forced) {
    PositionsRequest r;
    r.vocab_size = c.size(300);
    r.seed = c.seed();
    r.encoding = k_position_encodings[forced < k_encodings ? forced : c.below(k_encodings)].encoding;
    r.dim = c.size(48);
    if (traits_of(r.encoding).turns_rows && r.dim % 2 == 1) ++r.dim;
    if (traits_of(r.encoding).biases_scores) r.heads = c.between(1, 16);
    r.encoding_given = c.chance(40) || forced == k_encodings + 1;
    if (c.chance(25) || forced == k_encodings) {
        IdBatch tokens;
        tokens.values = c.ids(r.vocab_size, 200);
        const std::size_t context = c.between(1, 6);
        while (tokens.values.size() < context + 1 + 3 * 4) tokens.values.push_back(c.below(r.vocab_size));
        tokens.seq = tokens.values.size();
        const LoaderSettings loader = {context, c.between(1, context + 3), c.between(1, 3)};
        const auto batch = first_loader_batch(tokens, loader);
        if (!batch) return positions_case(c, forced);  // too few windows for the batch: another case
        r.ids = batch.value().inputs;  // its source carries the targets and the windows
    } else {
        r.ids = c.batch(r.vocab_size, 12);
    }
    r.context = r.ids.seq + (c.chance(50) ? 0 : c.between(1, 20));
    const PositionsLesson lesson = run_positions_lesson(r);
    c.write("positions", fmt::format("{} V {} d {} C {} H {} seed {} ids {} ({} x {}) compared {} loader {}",
                                     encoding_name(r.encoding), r.vocab_size, r.dim, r.context, r.heads, r.seed,
                                     join_ids(r.ids.values), r.ids.batch, r.ids.seq, r.encoding_given, r.ids.source.loader.used()),
            render_sheet_python(positions_sheet(lesson)));
}


std::string tied_python(const TiedLesson& lesson, const std::string& file) {
    return render_sheet_python(tied_sheet(lesson, file));
}

// tied: H = E[ids], or a hidden-state file with special values (NaN and ties in the ranking),
// and GPT-2's V, whose logits the script checks by a sum a row.
void tied_case(Cases& c, std::size_t forced) {
    TiedRequest r;
    r.vocab_size = c.size(300);
    r.dim = c.size(48);
    r.seed = c.seed();
    r.ids = c.batch(r.vocab_size, 12);
    if (forced == 2) {  // GPT-2's vocabulary: more logits than a script lists, so a checksum a row
        r.vocab_size = 50257;
        r.dim = 8;
        r.ids.values.assign(24, 0);
        r.ids.batched = false;
        r.ids.batch = 1;
        r.ids.seq = 24;
        for (auto& id : r.ids.values) id = c.below(r.vocab_size);
    }
    r.top = c.between(1, std::min<std::uint64_t>(r.vocab_size, 6));
    r.hidden_given = c.chance(30) || forced == 1;
    Matrix hidden;
    std::string file;
    if (r.hidden_given) {
        hidden = c.special_matrix(r.ids.values.size(), r.dim);
        file = c.save(hidden);
    }
    c.write("tied", fmt::format("V {} d {} seed {} ids {} top {} hidden {}", r.vocab_size, r.dim, r.seed,
                                join_ids(r.ids.values), r.top, file.empty() ? "E[ids]" : file),
            tied_python(run_tied_lesson(r, std::move(hidden)), file));
}

void factor_case(Cases& c, std::size_t) {
    FactorRequest r;
    r.vocab_size = c.size(300);
    r.dim = c.between(2, 64);
    r.rank = c.between(1, r.dim - 1);
    r.seed = c.seed();
    r.ids = c.batch(r.vocab_size, 12);
    const FactorLesson lesson = run_factor_lesson(r);
    c.write("factor", fmt::format("V {} r {} d {} seed {} ids {}", r.vocab_size, r.rank, r.dim, r.seed, join_ids(r.ids.values)),
            render_sheet_python(factor_sheet(lesson)));
}

// E for a lookup run: forced 0-3 take each origin in turn (seeded, randint, index pattern, a file
// with special values), random cases mostly the seeded one.
Matrix demo_weight(Cases& c, DemoRequest& demo, std::size_t forced) {
    const auto kind = forced < 4 ? static_cast<WeightOrigin::Kind>(forced)
                                 : c.pick<WeightOrigin::Kind>({WeightOrigin::Kind::torch, WeightOrigin::Kind::torch,
                                                               WeightOrigin::Kind::torch_randint,
                                                               WeightOrigin::Kind::index_pattern, WeightOrigin::Kind::file});
    demo.origin.kind = kind;
    switch (kind) {
        case WeightOrigin::Kind::torch: return torch_embedding_weight(demo.vocab_size, demo.dim, demo.seed);
        case WeightOrigin::Kind::torch_randint:
            return torch_randint_weight(demo.vocab_size, demo.dim, demo.seed, k_randint_low, k_randint_high);
        case WeightOrigin::Kind::index_pattern:
            demo.origin.detail = index_pattern_formula(demo.dim);
            return index_pattern_weight(demo.vocab_size, demo.dim);
        case WeightOrigin::Kind::file: break;
    }
    Matrix weight = c.special_matrix(demo.vocab_size, demo.dim);
    demo.origin.detail = c.save(weight);
    return weight;
}

// The lookup, the notebook's lesson: every origin of E, V given or the largest id + 1 as the
// notebook infers it, lists and batches, repeats.
void lookup_case(Cases& c, std::size_t forced) {
    DemoRequest demo;
    demo.vocab_size = c.size(300);
    demo.dim = c.size(48);
    demo.seed = c.seed();
    const IdBatch ids = c.batch(demo.vocab_size, 12);
    demo.ids = ids.values;
    demo.shape = ids.shape();
    if (forced == 0 || (forced >= 4 && c.chance(40))) {
        demo.vocab_inferred = true;
        demo.vocab_source = DemoRequest::VocabSource::largest_id;
        demo.vocab_size = *std::max_element(demo.ids.begin(), demo.ids.end()) + 1;
    }
    Matrix weight = demo_weight(c, demo, forced);
    c.write("lookup", fmt::format("origin {} V {}{} d {} seed {} ids {}", static_cast<int>(demo.origin.kind),
                                  demo.vocab_size, demo.vocab_inferred ? " (largest id + 1)" : "", demo.dim, demo.seed,
                                  join_ids(demo.ids)),
            render_lookup_python(build_demo_report(demo, std::move(weight))));
}

// max_norm: every origin of E (seeded, randint, index pattern, a file with special values),
// max_norm from tiny (every row rescaled) to large (none), norm_type 1, 2, 3, inf and 0.5.
void max_norm_case(Cases& c, std::size_t forced) {
    MaxNormRequest r;
    DemoRequest& demo = r.demo;
    demo.vocab_size = c.size(300);
    demo.dim = c.size(48);
    demo.seed = c.seed();
    r.ids = c.batch(demo.vocab_size, 12);
    demo.ids = r.ids.values;
    demo.shape = r.ids.shape();
    Matrix weight = demo_weight(c, demo, forced);
    r.max_norm.max_norm = c.pick<double>({0.5, 1.0, 2.0, 1e-3, 1e9, static_cast<double>(c.between(1, 400)) / 100.0});
    r.max_norm.norm_type = c.pick<double>({2.0, 2.0, 1.0, 3.0, 0.5, std::numeric_limits<double>::infinity()});
    c.write("max_norm", fmt::format("origin {} V {} d {} seed {} ids {} max_norm {} norm_type {}", static_cast<int>(demo.origin.kind),
                                    demo.vocab_size, demo.dim, demo.seed, join_ids(demo.ids), r.max_norm.max_norm,
                                    r.max_norm.norm_type),
            render_max_norm_python(run_max_norm_lesson(r, std::move(weight))));
}

// grad --max-norm: E seeded, randint or a file with special values, renormalised in the forward
// (tiny M: every row; large: none; norm_type 1, 2, 3, inf, 0.5), with padding_idx (negative
// too), scale_grad_by_freq or sparse, G drawn or ones, a batch or a list.
void grad_max_norm_case(Cases& c, std::size_t forced) {
    GradRequest r;
    r.vocab_size = c.size(200);
    r.dim = c.size(32);
    r.seed = c.seed();
    r.ids = c.batch(r.vocab_size, 10);
    r.top = 1;  // the views only
    r.origin.kind = forced < 3 ? std::vector<WeightOrigin::Kind>{WeightOrigin::Kind::torch, WeightOrigin::Kind::torch_randint,
                                                                 WeightOrigin::Kind::file}[forced]
                               : c.pick<WeightOrigin::Kind>({WeightOrigin::Kind::torch, WeightOrigin::Kind::torch,
                                                             WeightOrigin::Kind::torch_randint, WeightOrigin::Kind::file});
    Matrix weight;
    if (r.origin.kind == WeightOrigin::Kind::file) {
        weight = c.special_matrix(r.vocab_size, r.dim);
        r.origin.detail = c.save(weight);
    }
    if (c.chance(40) || forced == 1) {
        const auto k = static_cast<std::int64_t>(c.below(r.vocab_size));
        r.padding_idx = c.chance(30) ? k - static_cast<std::int64_t>(r.vocab_size) : k;
    }
    if (c.chance(30) || forced == 2) {
        r.sparse = true;
    } else {
        r.scale_grad_by_freq = c.chance(40) || forced == 0;
    }
    r.upstream = c.chance(20) ? UpstreamSource::ones : UpstreamSource::randn;
    r.max_norm = MaxNorm{c.pick<double>({0.5, 1.0, 2.0, 1e-3, 1e9, static_cast<double>(c.between(1, 400)) / 100.0}),
                         c.pick<double>({2.0, 2.0, 1.0, 3.0, 0.5, std::numeric_limits<double>::infinity()})};
    c.write("grad_max_norm",
            fmt::format("origin {} V {} d {} seed {} ids {} padding {} scaled {} sparse {} max_norm {} norm_type {}",
                        static_cast<int>(r.origin.kind), r.vocab_size, r.dim, r.seed, join_ids(r.ids.values),
                        r.padding_idx ? std::to_string(*r.padding_idx) : "none", r.scale_grad_by_freq, r.sparse,
                        r.max_norm->max_norm, r.max_norm->norm_type),
            render_grad_python(run_grad_lesson(r, std::move(weight), Matrix{}), ""));
}

// training: SGD (momentum, weight decay), Adam, AdamW, sparse SGD; padding, scale_grad_by_freq,
// G of ones, several batches.
void training_case(Cases& c, std::size_t forced) {
    TrainingArgs a;
    a.vocab_size = c.size(60);
    a.dim = c.size(24);
    a.seed = c.seed();
    a.ids = c.batch(a.vocab_size, 8);
    a.steps = c.between(1, 4);
    a.upstream = c.chance(20) ? UpstreamKind::ones : UpstreamKind::randn;
    if (c.chance(30)) a.embedding.padding_row = c.below(a.vocab_size);
    const double lr = c.pick<double>({0.1, 1e-3, 0.5, 2.0, 0.0, static_cast<double>(c.between(1, 999)) / 1000.0});
    const auto kind = forced < 4 ? forced : c.below(4);
    if (kind == 3) {
        a.sparse = true;
        a.optimizer = sgd_settings(lr);
    } else {
        a.embedding.scale_grad_by_freq = c.chance(30);
        const double decay = c.chance(50) ? 0.0 : c.pick<double>({1e-2, 0.1, 0.5});
        a.optimizer = kind == 0 ? sgd_settings(lr, c.chance(50) ? 0.0 : c.pick<double>({0.9, 0.5}), decay)
                      : kind == 1 ? adam_settings(lr, decay)
                                  : adamw_settings(lr, c.chance(50) ? 1e-2 : decay);
    }
    c.write("training", fmt::format("{} sparse {} V {} d {} seed {} ids {} steps {}", describe_optimizer(a.optimizer),
                                    a.sparse, a.vocab_size, a.dim, a.seed, join_ids(a.ids.values), a.steps),
            render_training_python(a, run_training(a)));
}

}  // namespace
}  // namespace embdemo

int main(int argc, char** argv) {
    using namespace embdemo;
    if (argc != 4) {
        std::fputs("usage: python_cases DIR SEED COUNT\n", stderr);
        return 2;
    }
    const std::uint64_t seed = std::stoull(argv[2]);
    const std::size_t count = std::stoul(argv[3]);
    Cases cases(argv[1], seed);
    // Each lesson: its hand-picked cases (forced = 0, 1, ...: see each case function), then random ones.
    const std::vector<std::pair<void (*)(Cases&, std::size_t), std::size_t>> lessons = {
        {lookup_case, 4}, {bag_case, 3}, {positions_case, k_encodings + 2}, {tied_case, 3}, {factor_case, 1}, {max_norm_case, 4}, {grad_max_norm_case, 3},
        {training_case, 4}};
    for (const auto& [make, forced] : lessons) {
        for (std::size_t i = 0; i < forced + count; ++i) make(cases, i < forced ? i : SIZE_MAX);
    }
    return 0;
}
