// Ids and id-shaped tensors as the text views name them: lists elided to fit 80 columns,
// positions as torch indexes them, shapes with a batch's B x T.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/kernels/embedding.hpp"
#include "core/ids.hpp"

namespace embdemo {

std::string format_ids(const TokenIds& ids);        // "[2, 3, 1]", long lists elided
std::string format_id_batch(const IdBatch& ids);    // a list, or "[[2, 3], [1, 1]]"
// "ids[0], ids[3]", or "ids[0], ids[1], ids[2], ... (5 times)"; "ids[1,0]" in a batch.
std::string describe_positions(const std::vector<std::size_t>& positions, const IdShape& shape);
// "n = 4", or "B x T = 2 x 2" for a batch: the note after the ids in every header.
std::string describe_id_count(const IdShape& shape, std::size_t count);
// "4 x 3", or "2 x 2 x 3" for a B x T batch: the shape of a tensor with one row per id.
std::string per_id_shape(const IdShape& shape, std::size_t count, std::size_t cols);

// "3" for a flat list, "1, 0" for a batch (b, t), as torch indexes ids[...] and G[...].
std::string position_index(const IdBatch& ids, std::size_t flat);
// "G[3]", "G[1, 0]": the row of G at a position.
std::string position_label(const IdBatch& ids, std::size_t flat);

}  // namespace embdemo
