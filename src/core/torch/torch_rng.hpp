// PyTorch 1.13's CPU random stream, reproduced bit for bit (see ../shared/torch_rng.md).
// It provides exactly the primitives nn.Embedding and nn.Linear use at construction: the
// MT19937 generator with torch's seeding and its cached scalar normal, normal_ on a contiguous
// float32 buffer (vectorised 16-block path and scalar Box-Muller path) and uniform_.
// It does not know about matrices or modules; init.hpp builds those on top.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace embdemo {

// torch's CPU generator: MT19937 (the same stream as std::mt19937, which the tests hold it
// against) plus the scalar normal path's cached value.
class TorchGenerator {
public:
    // Like torch.manual_seed(seed): only the low 32 bits reach the Mersenne Twister, and the
    // cached normal is cleared.
    explicit TorchGenerator(std::uint64_t seed);

    std::uint32_t random();    // one 32-bit draw
    std::uint64_t random64();  // two draws, the first is the high word
    // The next `count` draws, the same as `count` calls of random(), made in bulk.
    void random_block(std::uint32_t* out, std::size_t count);

    // The scalar normal path keeps the second value of a Box-Muller pair between calls.
    bool has_cached_normal() const { return m_has_cached_normal; }
    double take_cached_normal();
    void set_cached_normal(double value);

private:
    static constexpr std::size_t k_state_words = 624;

    void twist();  // the next 624 words of state

    // Our own MT19937 rather than std::mt19937: libstdc++ keeps its state in 64-bit words and
    // tempers one draw per call, which took a quarter of GPT-2's initialisation; with 32-bit
    // words the compiler vectorises both the twist and the tempering of a block of draws.
    std::array<std::uint32_t, k_state_words> m_state{};
    std::size_t m_next = k_state_words;  // index of the next word to temper; 624: twist first
    bool m_has_cached_normal = false;
    double m_cached_normal = 0.0;
};

// The two implementations of the vectorised normal path's arithmetic (§5.2), which give the
// same bits: `reference` computes one lane at a time exactly as the spec reads and runs anywhere;
// `avx2` computes eight lanes at once and needs a CPU with AVX2 and FMA.
enum class NormalKernel { reference, avx2 };

// Whether this build and this CPU can run `kernel` (reference: always).
bool normal_kernel_available(NormalKernel kernel);

// The kernel normal_fill uses: avx2 where available, else reference. Decided once, at run time.
NormalKernel fastest_normal_kernel();

// How normal_fill may share a large fill between threads. The values never depend on it: one
// thread draws every uniform in order, and the blocks' arithmetic is shared out piece by piece.
struct NormalFillSplit {
    unsigned threads = 1;  // at most this many, the calling thread included
    // 16-value blocks handed out at a time (64 KiB); a fill of one piece or less stays on the
    // calling thread. Tests pass small pieces to exercise the split on small tensors.
    std::size_t piece_blocks = 1024;
};

// tensor.normal_(mean, std) on a contiguous float32 tensor of `count` elements.
void normal_fill(TorchGenerator& generator, float* out, std::size_t count, float mean = 0.0f,
                 float std = 1.0f, NormalFillSplit split = {});

// The same with a chosen kernel, which must be available: for tests and measurements that
// compare the two. The values do not depend on the kernel.
void normal_fill_using(NormalKernel kernel, TorchGenerator& generator, float* out,
                       std::size_t count, float mean = 0.0f, float std = 1.0f,
                       NormalFillSplit split = {});

// §5.1 step 2 alone, with a chosen (available) kernel: turns `block_count` consecutive 16-element
// blocks of float uniforms into normals in place. normal_fill draws the uniforms and calls this;
// tests call it with uniforms of their choosing.
void normal_blocks(NormalKernel kernel, float* blocks, std::size_t block_count, float mean,
                   float std);

// tensor.uniform_(from, to) on a contiguous float32 tensor of `count` elements.
void uniform_fill(TorchGenerator& generator, float* out, std::size_t count, double from, double to);

// The bound kaiming_uniform_(w, a=sqrt(5)) uses for a weight with `fan_in` input features,
// computed in double exactly as torch/nn/init.py does. Returns 0 for fan_in == 0 (torch draws
// nothing for a zero-element weight, so there is no bound).
double kaiming_uniform_bound(std::size_t fan_in);

}  // namespace embdemo
