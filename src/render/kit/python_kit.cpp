#include "render/kit/python_kit.hpp"

#include "core/limits.hpp"

#include <cmath>
#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "render/kit/torch_lines.hpp"

namespace embdemo {
namespace {

constexpr const char* k_same_bits = R"(

def same_bits(a, b):
    """Same shape and the same float32 bits in every place: -0.0 is not 0.0, and NaNs match
    only with the same sign and payload, exactly as embdemo compares."""
    a, b = a.detach().contiguous(), b.detach().contiguous()
    return a.shape == b.shape and torch.equal(a.view(torch.int32), b.view(torch.int32))


def from_bits(bits, shape):
    """A float32 tensor from its bit patterns: every value exactly as embdemo computed it, NaN
    payloads and -0.0 included (a decimal literal cannot spell those)."""
    return torch.from_numpy(numpy.array(bits, dtype=numpy.uint32).view(numpy.float32)).reshape(shape)


)";

constexpr const char* k_count_bits = R"(def differing_bits(a, b):
    """How many values of two same-shaped tensors differ in their bits."""
    a, b = a.detach().contiguous(), b.detach().contiguous()
    assert a.shape == b.shape, f"{a.shape} against {b.shape}"
    return int((a.view(torch.int32) != b.view(torch.int32)).sum())


def ulps(a, b):
    """Per value, how many float32 bit patterns lie between a and b on one number line (negative
    floats below +0, so +0 against -0 is 1): embdemo's measure of a difference."""
    def ordered(t):
        bits = t.detach().contiguous().view(torch.int32).long()
        return torch.where(bits < 0, -(bits & 0x7FFFFFFF) - 1, bits)
    return (ordered(a) - ordered(b)).abs()


)";

constexpr const char* k_same_norms = R"(def same_norms(a, b):
    """Bit for bit, but any nan matches any nan: which of a row's NaNs its norm carries depends on
    the order in which torch's vectorised kernel meets them, which embdemo does not model (a nan
    norm is never above M, so the row is left either way)."""
    nan = a.isnan() & b.isnan()
    return a.shape == b.shape and bool((nan | (a.view(torch.int32) == b.view(torch.int32))).all())


)";

// The products' bits depend on OpenBLAS's kernel and threads, which it picks when torch loads it:
// pin_openblas() re-picks them in this very process (gotoblas_dynamic_init reads
// OPENBLAS_CORETYPE again), so a notebook's earlier cells need no restart.
constexpr const char* k_pin_openblas = R"(# A product's bits depend on OpenBLAS's kernel and threads: pin them as embdemo runs them.
import ctypes
import os


def pin_openblas():
    """One thread, and the Sandybridge kernel where the CPU has AVX: OpenBLAS as embdemo runs it.
    A torch built on another BLAS (pip's wheels bring MKL) keeps that BLAS's own bits."""
    try:
        blas = ctypes.CDLL("libopenblas.so.0", mode=os.RTLD_NOLOAD | os.RTLD_NOW)
    except OSError:
        return
    blas.openblas_set_num_threads(1)
    blas.openblas_get_corename.restype = ctypes.c_char_p
    avx = os.path.exists("/proc/cpuinfo") and "avx" in open("/proc/cpuinfo").read().split()
    if avx and blas.openblas_get_corename() != b"Sandybridge":
        os.environ["OPENBLAS_CORETYPE"] = "Sandybridge"
        blas.gotoblas_dynamic_quit()
        blas.gotoblas_dynamic_init()


pin_openblas()
)";

}  // namespace

namespace {

// A line of prose as comment lines under k_python_line_width, broken at spaces (markdown reads
// the breaks as spaces).
std::string commented(const std::string& line) {
    if (line.empty()) return "#\n";
    std::string out;
    std::string current = "#";
    std::size_t start = 0;
    while (start < line.size()) {
        const std::size_t end = std::min(line.find(' ', start), line.size());
        const std::string word = line.substr(start, end - start);
        if (current.size() > 1 && current.size() + 1 + word.size() > k_python_line_width) {
            out += current + '\n';
            current = "#";
        }
        current += ' ' + word;
        start = end + 1;
    }
    return out + current + '\n';
}

}  // namespace

std::string markdown_cell(const std::string& text) {
    std::string out = "# %% [markdown]\n";
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        out += commented(text.substr(start, end - start));
        start = end + 1;
    }
    return out + '\n';
}

std::string code_cell(const std::string& code) { return "# %%\n" + code + (code.empty() || code.back() == '\n' ? "" : "\n") + '\n'; }

const char* python_blas_pin() { return k_pin_openblas; }

std::string python_header(const std::string& what, const std::string& run) {
    return markdown_cell(fmt::format(
               "# {}\n\n"
               "Written by `embdemo --format python` for {}. Run it with python3 where PyTorch is installed, or "
               "open it as a notebook (`--format ipynb` writes one): it stops with an AssertionError if PyTorch's "
               "numbers differ from embdemo's in a single bit.",
               what, run)) +
           "# %%\nimport torch\n" + k_pin_openblas;
}

std::string python_preamble(const std::string& what, const std::string& run, const std::string& imports,
                            bool count_helpers) {
    return python_header(what, run) + imports + k_same_bits + (count_helpers ? k_count_bits : "");
}

const char* python_bit_helpers() { return k_same_bits; }

std::string float_bits(float value) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    return fmt::format("0x{:08x}", bits);
}

std::string wrapped_list(const std::string& prefix, const std::vector<std::string>& items, const std::string& suffix) {
    std::string out = prefix;
    std::size_t line_start = 0;
    bool first = true;
    for (const std::string& value : items) {
        const std::string item = (first ? "" : ",") + value;
        if (out.size() - line_start + item.size() + 1 > k_python_line_width) {
            out += first ? "\n" : ",\n";
            line_start = out.size();
            out += "    " + value;
        } else {
            out += (first ? "" : ", ") + value;
        }
        first = false;
    }
    return out + suffix;
}

std::string bits_literal(const Matrix& m, const std::vector<std::size_t>& rows, const std::string& shape) {
    std::vector<std::string> items;
    items.reserve(rows.size() * m.cols);
    for (const std::size_t r : rows) {
        for (std::size_t c = 0; c < m.cols; ++c) items.push_back(float_bits(m.at(r, c)));
    }
    return wrapped_list("from_bits([", items, "], " + shape + ")");
}

std::string bits_literal(const Matrix& m) {
    return bits_literal(m, all_rows(m.rows), fmt::format("({}, {})", m.rows, m.cols));
}

std::string expect_bits(const std::string& name, const Matrix& m, const std::vector<std::size_t>& rows,
                        const std::string& shape, const std::string& what) {
    return fmt::format("expected_{} = {}\nassert same_bits({}, expected_{}), \"PyTorch's {} differs from embdemo's\"\n",
                       name, bits_literal(m, rows, shape), name, name, what);
}

std::string expect_bits(const std::string& name, const Matrix& m, const std::string& what) {
    return expect_bits(name, m, all_rows(m.rows), fmt::format("({}, {})", m.rows, m.cols), what);
}

std::string shape_text(const Matrix& m, std::size_t rows, const IdShape* batch) {
    if (batch && batch->batched) return fmt::format("({}, {}, {})", batch->batch, batch->seq, m.cols);
    return fmt::format("({}, {})", rows, m.cols);
}

std::vector<std::size_t> all_rows(std::size_t count) {
    std::vector<std::size_t> rows(count);
    for (std::size_t i = 0; i < count; ++i) rows[i] = i;
    return rows;
}

std::string onehot_line(const std::string& name, std::uint64_t vocab_size, bool inferred) {
    return inferred ? fmt::format("{} = torch.nn.functional.one_hot(idx)\n", name)
                    : fmt::format("{} = torch.nn.functional.one_hot(idx, num_classes={})\n", name, vocab_size);
}

std::string lines(const std::vector<std::string>& code) {
    std::string out;
    for (const std::string& line : code) out += line + '\n';
    return out;
}

std::string python_ints(const std::string& prefix, const std::vector<std::uint64_t>& values,
                        const std::string& suffix) {
    std::vector<std::string> items;
    items.reserve(values.size());
    for (const std::uint64_t value : values) items.push_back(std::to_string(value));
    return wrapped_list(prefix + "[", items, "]" + suffix);
}

namespace {

// fmt's shortest round trip is Python's repr but for whole numbers ("2" for 2.0, "-0" for -0.0),
// which Python would read as an int (and lose -0's sign); ".0" keeps every value a float.
std::string as_python_float(std::string text) {
    if (text.find_first_of(".en") == std::string::npos) text += ".0";
    return text;
}

}  // namespace

std::string python_double(double value) {
    if (std::isnan(value)) return "float(\"nan\")";
    if (std::isinf(value)) return value > 0 ? "float(\"inf\")" : "-float(\"inf\")";
    return as_python_float(fmt::format("{}", value));
}

std::string python_float32(float value) {
    if (!std::isfinite(value)) return python_double(value);
    return as_python_float(fmt::format("{}", value));
}

const char* python_bool(bool value) { return value ? "True" : "False"; }

std::string ids_tensor_python(const IdBatch& ids) {
    DemoRequest request;
    request.ids = ids.values;
    request.shape = ids.shape();
    return all_ids_python(request);
}

std::string comparison_asserts(const std::string& a, const std::string& b, const Comparison& verdict,
                               const std::string& what) {
    if (verdict.identical) {
        return fmt::format("assert same_bits({}, {}), \"embdemo found {} identical\"\n", a, b, what);
    }
    return fmt::format("assert differing_bits({}, {}) == {}, \"embdemo found {} differ in {}\"\n", a, b,
                       verdict.differing, what, count_of(verdict.differing, "value", "values"));
}

std::string renorm_python(const std::vector<RenormRow>& rows, const Matrix& weight, const Matrix& weight_after) {
    std::vector<std::uint64_t> used;
    std::vector<std::string> rescaled;
    Matrix norms(1, rows.size());
    Matrix scales(1, rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        used.push_back(rows[i].row);
        rescaled.push_back(python_bool(rows[i].rescaled));
        norms.at(0, i) = rows[i].norm;
        scales.at(0, i) = rows[i].scale;
    }
    const std::string shape = fmt::format("({},)", used.size());
    std::string out = k_same_norms;
    out += python_ints("used = ", used, "    # the distinct ids, ascending: the rows the call renormalises\n");
    out += "norms = torch.stack([drawn[k].norm(P) for k in used])    # each row's P-norm before the call\n";
    out += "rescaled = [float(norm) > M for norm in norms]\n";
    out += "scales = torch.tensor([M / (float(norm) + 1e-7) if big else 1.0 for norm, big in zip(norms, rescaled)],\n"
           "                      dtype=torch.float32)\n";
    out += "expected_norms = " + bits_literal(norms, {0}, shape) + '\n';
    out += "expected_scales = " + bits_literal(scales, {0}, shape) + '\n';
    out += "expected_drawn = " + bits_literal(weight, std::vector<std::size_t>(used.begin(), used.end()),
                                              fmt::format("({}, {})", used.size(), weight.cols)) + '\n';
    out += "expected_after = " + bits_literal(weight_after, std::vector<std::size_t>(used.begin(), used.end()),
                                              fmt::format("({}, {})", used.size(), weight.cols)) + '\n';
    out += "assert same_bits(drawn[used], expected_drawn), \"E as drawn differs from embdemo's\"\n";
    out += "assert same_norms(norms, expected_norms), \"PyTorch's row norms differ from embdemo's\"\n";
    out += wrapped_list("assert rescaled == [", rescaled, "], \"PyTorch rescales other rows\"\n");
    out += "assert same_bits(scales, expected_scales), \"the scales differ from embdemo's\"\n";
    out += "assert all(same_bits(after[k], drawn[k] * float(s)) for k, s, big in zip(used, scales, rescaled) if big), "
           "\"a rescaled row is not E[k] times its scale\"\n";
    out += "assert same_bits(after[used], expected_after), \"E after the call differs from embdemo's\"\n";
    out += "others = torch.ones(after.shape[0], dtype=torch.bool)\nothers[used] = False\n";
    out += "assert same_bits(after[others], drawn[others]), \"the call changed a row no id reads\"\n";
    return out;
}

}  // namespace embdemo
