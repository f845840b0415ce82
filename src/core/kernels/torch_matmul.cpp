// ATen 1.13's addmm_impl_cpu_ (aten/src/ATen/native/LinearAlgebra.cpp) and cpublas::gemm
// (CPUBlas.cpp), replayed for contiguous tensors and their transposed views. The BLAS is
// column-major: for a row-major result ATen swaps the operands and computes Cᵀ = Bᵀ·Aᵀ, and it
// picks each operand's transpose flag and leading dimension from the tensor's strides. Which
// call it makes matters: a dimension of size 1 (dim = 1, a single id) changes the flags, and the
// BLAS may take another kernel, and so another order of the sum. Replaying the stride rules
// keeps embdemo's call identical to PyTorch's in every shape.
#include "core/kernels/torch_matmul.hpp"
#include "core/cpu_features.hpp"
#include "core/memory.hpp"

#include <dlfcn.h>
#include <sched.h>
#include <strings.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace embdemo {
namespace {

// The Fortran BLAS entry point PyTorch declares (LP64: 32-bit int sizes).
using Sgemm = void (*)(const char* transa, const char* transb, const int* m, const int* n, const int* k,
                       const float* alpha, const float* a, const int* lda, const float* b, const int* ldb,
                       const float* beta, float* c, const int* ldc);

// Whatever the environment says: the bits of every product depend on it (OpenBLAS reads both
// when it loads).
void pin_env(const char* name, const char* value) { setenv(name, value, 1); }

// OpenBLAS 0.3.21 (Debian 12's, DYNAMIC_ARCH) as this process maps it: the library and its
// kernels for every core, about 39 MiB (measured: VmSize before and after dlopen), then at the
// first product a 128 MiB buffer (BUFFER_SIZE, malloc'ed: 128 MiB and 8 KiB) per thread that
// runs one, and each thread beyond the first a stack. A buffer that an address-space limit
// refuses is retried by OpenBLAS for ever (blas_memory_alloc), so the room is checked first.
constexpr std::uint64_t k_blas_margin_bytes = std::uint64_t{4} << 20;  // its own small mallocs

std::string mib(std::uint64_t bytes) { return std::to_string((bytes + (std::uint64_t{1} << 20) - 1) >> 20) + " MiB"; }

// The threads OpenBLAS starts: OPENBLAS_NUM_THREADS when positive (the lessons pin it to 1; the
// bench sets its own), capped at the CPUs this process may run on; every CPU otherwise.
std::uint64_t openblas_threads() {
    cpu_set_t cpus;
    CPU_ZERO(&cpus);
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    const std::uint64_t available =
        sched_getaffinity(0, sizeof cpus, &cpus) == 0 ? static_cast<std::uint64_t>(CPU_COUNT(&cpus))
                                                        : static_cast<std::uint64_t>(std::max(1L, online));
    const char* value = std::getenv("OPENBLAS_NUM_THREADS");
    const long wanted = value ? std::atol(value) : 0;
    if (wanted <= 0) return std::max<std::uint64_t>(1, available);
    return std::max<std::uint64_t>(1, std::min<std::uint64_t>(static_cast<std::uint64_t>(wanted), available));
}

// The address space mapped now (VmSize), 0 when /proc cannot tell.
std::uint64_t mapped_bytes() {
    std::FILE* status = std::fopen("/proc/self/status", "r");
    if (!status) return 0;
    char line[256];
    std::uint64_t kib = 0;
    while (std::fgets(line, sizeof line, status)) {
        if (std::strncmp(line, "VmSize:", 7) == 0) kib = std::strtoull(line + 7, nullptr, 10);
    }
    std::fclose(status);
    return kib * 1024;
}

// Room under RLIMIT_AS (ulimit -v) for OpenBLAS: the library, a buffer per thread and the
// other threads' stacks. The message, or nothing.
std::optional<std::string> address_space_problem() {
    rlimit limit{};
    if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return std::nullopt;
    const std::uint64_t threads = openblas_threads();
    rlimit stack{};
    const std::uint64_t stack_bytes = getrlimit(RLIMIT_STACK, &stack) == 0 && stack.rlim_cur != RLIM_INFINITY
                                          ? static_cast<std::uint64_t>(stack.rlim_cur)
                                          : std::uint64_t{32} << 20;  // glibc's default thread stack then
    const std::uint64_t need = k_openblas_library_bytes + threads * k_openblas_buffer_bytes +
                               (threads - 1) * stack_bytes + k_blas_margin_bytes;
    const std::uint64_t mapped = mapped_bytes();
    const std::uint64_t cap = static_cast<std::uint64_t>(limit.rlim_cur);
    const std::uint64_t room = cap > mapped ? cap - mapped : 0;
    if (room >= need) return std::nullopt;
    return "the address-space limit (ulimit -v, RLIMIT_AS) of " + std::to_string(cap >> 20) + " MiB leaves " +
           std::to_string(room >> 20) + " MiB" +
           " beside the " + mib(mapped) + " this run has mapped, and the BLAS (OpenBLAS) needs about " + mib(need) +
           " for its library and a 128 MiB buffer for " +
           (threads == 1 ? std::string("its one thread") : "each of its " + std::to_string(threads) + " threads") +
           ", a buffer it would retry for ever (allowed: a limit of at least " + mib(mapped + need) +
           " for this run, or none)";
}

// The BLAS, opened once; a reason instead when it cannot be. Nothing here throws: a static's
// initialisation is retried after an exception, but std::call_once's is not safe to leave by one
// where libstdc++ is linked statically (glibc's pthread_once cannot be unwound: std::terminate).
struct LoadedBlas {
    Sgemm function = nullptr;
    std::string problem;
    int exit_code = 1;
};

LoadedBlas load_sgemm() {
    LoadedBlas loaded;
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
    for (auto problem : {openblas_coretype_problem(), address_space_problem()}) {
        if (problem) {
            loaded.problem = *problem;
            loaded.exit_code = 2;
            return loaded;
        }
    }
    // libblas.so.3 is the name PyTorch links against; Debian points it at OpenBLAS.
    void* library = dlopen("libblas.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char* why = dlerror();
        loaded.problem = std::string("cannot load the BLAS that PyTorch's matmul uses (libblas.so.3: ") +
                         (why ? why : "not found") + "): install libopenblas0 (tools/setup.sh does)";
        return loaded;
    }
    void* symbol = dlsym(library, "sgemm_");
    if (!symbol) {
        loaded.problem = "libblas.so.3 has no sgemm_: it is not a BLAS (install libopenblas0)";
        return loaded;
    }
    loaded.function = reinterpret_cast<Sgemm>(symbol);
    // The first product maps OpenBLAS's buffer: made now, while the room checked above is there
    // (128 x 128 x 128 is past the small-matrix paths that need none).
    const int n = 128;
    const float one = 1.0f;
    const float zero = 0.0f;
    std::vector<float> a(static_cast<std::size_t>(n) * n, 0.0f);
    std::vector<float> c(a.size());
    loaded.function("N", "N", &n, &n, &n, &one, a.data(), &n, a.data(), &n, &zero, c.data(), &n);
    return loaded;
}

Sgemm sgemm() {
    static const LoadedBlas loaded = load_sgemm();
    if (!loaded.function) throw BlasUnavailable(loaded.problem, loaded.exit_code);
    return loaded.function;
}

}  // namespace

// OPENBLAS_CORETYPE names a kernel set; OpenBLAS runs it whether or not the CPU has its
// instructions, and a kernel the CPU lacks ends the run with SIGILL. The sets whose extensions
// are checked (the others use SSE2 to SSE4, which every x86-64 CPU a Debian 12 runs on has, or
// are not among the names OpenBLAS 0.3.21 accepts): names compared as OpenBLAS does, case-blind.
std::optional<std::string> openblas_coretype_problem() {
#if defined(__x86_64__)
    const char* value = std::getenv("OPENBLAS_CORETYPE");
    if (!value || !*value) return std::nullopt;
    struct Core {
        const char* name;
        bool (*runs)();
        const char* needs;
    };
    static const Core cores[] = {
        {"Sandybridge", [] { return cpu_has_avx(); }, "AVX"},
        {"Haswell", [] { return cpu_has_avx2() && cpu_has_fma(); }, "AVX2 and FMA"},
        {"Zen", [] { return cpu_has_avx2() && cpu_has_fma(); }, "AVX2 and FMA"},
        {"SkylakeX", [] { return cpu_has_avx512() && cpu_has_avx2() && cpu_has_fma(); },
         "AVX-512 (F, BW, DQ and VL)"},
        {"Bulldozer", [] { return cpu_has_fma4(); }, "AMD's FMA4"},
        {"Piledriver", [] { return cpu_has_fma4() && cpu_has_fma(); }, "AMD's FMA4 and FMA"},
        {"Steamroller", [] { return cpu_has_fma4() && cpu_has_fma(); }, "AMD's FMA4 and FMA"},
        {"Excavator", [] { return cpu_has_fma4() && cpu_has_avx2(); }, "AMD's FMA4 and AVX2"},
        {"Opteron", [] { return cpu_has_3dnow(); }, "AMD's 3DNow!"},
        {"Opteron_SSE3", [] { return cpu_has_3dnow(); }, "AMD's 3DNow!"},
    };
    for (const Core& core : cores) {
        if (strncasecmp(value, core.name, 20) != 0 || core.runs()) continue;
        return std::string("OPENBLAS_CORETYPE=") + value + ": OpenBLAS's " + core.name + " kernels use " + core.needs +
               ", which this CPU (or its operating system) does not provide, so the product would stop with SIGILL "
               "(allowed: OPENBLAS_CORETYPE unset, or a core whose instructions this CPU has" +
               (cpu_has_avx() ? ", such as Sandybridge)" : ")");
    }
#endif
    return std::nullopt;
}

BlasUnavailable::BlasUnavailable(const std::string& what, int exit_code)
    : std::runtime_error(what), m_exit_code(exit_code) {}

namespace {

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
