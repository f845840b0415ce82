// The two files the TensorFlow Embedding Projector (projector.tensorflow.org, "Load") reads:
// vectors.tsv, one row of E per line with tab-separated values, and metadata.tsv, one label per
// line in the same order (a single column, so no header line). Nothing else is written: the
// projector computes its own PCA/t-SNE views.
#pragma once

#include <string>
#include <vector>

#include "core/matrix.hpp"

namespace embdemo {

// E as vectors.tsv: shortest round-trip floats (nan, inf, -inf as such). Rows `first` to
// `end` - 1 only, so that a large table can be written a piece at a time.
std::string render_projector_vectors(const Matrix& weight, std::size_t first, std::size_t end);

// metadata.tsv, rows `first` to `end` - 1: the given labels, or the token ids when `labels`
// is empty.
std::string render_projector_metadata(const std::vector<std::string>& labels, std::size_t first,
                                      std::size_t end);

}  // namespace embdemo
