// The loops of word2vec.c's skip-gram (negative sampling) with its float arithmetic and its
// sigmoid table, over the project's generator. The dot products and updates run over the row in
// eight lanes, folded pairwise at the end: a fixed order (so the bits are the same on every
// machine and in the Python re-implementation) that the compiler can still vectorise.
#include "core/kernels/skipgram.hpp"

#include <algorithm>
#include <cmath>

#include "core/torch/torch_rng.hpp"

namespace embdemo {

std::uint64_t SkipgramCorpus::words() const {
    std::uint64_t total = 0;
    for (const auto& sentence : sentences) total += sentence.size();
    return total;
}

double skipgram_keep_probability(std::uint64_t count, std::uint64_t total, double sample) {
    if (sample <= 0.0) return 1.0;
    const double threshold = sample * static_cast<double>(total);
    const double c = static_cast<double>(count);
    return (std::sqrt(c / threshold) + 1.0) * threshold / c;
}

std::vector<std::uint32_t> skipgram_noise_table(const std::vector<std::uint64_t>& counts) {
    double total = 0.0;
    for (const std::uint64_t count : counts) total += std::pow(static_cast<double>(count), 0.75);
    std::vector<std::uint32_t> table(counts.size());
    double running = 0.0;
    for (std::size_t i = 0; i < counts.size(); ++i) {
        running += std::pow(static_cast<double>(counts[i]), 0.75);
        table[i] = static_cast<std::uint32_t>(std::llround(running / total * k_skipgram_domain));
    }
    if (!table.empty()) table.back() = k_skipgram_domain;
    return table;
}

namespace {

constexpr std::size_t k_dot_lanes = 8;

// Inlined into both builds of the training loop below, so that each is vectorised for its CPU.
#define EMBDEMO_SKIPGRAM_INLINE inline __attribute__((always_inline))

EMBDEMO_SKIPGRAM_INLINE float dot(const float* a, const float* b, std::size_t d) {
    float lanes[k_dot_lanes] = {};
    std::size_t j = 0;
    for (; j + k_dot_lanes <= d; j += k_dot_lanes) {
        for (std::size_t k = 0; k < k_dot_lanes; ++k) lanes[k] += a[j + k] * b[j + k];
    }
    for (std::size_t k = 0; j < d; ++j, ++k) lanes[k] += a[j] * b[j];
    for (std::size_t width = k_dot_lanes / 2; width > 0; width /= 2) {
        for (std::size_t k = 0; k < width; ++k) lanes[k] += lanes[k + width];
    }
    return lanes[0];
}

// y += g * x, element by element (a product then a sum: no fused multiply-add).
EMBDEMO_SKIPGRAM_INLINE void axpy(float g, const float* x, float* y, std::size_t d) {
    for (std::size_t j = 0; j < d; ++j) y[j] += g * x[j];
}

EMBDEMO_SKIPGRAM_INLINE void prefetch_lines(const float* row, std::size_t d) {
    const char* bytes = reinterpret_cast<const char*>(row);
    for (std::size_t b = 0; b < d * sizeof(float); b += 64) __builtin_prefetch(bytes + b, 1);
}

struct SigmoidTable {
    float values[k_skipgram_exp_table];
    // -log of each entry and of 1 - it: the loss of a positive and of a negative pair.
    double minus_log[k_skipgram_exp_table], minus_log_complement[k_skipgram_exp_table];
    SigmoidTable() {
        for (std::size_t i = 0; i < k_skipgram_exp_table; ++i) {
            // word2vec.c: expTable[i] = exp((i / EXP_TABLE_SIZE * 2 - 1) * MAX_EXP), then e / (e + 1);
            // the exp in double, rounded once, so that any libm gives the same table.
            const float x = (static_cast<float>(i) / static_cast<float>(k_skipgram_exp_table) * 2.0f - 1.0f) *
                            k_skipgram_max_exp;
            const auto e = static_cast<float>(std::exp(static_cast<double>(x)));
            values[i] = e / (e + 1.0f);
            minus_log[i] = -std::log(static_cast<double>(values[i]));
            minus_log_complement[i] = -std::log(static_cast<double>(1.0f - values[i]));
        }
    }
    std::size_t index(float f) const {
        const auto i = static_cast<std::size_t>((f + k_skipgram_max_exp) *
                                                (static_cast<float>(k_skipgram_exp_table) / k_skipgram_max_exp / 2.0f));
        return std::min(i, k_skipgram_exp_table - 1);
    }
};

// upper_bound over the noise table, started from a bucket of its draws: the same row, without
// the binary search over the whole vocabulary for each of the negative draws.
class NoiseSampler {
public:
    explicit NoiseSampler(std::vector<std::uint32_t> cumulative) : m_cumulative(std::move(cumulative)) {
        m_bucket_start.resize(k_buckets + 1);
        for (std::size_t b = 0; b <= k_buckets; ++b) {
            const std::uint64_t low = static_cast<std::uint64_t>(b) << k_shift;
            m_bucket_start[b] = static_cast<std::uint32_t>(
                std::upper_bound(m_cumulative.begin(), m_cumulative.end(), std::min<std::uint64_t>(low, UINT32_MAX) - (b > 0 ? 1 : 0)) -
                m_cumulative.begin());
        }
    }
    std::uint32_t row(std::uint32_t draw) const {
        const std::size_t b = draw >> k_shift;
        const auto first = m_cumulative.begin() + m_bucket_start[b];
        const auto last = m_cumulative.begin() + std::min<std::size_t>(m_bucket_start[b + 1] + 1, m_cumulative.size());
        return static_cast<std::uint32_t>(std::upper_bound(first, last, draw) - m_cumulative.begin());
    }

private:
    static constexpr unsigned k_shift = 15;  // draws below 2^31: 2^16 buckets
    static constexpr std::size_t k_buckets = std::size_t{1} << 16;
    std::vector<std::uint32_t> m_cumulative;
    std::vector<std::uint32_t> m_bucket_start;
};

// The loop, written once. Its order of operations is fixed by the code (eight lanes, no fused
// multiply-adds: -ffp-contract=off), so the SSE2 and AVX2 builds give the same bits.
EMBDEMO_SKIPGRAM_INLINE SkipgramResult train_loop(const SkipgramCorpus& corpus, const SkipgramSettings& settings) {
    const std::size_t v = corpus.counts.size(), d = settings.dim;
    SkipgramResult result;
    TorchGenerator generator(settings.seed);
    constexpr double k_two_32 = 4294967296.0;
    // word2vec.c: syn0[a * d + b] = (rand / 65536 - 0.5) / d, here from a 24-bit uniform draw.
    result.initial = Matrix(v, d);
    for (float& value : result.initial.values) {
        const float u = static_cast<float>(generator.random() >> 8) / 16777216.0f;
        value = (u - 0.5f) / static_cast<float>(d);
    }
    result.input = result.initial;
    result.output = Matrix(v, d);
    result.moved.assign(v, false);
    const NoiseSampler noise(skipgram_noise_table(corpus.counts));
    const SigmoidTable sigmoid;
    const std::uint64_t corpus_words = corpus.words();
    const std::uint64_t total = corpus_words * settings.epochs;
    std::vector<double> keep(v);
    for (std::size_t w = 0; w < v; ++w) keep[w] = skipgram_keep_probability(corpus.counts[w], corpus_words, settings.sample);

    const auto alpha0 = static_cast<float>(settings.alpha);
    float alpha = alpha0;
    std::uint64_t processed = 0;
    const std::size_t points = std::max<std::size_t>(1, std::min<std::uint64_t>(settings.loss_points, std::max<std::uint64_t>(total, 1)));
    std::vector<double> loss_sum(points, 0.0);
    std::vector<std::uint64_t> loss_pairs(points, 0);
    std::vector<float> neu1e(d);
    std::vector<std::uint32_t> kept, negatives;
    for (std::size_t epoch = 0; epoch < settings.epochs; ++epoch) {
        for (const auto& sentence : corpus.sentences) {
            kept.clear();
            for (const std::uint32_t word : sentence) {
                if (processed % k_skipgram_alpha_words == 0 && processed > 0) {
                    const double left = 1.0 - static_cast<double>(processed) / static_cast<double>(total + 1);
                    alpha = std::max(static_cast<float>(settings.alpha * left), alpha0 * 1e-4f);
                }
                ++processed;
                if (keep[word] < 1.0 && static_cast<double>(generator.random()) / k_two_32 >= keep[word]) continue;
                kept.push_back(word);
            }
            if (settings.progress) settings.progress(processed, total);
            const std::size_t stretch = std::min<std::size_t>(points - 1, static_cast<std::size_t>(
                (static_cast<double>(processed - 1) / static_cast<double>(std::max<std::uint64_t>(total, 1))) * points));
            result.trained_words += kept.size();
            for (std::size_t pos = 0; pos < kept.size(); ++pos) {
                const std::uint32_t word = kept[pos];
                const std::size_t reach = settings.window - generator.random() % settings.window;  // 1 .. window
                const std::size_t first = pos >= reach ? pos - reach : 0;
                const std::size_t last = std::min(kept.size() - 1, pos + reach);
                // The negatives of every context of this word, drawn now in the order the loop
                // below takes them (nothing else draws in between), so that their rows of C, the
                // memory this loop waits on, are asked for before they are needed.
                negatives.clear();
                for (std::size_t c = first; c <= last; ++c) {
                    if (c == pos) continue;
                    prefetch_lines(result.input.values.data() + std::size_t{kept[c]} * d, d);
                    for (std::size_t k = 0; k < settings.negative; ++k) {
                        negatives.push_back(noise.row(generator.random() % k_skipgram_domain));
                        prefetch_lines(result.output.values.data() + std::size_t{negatives.back()} * d, d);
                    }
                }
                std::size_t next_negative = 0;
                for (std::size_t c = first; c <= last; ++c) {
                    if (c == pos) continue;
                    float* l1 = result.input.values.data() + std::size_t{kept[c]} * d;
                    std::fill(neu1e.begin(), neu1e.end(), 0.0f);
                    for (std::size_t k = 0; k <= settings.negative; ++k) {
                        std::uint32_t target = word;
                        float label = 1.0f;
                        if (k > 0) {
                            target = negatives[next_negative++];
                            if (target == word) continue;
                            label = 0.0f;
                        }
                        float* l2 = result.output.values.data() + std::size_t{target} * d;
                        const float f = dot(l1, l2, d);
                        // The loss as the table sees it: a saturated f counts as the table's end.
                        const std::size_t i = f > k_skipgram_max_exp    ? k_skipgram_exp_table - 1
                                              : f < -k_skipgram_max_exp ? 0
                                                                        : sigmoid.index(f);
                        const float s = f > k_skipgram_max_exp ? 1.0f : f < -k_skipgram_max_exp ? 0.0f : sigmoid.values[i];
                        loss_sum[stretch] += label > 0.0f ? sigmoid.minus_log[i] : sigmoid.minus_log_complement[i];
                        const float g = (label - s) * alpha;
                        axpy(g, l2, neu1e.data(), d);
                        axpy(g, l1, l2, d);
                    }
                    ++loss_pairs[stretch];
                    axpy(1.0f, neu1e.data(), l1, d);
                    result.moved[kept[c]] = true;
                    ++result.pairs;
                }
            }
        }
    }
    if (settings.progress) settings.progress(total, total);
    for (std::size_t p = 0; p < points; ++p) {
        if (loss_pairs[p] > 0) result.loss.push_back(loss_sum[p] / static_cast<double>(loss_pairs[p]));
    }
    return result;
}

SkipgramResult train_baseline(const SkipgramCorpus& corpus, const SkipgramSettings& settings) {
    return train_loop(corpus, settings);
}

__attribute__((target("avx2"))) SkipgramResult train_avx2(const SkipgramCorpus& corpus, const SkipgramSettings& settings) {
    return train_loop(corpus, settings);
}

}  // namespace

SkipgramResult train_skipgram(const SkipgramCorpus& corpus, const SkipgramSettings& settings) {
    return __builtin_cpu_supports("avx2") ? train_avx2(corpus, settings) : train_baseline(corpus, settings);
}

}  // namespace embdemo
