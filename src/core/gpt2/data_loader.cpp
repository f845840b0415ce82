#include "core/gpt2/data_loader.hpp"

#include <string>

#include "core/limits.hpp"

namespace embdemo {

IdBatch target_batch(const std::vector<std::uint64_t>& targets, std::size_t batch, std::size_t seq) {
    IdBatch ids;
    ids.values = targets;
    ids.batch = batch;
    ids.seq = seq;
    ids.batched = true;
    return ids;
}

std::size_t count_windows(std::size_t tokens, std::size_t context, std::size_t stride) {
    if (tokens <= context) return 0;
    return (tokens - context + stride - 1) / stride;
}

ParseResult<LoaderBatch> first_loader_batch(const IdBatch& tokens, const LoaderSettings& settings) {
    using Result = ParseResult<LoaderBatch>;
    const std::size_t n = tokens.values.size();
    const std::size_t t = settings.context;
    if (n <= t) {
        return Result::fail("the text has " + group_thousands(n) + " tokens, and one window of T = " +
                            group_thousands(t) + " needs " + group_thousands(t + 1) +
                            " (its target is the window shifted by one) (allowed: --context below " +
                            group_thousands(n) + ", or a longer text)");
    }
    LoaderBatch batch;
    batch.windows = count_windows(n, t, settings.stride);
    if (batch.windows < settings.batch) {
        return Result::fail("the text makes " + count_of(batch.windows, "window", "windows") + " of T = " +
                            group_thousands(t) + " every S = " + group_thousands(settings.stride) +
                            " tokens, fewer than the batch of B = " + group_thousands(settings.batch) +
                            " (drop_last=True drops a short batch) (allowed: --batch up to " +
                            group_thousands(batch.windows) + ", a smaller --stride or --context, or a longer text)");
    }
    IdBatch& inputs = batch.inputs;
    inputs.batch = settings.batch;
    inputs.seq = t;
    inputs.batched = true;
    inputs.source.text = tokens.source.text;
    inputs.source.token_of = tokens.source.token_of;
    inputs.source.tokenizer = tokens.source.tokenizer;
    inputs.source.vocab_size = tokens.source.vocab_size;
    for (std::size_t b = 0; b < settings.batch; ++b) {
        const std::size_t start = b * settings.stride;
        for (std::size_t k = start; k < start + t; ++k) {
            inputs.values.push_back(tokens.values[k]);
            batch.targets.push_back(tokens.values[k + 1]);
        }
    }
    inputs.source.loader = {settings.batch, settings.context, settings.stride, batch.windows, batch.targets};
    return Result::ok(std::move(batch));
}

}  // namespace embdemo
