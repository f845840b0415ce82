// The pieces every --format python script shares: its percent-format cells, its header (which
// pins OpenBLAS as embdemo pins it), the bit-exact helpers it asserts with, and the literals that
// carry embdemo's numbers into it (float32 values as their bit patterns, doubles as Python
// reads them back, ids wrapped at 100 columns). Spelling only: each lesson's file decides what
// its script computes and claims.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/kernels/embedding.hpp"
#include "core/ids.hpp"
#include "core/matrix.hpp"
#include "core/kernels/max_norm.hpp"

namespace embdemo {

inline constexpr std::size_t k_python_line_width = 100;

// A percent-format cell ("# %% [markdown]", each line of `text` commented), so that a script is
// also a notebook (jupytext, VS Code, --format ipynb); and a code cell ("# %%" then `code`).
std::string markdown_cell(const std::string& text);
std::string code_cell(const std::string& code);

// pin_openblas() and its call: OpenBLAS in one thread with the Sandybridge kernel on AVX, as
// embdemo runs it, set in the running process (after `import torch` too).
const char* python_blas_pin();

// A markdown cell naming the script and the run, then a code cell: `import torch` and the pin.
std::string python_header(const std::string& what, const std::string& run);

// python_header, `imports`, then the helpers: the bit helpers always, and with `count_helpers`
// differing_bits(a, b) (how many values differ in their bits) and ulps(a, b) (per value, the
// distance of float32 bit patterns on one number line, as core/kernels/rounding counts it).
std::string python_preamble(const std::string& what, const std::string& run, const std::string& imports,
                            bool count_helpers);

// same_bits(a, b) and from_bits(bits, shape): the helpers every script asserts with.
const char* python_bit_helpers();

// Rows `rows` of `m` as from_bits([0x...], shape), wrapped under k_python_line_width.
std::string bits_literal(const Matrix& m, const std::vector<std::size_t>& rows, const std::string& shape);
// All of `m` as from_bits([...], (rows, cols)).
std::string bits_literal(const Matrix& m);
// "expected_NAME = from_bits(...)" with rows `rows` of `m`, and the assert that PyTorch's
// tensor NAME has exactly those bits ("PyTorch's WHAT differs from embdemo's" if not).
std::string expect_bits(const std::string& name, const Matrix& m, const std::vector<std::size_t>& rows,
                        const std::string& shape, const std::string& what);
// The same for all of `m`, shaped (rows, cols).
std::string expect_bits(const std::string& name, const Matrix& m, const std::string& what);

// One value's bit pattern, "0x3f800000".
std::string float_bits(float value);

// "(n, d)", or "(B, T, d)" for a batch.
std::string shape_text(const Matrix& m, std::size_t rows, const IdShape* batch);

std::vector<std::size_t> all_rows(std::size_t count);

// "name = torch.nn.functional.one_hot(idx, num_classes=V)\n" (without num_classes when inferred).
std::string onehot_line(const std::string& name, std::uint64_t vocab_size, bool inferred);

// Each line followed by a newline.
std::string lines(const std::vector<std::string>& code);

// `items` as "prefix item, item, ...suffix", wrapped under k_python_line_width.
std::string wrapped_list(const std::string& prefix, const std::vector<std::string>& items, const std::string& suffix);

// Integers as a Python list: "[2, 3, 1]", wrapped.
std::string python_ints(const std::string& prefix, const std::vector<std::uint64_t>& values,
                        const std::string& suffix);

// A double as Python reads back the very same value: "0.1", "2.0", "1e-08", float("inf").
std::string python_double(double value);

// The shortest decimal that reads back as this float32 (through a Python float), as a float literal.
std::string python_float32(float value);

// "True" / "False".
const char* python_bool(bool value);

// "idx = torch.tensor([...])" for every id, nested B x T for a batch.
std::string ids_tensor_python(const IdBatch& ids);

// The asserts that re-check a Comparison of the tensors `a` and `b` (Python expressions):
// identical, or differing in exactly `differing` values. Needs python_count_helpers.
std::string comparison_asserts(const std::string& a, const std::string& b, const Comparison& verdict,
                               const std::string& what);

// nn.Embedding(max_norm=M, norm_type=P)'s in-place renorm re-checked: given the script's `drawn`
// (E before the forward), `after` (E after it), M and P, asserts each distinct id's P-norm, which
// rows were rescaled and by what float32 scale, and E after the call, against `rows` (what the
// renorm saw) and embdemo's E before and after. Defines same_norms, `used` (the distinct ids,
// ascending), `norms`, `rescaled` and `scales`. Shared by the lookup's and grad's --max-norm.
std::string renorm_python(const std::vector<RenormRow>& rows, const Matrix& weight, const Matrix& weight_after);

}  // namespace embdemo
