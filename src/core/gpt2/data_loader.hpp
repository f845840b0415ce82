// The first batch of the book's data loader (chapter 2):
//   create_dataloader_v1(txt, batch_size=B, max_length=T, stride=S, shuffle=False, drop_last=True)
// GPTDatasetV1 cuts the token ids into windows starting at 0, S, 2S, ... while i < N - T (so each
// window of T has its target, the same window shifted by one token); the DataLoader batches B of
// them in order and drops a last, short batch. Pure: the caller tokenizes.
#pragma once

#include <cstdint>
#include <vector>

#include "core/ids.hpp"
#include "core/parse_result.hpp"

namespace embdemo {

struct LoaderSettings {
    std::size_t context = 0;  // T, max_length
    std::size_t stride = 0;   // S
    std::size_t batch = 0;    // B
};

struct LoaderBatch {
    IdBatch inputs;                      // B x T, with each id's token from the source
    std::vector<std::uint64_t> targets;  // B x T, row-major: inputs shifted by one
    std::size_t windows = 0;             // how many windows the whole text makes
};

// The targets as a B x T batch of their own, for views.
IdBatch target_batch(const std::vector<std::uint64_t>& targets, std::size_t batch, std::size_t seq);

// How many windows N tokens make: the i in range(0, N - T, S).
std::size_t count_windows(std::size_t tokens, std::size_t context, std::size_t stride);

// `tokens` is the text's ids as one flat sequence (with their source); settings all >= 1.
ParseResult<LoaderBatch> first_loader_batch(const IdBatch& tokens, const LoaderSettings& settings);

}  // namespace embdemo
