// ATen 1.13's addmm_impl_cpu_ (aten/src/ATen/native/LinearAlgebra.cpp) and cpublas::gemm
// (CPUBlas.cpp), replayed for contiguous tensors and their transposed views. The BLAS is
// column-major: for a row-major result ATen swaps the operands and computes Cᵀ = Bᵀ·Aᵀ, and it
// picks each operand's transpose flag and leading dimension from the tensor's strides. Which
// call it makes matters: a dimension of size 1 (dim = 1, a single id) changes the flags, and the
// BLAS may take another kernel, and so another order of the sum. Replaying the stride rules
// keeps embdemo's call identical to PyTorch's in every shape.
#include "core/kernels/torch_matmul.hpp"
#include "core/cpu_features.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <utility>

namespace embdemo {
namespace {

// The Fortran BLAS entry point PyTorch declares (LP64: 32-bit int sizes).
using Sgemm = void (*)(const char* transa, const char* transb, const int* m, const int* n, const int* k,
                       const float* alpha, const float* a, const int* lda, const float* b, const int* ldb,
                       const float* beta, float* c, const int* ldc);

// Whatever the environment says: the bits of every product depend on it (OpenBLAS reads both
// when it loads).
void pin_env(const char* name, const char* value) { setenv(name, value, 1); }

Sgemm load_sgemm() {
    // One BLAS thread: OpenBLAS's threads can split a product's sums another way (seen: 1 value
    // in 200 random grad cases differed between 1 and 2 threads), so the bits would depend on the
    // number of cores. The live tests and the python scripts run PyTorch's OpenBLAS the same way.
    pin_env("OPENBLAS_NUM_THREADS", "1");
    // One kernel on every x86-64 CPU with AVX: OpenBLAS otherwise picks a kernel per CPU
    // (Cooperlake, SkylakeX, Zen, ...), whose order of k gives other last bits for a sum of many
    // products, so the same arguments would print other digits on another machine. Sandybridge's
    // runs on every AVX CPU and adds each output's terms in order of k (the Haswell and Zen
    // kernels did not: PyTorch's emb.weight.grad and one_hot.T @ G then differed in 31 of 300
    // random plain cases, where Sandybridge's and the native Cooperlake's agree in all). The live
    // tests and the python scripts pin PyTorch's OpenBLAS the same way. An OPENBLAS_CORETYPE in
    // the environment is overridden, not kept: some machines and CI runners set one (Haswell,
    // say), and the same arguments must print the same bytes there too; a kernel the CPU cannot
    // run (SkylakeX without AVX-512) would otherwise end the run with SIGILL.
#if defined(__x86_64__)
    if (cpu_has_avx()) pin_env("OPENBLAS_CORETYPE", "Sandybridge");
#endif
    // libblas.so.3 is the name PyTorch links against; Debian points it at OpenBLAS.
    void* library = dlopen("libblas.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        throw std::runtime_error("cannot load the BLAS that PyTorch's matmul uses (libblas.so.3): "
                                 "install libopenblas0 (tools/setup.sh does)");
    }
    void* symbol = dlsym(library, "sgemm_");
    if (!symbol) throw std::runtime_error("libblas.so.3 has no sgemm_");
    return reinterpret_cast<Sgemm>(symbol);
}

Sgemm sgemm() {
    static std::once_flag once;
    static Sgemm function = nullptr;
    std::call_once(once, [] { function = load_sgemm(); });
    return function;
}

// A 2-D tensor as ATen sees it: data, sizes and strides (in elements).
struct View {
    const float* data = nullptr;
    std::int64_t size[2] = {0, 0};
    std::int64_t stride[2] = {0, 0};
};

std::int64_t as_int64(std::size_t value) {
    if (value > static_cast<std::size_t>(INT_MAX)) throw std::length_error("matrix too large for the BLAS");
    return static_cast<std::int64_t>(value);
}

View contiguous(const Matrix& m) {
    return {m.values.data(), {as_int64(m.rows), as_int64(m.cols)}, {as_int64(m.cols), 1}};
}

View transposed(const Matrix& m) {
    return {m.values.data(), {as_int64(m.cols), as_int64(m.rows)}, {1, as_int64(m.cols)}};
}

// tensor.clone(at::MemoryFormat::Contiguous), kept alive in `storage`.
View cloned(const View& v, Matrix& storage) {
    storage = Matrix(static_cast<std::size_t>(v.size[0]), static_cast<std::size_t>(v.size[1]));
    for (std::int64_t r = 0; r < v.size[0]; ++r) {
        for (std::int64_t c = 0; c < v.size[1]; ++c) {
            storage.at(static_cast<std::size_t>(r), static_cast<std::size_t>(c)) = v.data[r * v.stride[0] + c * v.stride[1]];
        }
    }
    return contiguous(storage);
}

// How addmm_impl_cpu_ casts an operand: as it is, transposed, or as a contiguous copy.
// `first`/`second` are the stride indices it reads (they swap with transpose_c); `lead` is the
// size the leading dimension must reach untransposed, `lead_t` transposed.
View cast_operand(const View& v, bool transpose_c, std::int64_t lead, std::int64_t lead_t, bool& transpose,
                  Matrix& storage) {
    const int first = transpose_c ? 1 : 0;
    const int second = transpose_c ? 0 : 1;
    if (v.stride[first] == 1 && v.stride[second] >= std::max<std::int64_t>(1, lead)) {
        transpose = false;
        return v;
    }
    if (v.stride[second] == 1 && v.stride[first] >= std::max<std::int64_t>(1, lead_t)) {
        transpose = true;
        return v;
    }
    transpose = !transpose_c;
    return cloned(v, storage);
}

// torch.mm(m1, m2) into a new contiguous (row-major) result, as ATen 1.13 does it on the CPU.
Matrix addmm(View m1, View m2) {
    const std::int64_t rows = m1.size[0];
    const std::int64_t cols = m2.size[1];
    Matrix result(static_cast<std::size_t>(rows), static_cast<std::size_t>(cols));
    // ATen returns before the BLAS for an empty result, and zero-fills for an empty sum.
    if (rows == 0 || cols == 0 || m1.size[1] == 0) return result;
    const std::int64_t result_stride[2] = {cols, 1};
    // The result is contiguous, so it is "column-major" only when it has one column.
    bool transpose_c = true;
    if (result_stride[0] == 1 && (cols == 1 || result_stride[1] >= std::max<std::int64_t>(1, rows))) {
        transpose_c = false;
    } else {
        std::swap(m1, m2);
    }
    const std::int64_t m = transpose_c ? cols : rows;
    const std::int64_t n = transpose_c ? rows : cols;
    const std::int64_t k = m1.size[transpose_c ? 0 : 1];

    bool transpose_a = false;
    bool transpose_b = false;
    Matrix a_storage;
    Matrix b_storage;
    const View a = cast_operand(m1, transpose_c, m, k, transpose_a, a_storage);
    const View b = cast_operand(m2, transpose_c, k, n, transpose_b, b_storage);
    std::int64_t lda = a.stride[transpose_a == transpose_c ? 1 : 0];
    std::int64_t ldb = b.stride[transpose_b == transpose_c ? 1 : 0];
    std::int64_t ldc = transpose_c ? result_stride[0] : result_stride[1];

    // cpublas::internal::normalize_last_dims: leading dimensions of size-1 sides.
    if (n == 1) ldc = m;
    if (transpose_a) {
        if (m == 1) lda = k;
    } else if (k == 1) {
        lda = m;
    }
    if (transpose_b) {
        if (k == 1) ldb = n;
    } else if (n == 1) {
        ldb = k;
    }

    const char trans_a = transpose_a ? 't' : 'n';
    const char trans_b = transpose_b ? 't' : 'n';
    const int m_ = static_cast<int>(m);
    const int n_ = static_cast<int>(n);
    const int k_ = static_cast<int>(k);
    const int lda_ = static_cast<int>(lda);
    const int ldb_ = static_cast<int>(ldb);
    const int ldc_ = static_cast<int>(ldc);
    const float alpha = 1.0f;
    const float beta = 0.0f;
    sgemm()(&trans_a, &trans_b, &m_, &n_, &k_, &alpha, a.data, &lda_, b.data, &ldb_, &beta, result.values.data(),
            &ldc_);
    return result;
}

}  // namespace

void load_blas() { (void)sgemm(); }

Matrix torch_mm(const Matrix& a, const Matrix& b) { return addmm(contiguous(a), contiguous(b)); }

Matrix torch_linear(const Matrix& x, const Matrix& w) { return addmm(contiguous(x), transposed(w)); }

Matrix torch_mm_transposed_left(const Matrix& x, const Matrix& g) { return addmm(transposed(x), contiguous(g)); }

}  // namespace embdemo
