// `embdemo bag`: nn.EmbeddingBag as a multi-hot product. Each bag of ids is reduced to one
// vector: the sum of its rows of E, their mean, or their element-wise max. Sum and mean are a
// multi-hot matrix M (B x V: counts, counts / bag length, or summed per-sample weights) times E;
// max has no matrix form. The bag's own arithmetic is PyTorch's CPU kernel, bit for bit; M @ E
// adds the same terms in another order (by vocabulary id, after scaling), so the two may differ
// in the last bits, and the lesson measures by how many ulps. Pure: no printing, no files.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/ids.hpp"
#include "core/table_sizes.hpp"
#include "core/matrix.hpp"
#include "core/named_values.hpp"

namespace embdemo {

enum class BagMode { sum, mean, max };

// nn.EmbeddingBag's modes, in the order its documentation lists them.
inline constexpr NamedValue<BagMode> k_bag_modes[] = {
    {"sum", BagMode::sum}, {"mean", BagMode::mean}, {"max", BagMode::max}};

const char* bag_mode_name(BagMode mode);  // "sum", "mean", "max"

struct BagRequest : TableSizes {
    Bags bags;
    // With a text, the data loader's batch whose windows are the bags (its tokens and targets,
    // for the views); empty for typed --bags.
    IdBatch windows;
    BagMode mode = BagMode::mean;              // PyTorch's default
    std::optional<std::int64_t> padding_idx;   // as given: -V <= K < V (checked by the caller)
    std::vector<float> per_sample_weights;     // one per id (sum mode only), or empty
};

// Where M @ E and the bag's output differ most. The distance counts float32 bit patterns in
// order, so +0 against -0 is 1 and a pair with inf or nan gives a number that measures no
// rounding: the counts below let a view say so.
struct UlpDifference {
    std::uint64_t ulps = 0;      // 0: identical
    std::size_t bag = 0;
    std::size_t column = 0;
    std::size_t differing = 0;   // values whose bits differ
    std::size_t zero_signs = 0;  // of those: +0 against -0, equal as numbers
    std::size_t non_finite = 0;  // of those: inf or nan on either side
};

// The ways M @ E's arithmetic departs from the kernel's that changed bits in a bag. Found by
// walking from the kernel's arithmetic to M @ E's one change at a time (sort the ids by k, merge
// a repeated id into one scaled row, divide before adding, round the products the kernel fuses)
// and keeping the changes after which the row's bits differ: a change that cannot matter here
// (two terms in either order, dividing by a power of two, products that are exact) is not named.
struct BagRouteDifferences {
    bool reordered = false;       // adding the rows in order of k
    bool merged_repeats = false;  // a repeated id's count or summed weights scaling its row once
    bool divided_first = false;   // mean: scaling by count / n before adding, not dividing after
    bool fused = false;           // rounding each w * E[k] before adding, where the kernel fuses
    bool any() const { return reordered || merged_repeats || divided_first || fused; }
    bool reached = false;         // the walk ended on M @ E's row bit for bit (the tests hold it)
};

struct BagLesson {
    BagRequest request;
    std::optional<std::size_t> padding_row;  // padding_idx resolved to a row
    Matrix weight;            // E, V x d: nn.EmbeddingBag(V, d, padding_idx=K).weight (row K zero)
    Matrix output;            // B x d: bag(input, offsets, per_sample_weights), PyTorch's arithmetic
    std::vector<std::size_t> bag_sizes;  // ids per bag that count (padding excluded): mean's divisor
    Matrix multihot;          // M, B x V (sum and mean; empty for max)
    Matrix multihot_matmul;   // the in-order M @ E: embdemo's reference arithmetic, each M[b, k] * E[k]
                              // rounded, then added in order of k from +0 (sum and mean; empty for max)
    Matrix torch_matmul;      // M @ E as PyTorch's `@` computes it on this machine: the BLAS (sum and mean)
    Matrix winners;           // max: B x d, the id whose row won each column, -1 for an empty bag
    UlpDifference difference; // output vs multihot_matmul (sum and mean)
    UlpDifference torch_difference; // output vs torch_matmul (sum and mean)
};

// EmbeddingBag's forward on the CPU as PyTorch 1.13 computes it (aten EmbeddingBag.cpp):
// every bag starts at +0 and adds its rows in bag order, skipping padding_idx; with
// per-sample weights, fmaf(w, E[k][j], acc) when there is no padding_idx (the vectorised
// kernel) and acc + w * E[k][j] when there is (the generic loop); mean divides the sum by
// max(count, 1) afterwards; max keeps the first row, then replaces where another row is
// strictly larger. Empty bags give zeros. `winners` is filled for max.
Matrix embedding_bag_forward(const Matrix& weight, const BagRequest& request, std::optional<std::size_t> padding_row,
                             Matrix* winners);

// M for sum and mean: M[b][k] = count of k in bag b (or the sum of its per-sample weights, in
// bag order), divided by the bag's count for mean; the padding column stays 0.
Matrix multihot_matrix(const BagRequest& request, std::optional<std::size_t> padding_row);

// The request must be valid: ids < V, weights only with sum, sizes within the caps.
BagLesson run_bag_lesson(const BagRequest& request);

// The changes that matter in bag b; with nullopt, in any bag whose two rows differ.
BagRouteDifferences route_differences(const BagLesson& lesson, std::optional<std::size_t> bag);

// One step of a traced bag: a row of E added (scaled by `scale`: 1, a per-sample weight or an
// entry of M), a padding id skipped, the division of mean, max's first counted row, or a later
// row offered to max. `row` is the running result after the step (empty for a skipped id).
struct BagStep {
    enum class Kind { add, skip_padding, divide, max_take, max_offer };
    Kind kind = Kind::add;
    std::uint64_t id = 0;      // the row of E (not for divide)
    float scale = 1.0f;        // add: the factor; divide: the divisor
    std::size_t taken = 0;     // max_offer: columns this row won (all of them for the first)
    std::vector<float> row;
};

// The steps of one reduction, the first and last few kept (a bag may hold a million ids). One
// step more than shown is kept at the end, so that a single step is never left out.
struct BagSteps {
    static constexpr std::size_t k_head = 6;
    static constexpr std::size_t k_tail = 3;
    std::vector<BagStep> head;
    std::vector<BagStep> tail;  // the last steps after the head, oldest first (up to k_tail + 1)
    std::size_t dropped = 0;    // steps between head and tail that were not kept
    void record(BagStep step);
    std::size_t total() const { return head.size() + dropped + tail.size(); }
    std::size_t hidden() const;                  // steps a view leaves out: 0, or 2 and more
    std::vector<const BagStep*> shown() const;   // the rest, in order
};

// Bag b computed again one step at a time, both ways: PyTorch's order (the same arithmetic as
// embedding_bag_forward) and, for sum and mean, M @ E's (row b of M's nonzero entries in order
// of k: the zero terms add +-0 to a sum that is never -0, which changes no bit). Each ends with
// whether its last row has the lesson's bits; the tests hold both true.
struct BagTrace {
    std::size_t bag = 0;
    BagSteps bag_steps;
    BagSteps product_steps;  // empty for max
    std::vector<float> bag_row;      // the final rows
    std::vector<float> product_row;
    bool bag_matches = false;        // bag_row == output row b, bit for bit
    bool product_matches = false;    // product_row == multihot_matmul row b (sum, mean)
    UlpDifference difference;        // output row b vs M @ E row b (sum, mean)
    BagRouteDifferences ways;        // route_differences(lesson, b) (sum, mean)
};

BagTrace trace_bag(const BagLesson& lesson, std::size_t b);

// Which bags --trace shows: the first k_max_traced_bags, and the bag where M @ E differs most
// when it is not among them.
inline constexpr std::size_t k_max_traced_bags = 8;
std::vector<std::size_t> traced_bags(const BagLesson& lesson);

}  // namespace embdemo
