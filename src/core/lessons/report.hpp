// Everything one demonstration computes, as plain data: the request it answers, the matrices
// and the verdict. Renderers turn a DemoReport into text; nothing here prints.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/kernels/difference.hpp"
#include "core/table_sizes.hpp"
#include "core/kernels/embedding.hpp"
#include "core/kernels/onehot_products.hpp"
#include "core/ids.hpp"
#include "core/matrix.hpp"
#include "core/memory.hpp"
#include "core/named_values.hpp"

namespace embdemo {

// Where E comes from, so that every view can say so.
struct WeightOrigin {
    enum class Kind {
        torch,          // nn.Embedding(V, d) after torch.manual_seed(seed)
        torch_randint,  // torch.randint(-9, 10, (V, d)) after torch.manual_seed(seed)
        index_pattern,  // E[k][j] = k * 10^m + j (detail spells the formula)
        file,           // loaded from a file (detail is its path)
    };
    Kind kind = Kind::torch;
    std::string detail;  // what the views print about a non-torch origin (e.g. a file's path)
    // A file's table, once read, holds inf or nan: the products then go to the BLAS, and F.linear
    // gets nn.Linear's W = E.T made (onehot_products.hpp), which the run's memory must count.
    bool special_values = false;
};

// --init's kinds, by the words the command line and the JSON's weight_source use (a file's table
// is --weights', "file").
inline constexpr NamedValue<WeightOrigin::Kind> k_init_kinds[] = {
    {"torch", WeightOrigin::Kind::torch},
    {"index", WeightOrigin::Kind::index_pattern},
    {"randint", WeightOrigin::Kind::torch_randint},
};

struct DemoRequest : TableSizes {
    TokenIds ids;           // flat, row-major for a batch
    IdShape shape;          // a list, or B x T
    IdSource source;        // the text and tokens, when the ids came from --text

    // Where V came from, so that a view never credits --vocab with a size it did not set.
    enum class VocabSource {
        option,          // --vocab
        largest_id,      // max(ids) + 1 (vocab_inferred)
        weights_file,    // the rows of --weights
        tokenizer,       // --text or --text-file without --vocab: the tokenizer's V (GPT-2's 50,257)
    };
    VocabSource vocab_source = VocabSource::option;
    WeightOrigin origin;

    IdBatch id_batch() const { return {ids, shape.batch, shape.seq, shape.batched, source}; }
};

// What each form took on this machine, for the verdict's timing sentence (never in a view unless
// asked for: it changes from run to run).
struct FormTiming {
    double lookup_seconds = 0;   // E[ids]
    double product_seconds = 0;  // one_hot(ids) @ E, the whole dense product
    unsigned product_threads = 1;
    bool through_blas = false;  // E held inf or nan: the BLAS, as PyTorch calls it (onehot_products.hpp)
};

struct DemoReport {
    DemoRequest request;
    Matrix weight;          // E, V x d, from request.origin
    Matrix onehot;          // X, n x V; empty (0 x 0) when X is too large to print (k_onehot_kept_values)
    Matrix lookup;          // E[ids], n x d
    Matrix onehot_matmul;   // X·E, n x d
    Matrix linear_output;   // X·Wᵀ with W = Eᵀ (d x V), i.e. nn.Linear(V, d, bias=False)
    Comparison verdict;          // lookup vs onehot_matmul
    Comparison linear_verdict;   // lookup vs linear_output
    std::optional<Difference> difference;  // where and why lookup and onehot_matmul first differ
    FormTiming timing;
};

// X is kept for the views up to this many values, the most a json, csv or tsv view prints;
// past it the products make X a block of rows at a time and nothing of size n x V is held.
inline constexpr std::uint64_t k_onehot_kept_values = std::uint64_t{1} << 24;

// Computes the whole demonstration from the request and its embedding matrix E (V x d), however
// E was made (torch's seeded init, a file, a hand-checkable pattern). The request must already
// be valid: every id < vocab_size and the sizes within check_demo_sizes.
// The buffers build_demo_report holds at its peak for n ids, vocabulary V and dimension d, with E
// from `origin` (a file's read values, its inf or nan: WeightOrigin::special_values): one entry
// per matrix it keeps or makes on the way, so change the two together. The last entry is the
// products' work space; a file's table may add, second, what its reading takes beyond the rest.
std::vector<Buffer> demo_buffers(std::uint64_t ids, std::uint64_t vocab_size, std::uint64_t dim,
                                 const WeightOrigin& origin = {});

// A request whose origin is not a file promises an E without inf or nan (PyTorch's and the
// pattern inits draw none): its products then take the dense kernel without scanning E.
// `progress` hears of the long products' rows as they are done.
DemoReport build_demo_report(const DemoRequest& request, Matrix weight, const ProductProgress& progress = {});

}  // namespace embdemo
