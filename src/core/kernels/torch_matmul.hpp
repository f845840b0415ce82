// Matrix products computed the way PyTorch 1.13's CPU `@` computes them: Debian's PyTorch hands
// every float32 torch.mm / F.linear to the system BLAS (libblas.so.3, OpenBLAS on a default
// Debian), and so does embdemo, with the very arguments ATen's addmm passes. A sum of several
// products then has the BLAS's rounding (fused multiply-adds, its own order of k), and special
// values (inf, NaN payloads, -0.0) come out as PyTorch's do, so a verdict about "X @ E" is a
// verdict about what PyTorch prints on this machine (tests/scripts/torch_live.py checks it).
//
// Shape legend: A is n x k, B is k x m, the result n x m; all row-major (contiguous tensors).
// The BLAS is opened on first use (dlopen), so lessons without a product never pay for it, in
// one thread and with OpenBLAS's Sandybridge kernel where the CPU has AVX, so that the digits do
// not depend on the machine; PyTorch gives the same bits with OPENBLAS_NUM_THREADS=1 and
// OPENBLAS_CORETYPE=Sandybridge (the live tests and the exported scripts set both).
#pragma once

#include "core/matrix.hpp"

namespace embdemo {

// Opens the BLAS now rather than in the first product (a few milliseconds), so that a product's
// measured time is the product's.
void load_blas();

// torch.mm(a, b) for contiguous a (n x k) and b (k x m).
Matrix torch_mm(const Matrix& a, const Matrix& b);

// F.linear(x, w) without bias = x @ w.T for contiguous x (n x k) and w (m x k), as nn.Linear
// stores its weight (out x in).
Matrix torch_linear(const Matrix& x, const Matrix& w);

// torch.mm(x.T, g) for contiguous x (k x n) and g (k x m): one_hot(ids).T @ G.
Matrix torch_mm_transposed_left(const Matrix& x, const Matrix& g);

}  // namespace embdemo
