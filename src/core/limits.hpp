// Size caps that keep every run to seconds, not minutes. Sizes are checked against them before
// anything is allocated, so an absurd --vocab is a clear error, not a crash or a swap storm.
// The memory a whole run holds is budgeted separately (core/memory.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace embdemo {

// 2^26 float32 values = 256 MiB per matrix: enough for GPT-2's token table (50,257 x 768).
inline constexpr std::uint64_t k_max_matrix_values = std::uint64_t{1} << 26;

// Multiply-adds in the dense one-hot product (n * V * d), which goes through the BLAS a block of
// X's rows at a time: 2^40 is about 30 s for each of the lesson's two products on one core of
// the development machine (37 G multiply-adds a second), so a chapter of text (5,145 GPT-2
// tokens, 2.0 x 10^11 at d = 768) fits with room, and so does a 1 MB text at d = 64.
// docs/usage.md ("How long runs take") says how to repeat the measurement.
inline constexpr std::uint64_t k_max_product_terms = std::uint64_t{1} << 40;

// The work of a product whose d is small is not its multiply-adds: each value of X (n x V) is
// read and multiplied whatever d is, and takes about as long as 24 multiply-adds (the dense
// kernel and the BLAS alike: 0.9 ns a value at d = 1 to 16, against 0.037 ns a multiply-add at
// d = 256, on the development machine), and each of tied's logits (n x V, made, compared and
// checked) as long as about 100. So the caps count d as at least these, and hold a product's
// time for every d: 16 MiB of text at d = 1 took 629 s when n x V x d was counted as it is.
inline constexpr std::uint64_t k_least_work_dim = 32;
inline constexpr std::uint64_t k_least_logits_work_dim = 128;

// The lessons that still hold X whole (and bag's multi-hot M, also summed by embdemo's own
// in-order loop): at the limit (55 ids at GPT-2's size) a run took 8.3-9.5 s wall.
inline constexpr std::uint64_t k_max_held_product_terms = std::uint64_t{1} << 31;

// a * b, or nullopt when it does not fit in 64 bits.
std::optional<std::uint64_t> checked_multiply(std::uint64_t a, std::uint64_t b);

// How a lesson holds the one-hot side of its product.
enum class OneHotHeld {
    whole,      // X (n x V) and the results (n x d) are matrices of their own, each under the cap
    in_blocks,  // blocks of X's rows (core/kernels/onehot_products.hpp): positions, factor; the
                // results (n x d) are still under the matrix cap
    in_blocks_budgeted,  // the lookup lesson: blocks of X, and its results are budgeted by
                         // --max-memory (run_memory.cpp) instead of capped here
    multihot,   // EmbeddingBag's M (B x V), summed by the in-order loop too
    none_logits_in_blocks,  // the tied lesson: no X at all; its logits H @ E.T (n x V, the
                            // product's shape) are made a block of rows of H at a time
                            // (core/kernels/linear_blocks.hpp), and H (n x d) is under the cap
};

// nullopt when a demo with these sizes fits the caps; otherwise a message that names the
// offending matrix, its size, the memory it would need and the cap. With OneHotHeld::multihot,
// the rows are EmbeddingBag's bags and the product is the multi-hot M @ E.
std::optional<std::string> check_demo_sizes(std::uint64_t id_count, std::uint64_t vocab_size,
                                            std::uint64_t dim, OneHotHeld held = OneHotHeld::whole);

// "37.3 GiB": the memory `values` float32 numbers take.
std::string describe_float32_bytes(std::uint64_t values);

// "1.1 GiB", "512.0 MiB", "900 bytes".
std::string describe_bytes(std::uint64_t bytes);

// "1,234,567": large counts in messages and in the text view are easier to read grouped.
std::string group_thousands(std::uint64_t value);

// "1 token id", "3 token ids", "1,024 pieces".
std::string count_of(std::uint64_t count, const char* singular, const char* plural);

// "all 15 values", or "the only value" when there is one: a verdict's subject.
std::string all_values(std::uint64_t count);

// "3 of 15 values differ", "1 of 6 values differs", "the only value differs", "both values
// differ", "all 15 values differ"; `of_what` (" of dE") follows the noun.
std::string differing_values(std::uint64_t differing, std::uint64_t total, const std::string& of_what = "");

}  // namespace embdemo
