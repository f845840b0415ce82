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

#include <optional>
#include <stdexcept>
#include <string>

#include "core/matrix.hpp"

namespace embdemo {

// The BLAS cannot be used, for the reason what() gives in one line: exit_code() 2 when this
// run's own limits or settings rule it out (an address-space limit that leaves no room for
// OpenBLAS's buffer, an OPENBLAS_CORETYPE whose instructions the CPU lacks), 1 when the library
// is missing or broken. Every product and load_blas throw it; nothing has been written then.
class BlasUnavailable : public std::runtime_error {
public:
    BlasUnavailable(const std::string& what, int exit_code);
    int exit_code() const { return m_exit_code; }

private:
    int m_exit_code;
};

// OPENBLAS_CORETYPE set to a kernel set whose instructions this CPU (or its OS) lacks, which
// OpenBLAS would run into SIGILL: the one-line reason, or nothing (embdemo-bench asks too).
std::optional<std::string> openblas_coretype_problem();

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
