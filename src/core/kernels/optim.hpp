// torch.optim's SGD, Adam and AdamW (PyTorch 1.13, CPU, float32, the default single-tensor
// path: 1.13 turns foreach=None into False) applied to an embedding table, and a short training
// run over a sequence of batches that records which rows of E each step moved. The lesson: the
// gradient touches only the used rows, and so does plain SGD; Adam's moments keep moving a row
// after it left the batch, and AdamW's weight decay moves every row.
//
// Not modelled: nesterov, dampening, amsgrad, maximize, capturable/differentiable, and sparse
// gradients with anything but plain SGD.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/kernels/embedding.hpp"
#include "core/table_sizes.hpp"
#include "core/kernels/grad.hpp"
#include "core/ids.hpp"
#include "core/matrix.hpp"
#include "core/named_values.hpp"

namespace embdemo {

enum class OptimizerKind { sgd, adam, adamw };

// --optimizer's words, and the torch.optim class each one is.
inline constexpr NamedValue<OptimizerKind> k_optimizers[] = {
    {"sgd", OptimizerKind::sgd}, {"adam", OptimizerKind::adam}, {"adamw", OptimizerKind::adamw}};
inline constexpr NamedValue<OptimizerKind> k_optimizer_classes[] = {
    {"SGD", OptimizerKind::sgd}, {"Adam", OptimizerKind::adam}, {"AdamW", OptimizerKind::adamw}};

// The hyper-parameters, as doubles, as Python passes them. Build them with the factories below,
// whose defaults are torch's constructor defaults.
struct OptimizerSettings {
    OptimizerKind kind = OptimizerKind::sgd;
    double lr = 0.0;
    double momentum = 0.0;      // SGD only
    double weight_decay = 0.0;  // SGD, Adam: added to the gradient; AdamW: decoupled decay
    double beta1 = 0.9;         // Adam, AdamW
    double beta2 = 0.999;
    double eps = 1e-8;
};

// torch.optim.SGD(params, lr, momentum, weight_decay=...) (torch has no default lr for SGD).
OptimizerSettings sgd_settings(double lr, double momentum = 0.0, double weight_decay = 0.0);
// torch.optim.Adam(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0)
OptimizerSettings adam_settings(double lr = 1e-3, double weight_decay = 0.0);
// torch.optim.AdamW(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2)
OptimizerSettings adamw_settings(double lr = 1e-3, double weight_decay = 1e-2);

// One optimizer over one parameter (the embedding table), with torch's state: SGD's momentum
// buffer is created from the first step's gradient; Adam's exp_avg, exp_avg_sq start at 0 and
// its step counter at 0 (a float32 tensor in 1.13).
class Optimizer {
public:
    explicit Optimizer(OptimizerSettings settings) : m_settings(settings) {}

    // optimizer.step() for a parameter whose .grad is `grad` (same shape as `param`).
    void step(Matrix& param, const Matrix& grad);

    const OptimizerSettings& settings() const { return m_settings; }

    // The state kept from earlier steps (SGD's momentum buffer, Adam's exp_avg or exp_avg_sq)
    // holds a non-zero value in `row`: the next step moves that row even with a zero gradient.
    bool carries_state(std::size_t row) const;

private:
    void sgd_step(Matrix& param, const Matrix& grad);
    void adam_step(Matrix& param, const Matrix& grad);

    OptimizerSettings m_settings;
    Matrix m_momentum_buffer;  // SGD; empty until the first step (torch's None)
    Matrix m_exp_avg;          // Adam, AdamW; empty until the first step
    Matrix m_exp_avg_sq;
    float m_step = 0.0f;
};

enum class UpstreamKind { randn, ones };

// torch.manual_seed(seed); emb = nn.Embedding(V, d, padding_idx, scale_grad_by_freq);
// opt = <optimizer>(emb.parameters(), ...); then for t in range(steps):
//     batch = ids[t % B] (a flat list is the batch of every step)
//     G = torch.randn(T, d) (or torch.ones(T, d))
//     opt.zero_grad(); emb(batch).backward(G); opt.step()
// Ids are validated by the caller (every id < vocab_size).
struct TrainingArgs : TableSizes {
    IdBatch ids;
    EmbeddingOptions embedding;
    UpstreamKind upstream = UpstreamKind::randn;
    OptimizerSettings optimizer;
    std::size_t steps = 1;
    bool sparse = false;  // nn.Embedding(sparse=True): plain SGD only (core/kernels/sparse_grad's step)
};

// A row of E that a step moved.
struct RowChange {
    std::size_t row = 0;
    double max_abs_delta = 0.0;  // the largest |after - before| over the values that are not NaN after
    std::size_t moved = 0;       // values whose bits changed and are not NaN after the step
    std::size_t became_nan = 0;  // values that were a number before the step and are NaN after it
    std::size_t nan_changed = 0; // values NaN before and after, with other bits (another payload)
    bool in_batch = false;       // the step's batch used this row (padding row included)
    // Why a row outside the batch could move (both may hold), each checked before the step:
    bool decayed = false;  // weight_decay != 0 and the row held a non-zero value
    bool carried = false;  // the optimizer's state from earlier steps was non-zero in the row
};

struct TrainingStep {
    TokenIds batch;                  // the ids of this step
    Matrix upstream;                 // G, T x d
    Matrix grad;                     // emb.weight.grad, V x d
    Matrix weight;                   // E after the step, V x d
    std::vector<RowChange> changed;  // rows whose bits changed, ascending
};

// Every step keeps its G, dE and E, so a run holds about (2 * V * d + T * d) * steps floats:
// callers cap V * d * steps before they start one.
struct TrainingRun {
    Matrix initial_weight;
    std::vector<TrainingStep> steps;
};

// The batch step `step` (from 0) uses: row step mod B of a batch, or the whole flat list.
TokenIds step_batch(const IdBatch& ids, std::size_t step);

// Rows of `after` whose bits differ from `before`, with the largest change of each.
std::vector<RowChange> changed_rows(const Matrix& before, const Matrix& after, const TokenIds& batch);

TrainingRun run_training(const TrainingArgs& args);

// The gradient of a step after the first, as torch holds it: 1.13's zero_grad() keeps .grad and
// fills it with +0, and backward then adds into it (the first backward stores its result
// directly): +0 + x, which turns -0 into +0.
void as_grad_after_zero_grad(Matrix& grad);

// optimizer.step() on `weight` with its .grad `grad`, and the rows it moved with why: in `batch`,
// decayed (weight decay on a non-zero row), carried (the optimizer's state was non-zero there).
std::vector<RowChange> ledgered_step(Optimizer& optimizer, Matrix& weight, const Matrix& grad, const TokenIds& batch);

}  // namespace embdemo
