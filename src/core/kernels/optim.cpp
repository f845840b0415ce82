// torch.optim's single-tensor SGD, Adam and AdamW updates (1.13), one element at a time, with
// every rounding PyTorch's CPU kernels make. Each tensor operation of the Python code is one loop
// here, in the same order, because the order of roundings is what the bits depend on:
// - x.add(y, alpha=a) is fma(y, float(a), x): the AVX2 kernel fuses it and GCC contracted the
//   scalar tail too (checked against torch on tensors of 37 and 1031 elements);
// - x.mul_(s) is x * float(s); x / s is x / float(s): Python scalars become float operands;
// - x.addcmul_(y, z, value=v) is fma(float(v) * y, z, x) (torch's v * y * z + x, contracted);
// - x.addcdiv_(y, z, value=v) is x + (float(v) * y) / z (nothing to fuse across the division);
// - the bias corrections are Python floats: double arithmetic and glibc's pow, as in Python.
// Compiled with -ffp-contract=off so that only the fmas written here are fused.
#include "core/kernels/optim.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/torch/init.hpp"
#include "core/kernels/sparse_grad.hpp"
#include "core/torch/torch_rng.hpp"

namespace embdemo {

OptimizerSettings sgd_settings(double lr, double momentum, double weight_decay) {
    OptimizerSettings settings;
    settings.kind = OptimizerKind::sgd;
    settings.lr = lr;
    settings.momentum = momentum;
    settings.weight_decay = weight_decay;
    return settings;
}

OptimizerSettings adam_settings(double lr, double weight_decay) {
    OptimizerSettings settings;
    settings.kind = OptimizerKind::adam;
    settings.lr = lr;
    settings.weight_decay = weight_decay;
    return settings;
}

OptimizerSettings adamw_settings(double lr, double weight_decay) {
    OptimizerSettings settings = adam_settings(lr, weight_decay);
    settings.kind = OptimizerKind::adamw;
    return settings;
}

bool Optimizer::carries_state(std::size_t row) const {
    const auto nonzero = [row](const Matrix& m) {
        if (m.rows == 0) return false;  // no state yet: torch creates it in the first step
        for (std::size_t j = 0; j < m.cols; ++j) {
            if (m.at(row, j) != 0.0f) return true;
        }
        return false;
    };
    return nonzero(m_momentum_buffer) || nonzero(m_exp_avg) || nonzero(m_exp_avg_sq);
}

void Optimizer::step(Matrix& param, const Matrix& grad) {
    if (m_settings.kind == OptimizerKind::sgd) {
        sgd_step(param, grad);
    } else {
        adam_step(param, grad);
    }
}

void Optimizer::sgd_step(Matrix& param, const Matrix& grad) {
    std::vector<float>& p = param.values;
    std::vector<float> d_p = grad.values;
    if (m_settings.weight_decay != 0.0) {  // d_p = d_p.add(param, alpha=weight_decay)
        const auto decay = static_cast<float>(m_settings.weight_decay);
        for (std::size_t i = 0; i < p.size(); ++i) d_p[i] = std::fma(p[i], decay, d_p[i]);
    }
    if (m_settings.momentum != 0.0) {
        if (m_momentum_buffer.values.empty()) {  // buf = torch.clone(d_p)
            m_momentum_buffer = Matrix(param.rows, param.cols);
            m_momentum_buffer.values = d_p;
        } else {  // buf.mul_(momentum).add_(d_p, alpha=1 - dampening), dampening 0: a plain add
            const auto momentum = static_cast<float>(m_settings.momentum);
            std::vector<float>& buf = m_momentum_buffer.values;
            for (std::size_t i = 0; i < buf.size(); ++i) buf[i] = buf[i] * momentum + d_p[i];
        }
        d_p = m_momentum_buffer.values;
    }
    const auto neg_lr = static_cast<float>(-m_settings.lr);  // param.add_(d_p, alpha=-lr)
    for (std::size_t i = 0; i < p.size(); ++i) p[i] = std::fma(d_p[i], neg_lr, p[i]);
}

void Optimizer::adam_step(Matrix& param, const Matrix& grad) {
    const OptimizerSettings& s = m_settings;
    if (m_exp_avg.values.empty()) {  // torch.zeros_like(p), at the first step
        m_exp_avg = Matrix(param.rows, param.cols);
        m_exp_avg_sq = Matrix(param.rows, param.cols);
    }
    std::vector<float>& p = param.values;
    std::vector<float> g = grad.values;
    std::vector<float>& m = m_exp_avg.values;
    std::vector<float>& v = m_exp_avg_sq.values;
    m_step += 1.0f;  // step_t += 1 on a float32 tensor
    if (s.kind == OptimizerKind::adamw) {  // param.mul_(1 - lr * weight_decay)
        const auto decay = static_cast<float>(1.0 - s.lr * s.weight_decay);
        for (float& value : p) value = value * decay;
    } else if (s.weight_decay != 0.0) {  // grad = grad.add(param, alpha=weight_decay)
        const auto decay = static_cast<float>(s.weight_decay);
        for (std::size_t i = 0; i < p.size(); ++i) g[i] = std::fma(p[i], decay, g[i]);
    }
    // exp_avg.mul_(beta1).add_(grad, alpha=1 - beta1)
    const auto beta1 = static_cast<float>(s.beta1);
    const auto one_minus_beta1 = static_cast<float>(1.0 - s.beta1);
    for (std::size_t i = 0; i < m.size(); ++i) m[i] = std::fma(g[i], one_minus_beta1, m[i] * beta1);
    // exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
    const auto beta2 = static_cast<float>(s.beta2);
    const auto one_minus_beta2 = static_cast<float>(1.0 - s.beta2);
    for (std::size_t i = 0; i < v.size(); ++i) {
        v[i] = std::fma(one_minus_beta2 * g[i], g[i], v[i] * beta2);
    }
    const double step = static_cast<double>(m_step);  // step_t.item()
    const double bias_correction1 = 1.0 - std::pow(s.beta1, step);
    const double bias_correction2 = 1.0 - std::pow(s.beta2, step);
    const double step_size = s.lr / bias_correction1;
    const auto bias_correction2_sqrt = static_cast<float>(std::sqrt(bias_correction2));
    const auto eps = static_cast<float>(s.eps);
    const auto neg_step_size = static_cast<float>(-step_size);
    for (std::size_t i = 0; i < p.size(); ++i) {
        // denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)
        const float denom = std::sqrt(v[i]) / bias_correction2_sqrt + eps;
        // param.addcdiv_(exp_avg, denom, value=-step_size)
        p[i] = p[i] + (neg_step_size * m[i]) / denom;
    }
}

TokenIds step_batch(const IdBatch& ids, std::size_t step) {
    return ids.batched ? ids.row(step % ids.batch) : ids.values;
}

std::vector<RowChange> changed_rows(const Matrix& before, const Matrix& after, const TokenIds& batch) {
    std::vector<RowChange> changes;
    for (std::size_t k = 0; k < after.rows; ++k) {
        const float* old_row = before.row(k);
        const float* new_row = after.row(k);
        if (std::memcmp(old_row, new_row, after.cols * sizeof(float)) == 0) continue;
        RowChange change;
        change.row = k;
        change.in_batch = std::find(batch.begin(), batch.end(), k) != batch.end();
        for (std::size_t j = 0; j < after.cols; ++j) {
            if (std::memcmp(&old_row[j], &new_row[j], sizeof(float)) == 0) continue;
            if (std::isnan(new_row[j])) {
                // A NaN is no distance: std::max(0.0, NaN) would report a move of 0.
                ++(std::isnan(old_row[j]) ? change.nan_changed : change.became_nan);
                continue;
            }
            // In double, the difference of two floats is exact (or nearly so): no rounding to 0.
            // From NaN to a number the difference is NaN too: counted as moved, by no distance.
            const double delta = std::fabs(double{new_row[j]} - double{old_row[j]});
            ++change.moved;
            if (!std::isnan(delta)) change.max_abs_delta = std::max(change.max_abs_delta, delta);
        }
        changes.push_back(change);
    }
    return changes;
}

namespace {

Matrix upstream_for(UpstreamKind kind, TorchGenerator& generator, std::size_t rows, std::size_t cols) {
    if (kind == UpstreamKind::randn) return torch_randn(generator, rows, cols);
    Matrix ones(rows, cols);
    std::fill(ones.values.begin(), ones.values.end(), 1.0f);
    return ones;
}

}  // namespace

void as_grad_after_zero_grad(Matrix& grad) {
    for (float& value : grad.values) value = 0.0f + value;
}

std::vector<RowChange> ledgered_step(Optimizer& optimizer, Matrix& weight, const Matrix& grad, const TokenIds& batch) {
    const Matrix before = weight;
    std::vector<bool> carried(weight.rows, false);
    for (std::size_t k = 0; k < weight.rows; ++k) carried[k] = optimizer.carries_state(k);
    optimizer.step(weight, grad);
    std::vector<RowChange> changes = changed_rows(before, weight, batch);
    for (RowChange& change : changes) {
        change.carried = carried[change.row];
        const float* row = before.row(change.row);
        change.decayed = optimizer.settings().weight_decay != 0.0 &&
                         std::any_of(row, row + before.cols, [](float v) { return v != 0.0f; });
    }
    return changes;
}

TrainingRun run_training(const TrainingArgs& args) {
    TorchGenerator generator(args.seed);
    TrainingRun run;
    Matrix weight = torch_embedding_weight(generator, args.vocab_size, args.dim,
                                           args.embedding.padding_row);
    run.initial_weight = weight;
    Optimizer optimizer(args.optimizer);
    for (std::size_t t = 0; t < args.steps; ++t) {
        TrainingStep step;
        step.batch = step_batch(args.ids, t);
        step.upstream = upstream_for(args.upstream, generator, step.batch.size(), args.dim);
        step.grad = embedding_backward(step.upstream, step.batch, args.vocab_size, args.embedding);
        if (t > 0) as_grad_after_zero_grad(step.grad);
        if (args.sparse) {
            // The gradient torch hands the optimizer is the sparse one; step.grad is its dense
            // equivalent (to_dense() adds the same terms in the same order), for the view.
            const Matrix before = weight;
            sparse_sgd_step(weight, sparse_embedding_backward(step.upstream, step.batch, args.embedding.padding_row),
                            args.optimizer.lr);
            step.changed = changed_rows(before, weight, step.batch);
        } else {
            step.changed = ledgered_step(optimizer, weight, step.grad, step.batch);
        }
        step.weight = weight;
        run.steps.push_back(std::move(step));
    }
    return run;
}

}  // namespace embdemo
