// The two files the TensorFlow Embedding Projector (projector.tensorflow.org, "Load") reads:
// vectors.tsv, one row of E per line with tab-separated values, and metadata.tsv, one line per
// row of E in the same order. metadata.tsv has one column (the --labels, or the row's id) and
// then no header line, as the projector reads a single column; with tokens (--text) it has two,
// "id" or "label" and "token", under a header line, which the projector requires of two or more.
// Nothing else is written: the projector computes its own PCA/t-SNE views.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/matrix.hpp"

namespace embdemo {

// E as vectors.tsv: shortest round-trip floats (nan, inf, -inf as such). Rows `first` to
// `end` - 1 only, so that a large table can be written a piece at a time.
std::string render_projector_vectors(const Matrix& weight, std::size_t first, std::size_t end);

// What metadata.tsv says of each row of E.
struct ProjectorMetadata {
    const std::vector<std::string>& labels;  // one per row (--labels), or empty: the row's id
    // The row's GPT-2 token as views quote it (token_label, whose escapes leave no tab or line
    // break), or empty: no token column.
    std::function<std::string(std::uint64_t)> token_of;
};

// The header line ("id\ttoken\n"), or "" for a single column.
std::string render_projector_metadata_header(const ProjectorMetadata& metadata);

// metadata.tsv's lines for rows `first` to `end` - 1.
std::string render_projector_metadata(const ProjectorMetadata& metadata, std::size_t first, std::size_t end);

}  // namespace embdemo
