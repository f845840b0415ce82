// The two files the TensorFlow Embedding Projector (projector.tensorflow.org, "Load") reads:
// vectors.tsv, one row of E per line with tab-separated values, and metadata.tsv, one label per
// line in the same order (a single column, so no header line). Nothing else is written: the
// projector computes its own PCA/t-SNE views.
#pragma once

#include <string>
#include <vector>

#include "core/matrix.hpp"

namespace embdemo {

// E as vectors.tsv: shortest round-trip floats (nan, inf, -inf as such).
std::string render_projector_vectors(const Matrix& weight);

// metadata.tsv: the given labels, or the token ids 0..V-1 when `labels` is empty.
std::string render_projector_metadata(std::size_t vocab_size, const std::vector<std::string>& labels);

}  // namespace embdemo
