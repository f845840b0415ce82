#include "core/lessons/factor_lesson.hpp"

#include "core/torch/init.hpp"
#include "core/kernels/onehot_products.hpp"
#include "core/kernels/torch_matmul.hpp"
#include "core/torch/torch_rng.hpp"

namespace embdemo {

FactorParameters factor_parameters(std::uint64_t vocab_size, std::uint64_t dim, std::uint64_t rank) {
    return {vocab_size * dim, vocab_size * rank + rank * dim};
}

FactorLesson run_factor_lesson(const FactorRequest& request) {
    FactorLesson lesson;
    lesson.request = request;
    // torch.manual_seed(seed); e1 = nn.Embedding(V, r); proj = nn.Linear(r, d, bias=False)
    TorchGenerator generator(request.seed);
    lesson.e1 = torch_embedding_weight(generator, request.vocab_size, request.rank);
    const Matrix proj_weight = torch_linear_weight(generator, request.rank, request.dim);  // d x r
    lesson.e2 = transpose(proj_weight);
    const TokenIds& ids = request.ids.values;
    lesson.lookup_e1 = lookup(lesson.e1, ids);
    lesson.onehot_e1 = onehot_mm(ids, lesson.e1);
    // proj(x) = F.linear(x, proj.weight) = x @ E2, through the BLAS exactly as PyTorch calls it.
    lesson.output = torch_linear(lesson.lookup_e1, proj_weight);
    lesson.onehot_output = torch_linear(lesson.onehot_e1, proj_weight);
    lesson.first_check = compare_exact(lesson.lookup_e1, lesson.onehot_e1);
    lesson.output_check = compare_exact(lesson.output, lesson.onehot_output);
    lesson.here = factor_parameters(request.vocab_size, request.dim, request.rank);
    lesson.albert = factor_parameters(k_albert_vocab, k_albert_dim, k_albert_rank);
    return lesson;
}

}  // namespace embdemo
