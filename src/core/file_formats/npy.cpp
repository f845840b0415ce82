// The .npy layout (numpy.lib.format): "\x93NUMPY", a major and a minor version byte, the header
// length (2 bytes little-endian in version 1.0, 4 bytes in 2.0 and 3.0), the header itself (a
// Python dict literal with 'descr', 'fortran_order' and 'shape', padded with spaces and ended
// by '\n'), then the raw values.
#include "core/file_formats/npy.hpp"

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "core/escape.hpp"
#include "core/ids.hpp"
#include "core/limits.hpp"

namespace embdemo {
namespace {

// The fewest %g digits that read back as `value` (the core links no fmt).
std::string shortest_double(double value) {
    char text[40];
    for (int digits = 1; digits <= 17; ++digits) {
        std::snprintf(text, sizeof text, "%.*g", digits, value);
        if (std::strtod(text, nullptr) == value) break;
    }
    return text;
}

constexpr std::string_view k_magic("\x93NUMPY", 6);
constexpr std::size_t k_preamble_v1 = 10;  // magic, 2 version bytes, 2 length bytes
constexpr std::size_t k_align = 64;        // numpy pads the header so data starts 64-aligned
constexpr std::size_t k_growth_digits = 21;  // numpy's spare room after the header dict

struct NpyHeader {
    std::string descr;
    bool fortran_order = false;
    std::vector<std::uint64_t> shape;
};

// A strict reader for the dict literal numpy writes: string keys, and values that are a
// string, True/False or a tuple of non-negative integers. It is not a Python parser; anything
// unexpected is an error that quotes the header.
class HeaderParser {
public:
    explicit HeaderParser(std::string_view text) : m_text(text) {}

    ParseResult<NpyHeader> parse() {
        NpyHeader header;
        bool seen_descr = false, seen_order = false, seen_shape = false;
        if (!take('{')) return fail("does not start with '{'");
        while (!take('}')) {
            std::string key;
            if (!read_string(key)) return fail("has a key that is not a quoted string");
            if (!take(':')) return fail("has no ':' after " + quote_for_message(key, 40));
            if (key == "descr" && !seen_descr) {
                if (!read_string(header.descr)) return fail("has a 'descr' that is not a string");
                seen_descr = true;
            } else if (key == "fortran_order" && !seen_order) {
                if (!read_bool(header.fortran_order)) return fail("has a 'fortran_order' that is not True or False");
                seen_order = true;
            } else if (key == "shape" && !seen_shape) {
                if (auto problem = read_shape(header.shape)) return fail(*problem);
                seen_shape = true;
            } else {
                return fail("has an unexpected or repeated key " + quote_for_message(key, 40));
            }
            if (!take(',') && !peek('}')) return fail("has no ',' or '}' after " + quote_for_message(key, 40));
        }
        skip_blanks();
        if (m_position != m_text.size()) return fail("has text after the closing '}'");
        if (!seen_descr || !seen_order || !seen_shape) {
            return fail("lacks one of 'descr', 'fortran_order', 'shape'");
        }
        return ParseResult<NpyHeader>::ok(std::move(header));
    }

private:
    ParseResult<NpyHeader> fail(const std::string& problem) const {
        return ParseResult<NpyHeader>::fail("has a malformed header " + quote_for_message(m_text, 80) +
                                            " (it " + problem + ")");
    }
    void skip_blanks() {
        while (m_position < m_text.size() && (m_text[m_position] == ' ' || m_text[m_position] == '\n')) {
            ++m_position;
        }
    }
    bool peek(char ch) {
        skip_blanks();
        return m_position < m_text.size() && m_text[m_position] == ch;
    }
    bool take(char ch) {
        if (!peek(ch)) return false;
        ++m_position;
        return true;
    }
    bool read_string(std::string& out) {
        skip_blanks();
        if (m_position >= m_text.size()) return false;
        const char quote = m_text[m_position];
        if (quote != '\'' && quote != '"') return false;
        const std::size_t end = m_text.find(quote, m_position + 1);
        if (end == std::string_view::npos) return false;
        out = std::string(m_text.substr(m_position + 1, end - m_position - 1));
        m_position = end + 1;
        return true;
    }
    bool read_word(std::string_view word) {
        skip_blanks();
        if (m_text.substr(m_position, word.size()) != word) return false;
        m_position += word.size();
        return true;
    }
    bool read_bool(bool& out) {
        if (read_word("True")) return out = true, true;
        if (read_word("False")) return out = false, true;
        return false;
    }
    // Why the shape cannot be read, or nullopt.
    std::optional<std::string> read_shape(std::vector<std::uint64_t>& out) {
        const std::string not_a_tuple = "has a 'shape' that is not a tuple of integers";
        if (!take('(')) return not_a_tuple;
        while (!take(')')) {
            skip_blanks();
            std::size_t end = m_position;
            while (end < m_text.size() && m_text[end] >= '0' && m_text[end] <= '9') ++end;
            const std::string_view digits = m_text.substr(m_position, end - m_position);
            const auto size = parse_decimal(digits);
            if (!size && !digits.empty()) {  // digits only, so too large for 64 bits
                return "has a 'shape' size " + quote_for_message(std::string(digits), 40) +
                       " that is more than 2^64 - 1 (allowed: a shape of at most " +
                       group_thousands(k_max_matrix_values) + " values, the limit for E)";
            }
            if (!size) return not_a_tuple;
            out.push_back(size.value());
            m_position = end;
            if (!take(',') && !peek(')')) return not_a_tuple;
        }
        return std::nullopt;
    }

    std::string_view m_text;
    std::size_t m_position = 0;
};

std::string describe_shape(const std::vector<std::uint64_t>& shape) {
    std::string text = "(";
    for (std::size_t i = 0; i < shape.size(); ++i) {
        text += (i ? ", " : "") + std::to_string(shape[i]);
    }
    return text + (shape.size() == 1 ? ",)" : ")");
}

std::uint32_t read_little_endian(const unsigned char* bytes, std::size_t count) {
    std::uint32_t value = 0;
    for (std::size_t i = count; i-- > 0;) value = (value << 8) | bytes[i];
    return value;
}

// Reads exactly `count` bytes, or returns how many there were.
std::size_t read_bytes(std::istream& in, char* out, std::size_t count) {
    in.read(out, static_cast<std::streamsize>(count));
    return static_cast<std::size_t>(in.gcount());
}

// One value of `item_size` bytes in the file's byte order, as the host's float/double bits.
template <typename Bits>
Bits load_value(const char* bytes, bool big_endian) {
    Bits bits = 0;
    for (std::size_t i = 0; i < sizeof(Bits); ++i) {
        const auto byte = static_cast<unsigned char>(bytes[big_endian ? i : sizeof(Bits) - 1 - i]);
        bits = static_cast<Bits>((bits << 8) | byte);
    }
    return bits;
}

// Reads rows x cols values into `out`, in chunks so that a float64 file needs no second copy.
// Returns an error message, or an empty string on success.
// Reads out.rows x out.cols values into out.values, which grows with the data actually read, so
// a short file with a large announced shape costs only what it holds.
std::string read_values(std::istream& in, Matrix& out, std::size_t item_size, bool big_endian) {
    constexpr std::size_t k_chunk_values = 8192;
    std::vector<char> chunk(k_chunk_values * item_size);
    const std::size_t total = out.rows * out.cols;
    out.values.clear();
    for (std::size_t done = 0; done < total;) {
        const std::size_t count = std::min(k_chunk_values, total - done);
        const std::size_t got = read_bytes(in, chunk.data(), count * item_size);
        if (got != count * item_size) {
            return "is truncated: the header announces " + count_of(total, "value", "values") + " (" +
                   group_thousands(total * item_size) + " bytes of data) but the data ends after " +
                   group_thousands(done * item_size + got) + " bytes";
        }
        for (std::size_t i = 0; i < count; ++i) {
            const char* bytes = chunk.data() + i * item_size;
            float value = 0.0f;
            if (item_size == 4) {
                const auto bits = load_value<std::uint32_t>(bytes, big_endian);
                std::memcpy(&value, &bits, sizeof value);
            } else {
                const auto bits = load_value<std::uint64_t>(bytes, big_endian);
                double wide = 0.0;
                std::memcpy(&wide, &bits, sizeof wide);
                const auto narrow = narrow_to_float32(wide);
                if (!narrow) {
                    const std::size_t index = done + i;
                    // Its shortest round-trip digits: "%g" printed 3.40282e+38 for a value just
                    // past float32's range, which reads as inside it.
                    return "has a float64 value " + shortest_double(wide) + " at row " +
                           std::to_string(index / out.cols) + ", column " + std::to_string(index % out.cols) +
                           " that is too large for float32 " + k_float32_range;
                }
                value = *narrow;
            }
            out.values.push_back(value);
        }
        done += count;
    }
    if (in.peek() != std::char_traits<char>::eof()) {
        return "has more bytes after the " + count_of(total, "value", "values") + " its header announces";
    }
    return {};
}

}  // namespace

ParseResult<Matrix> read_npy(std::istream& in, const ShapeCheck& check, const std::string& expected_shape) {
    using Result = ParseResult<Matrix>;
    std::array<char, k_preamble_v1 + 2> preamble{};
    const std::size_t got = read_bytes(in, preamble.data(), 8);
    if (got == 0) return Result::fail("is empty");
    if (got < k_magic.size() || std::string_view(preamble.data(), k_magic.size()) != k_magic) {
        return Result::fail("is not a .npy file (it does not start with \\x93NUMPY)");
    }
    if (got < 8) return Result::fail("is truncated inside its .npy preamble");
    const int major = static_cast<unsigned char>(preamble[6]);
    const int minor = static_cast<unsigned char>(preamble[7]);
    if (major < 1 || major > 3 || minor != 0) {
        return Result::fail("has .npy format version " + std::to_string(major) + "." + std::to_string(minor) +
                            " (allowed: 1.0, 2.0, 3.0)");
    }
    const std::size_t length_bytes = major == 1 ? 2 : 4;
    if (read_bytes(in, preamble.data() + 8, length_bytes) != length_bytes) {
        return Result::fail("is truncated inside its .npy preamble");
    }
    const std::size_t header_length =
        read_little_endian(reinterpret_cast<const unsigned char*>(preamble.data() + 8), length_bytes);
    if (header_length > k_max_npy_header_bytes) {
        return Result::fail("has a header of " + group_thousands(header_length) + " bytes (allowed: at most " +
                            group_thousands(k_max_npy_header_bytes) + ", as numpy.load)");
    }
    std::string header_text(header_length, '\0');
    if (read_bytes(in, header_text.data(), header_length) != header_length) {
        return Result::fail("is truncated inside its header");
    }
    auto header = HeaderParser(header_text).parse();
    if (!header) return Result::fail(header.error());
    const NpyHeader& h = header.value();

    const std::string& descr = h.descr;
    const bool known_dtype = descr.size() == 3 && (descr[0] == '<' || descr[0] == '>') &&
                             descr[1] == 'f' && (descr[2] == '4' || descr[2] == '8');
    if (!known_dtype) {
        return Result::fail("has dtype " + quote_for_message(descr) +
                            " (allowed: float32 or float64: '<f4', '<f8', '>f4', '>f8')");
    }
    if (h.shape.size() != 2) {
        return Result::fail("holds a " + std::to_string(h.shape.size()) + "-D array of shape " +
                            describe_shape(h.shape) + " (allowed: a 2-D array, " + expected_shape + ")");
    }
    if (h.fortran_order) {
        return Result::fail("is in Fortran order (allowed: C order; save np.ascontiguousarray(E))");
    }
    const std::uint64_t rows = h.shape[0];
    const std::uint64_t cols = h.shape[1];
    if (rows == 0 || cols == 0) {
        return Result::fail("holds an empty array of shape " + describe_shape(h.shape) +
                            " (allowed: at least one row and one column)");
    }
    if (auto problem = check(rows, cols)) return Result::fail(*problem);
    // The reader keeps its own promise about allocations, whatever `check` accepts.
    const auto count = checked_multiply(rows, cols);
    if (!count || *count > k_max_matrix_values) {
        return Result::fail("holds an array of shape " + describe_shape(h.shape) +
                            " (allowed: at most " + group_thousands(k_max_matrix_values) + " values)");
    }

    Matrix weight;
    weight.rows = rows;
    weight.cols = cols;
    const std::string problem = read_values(in, weight, descr[2] == '4' ? 4 : 8, descr[0] == '>');
    if (!problem.empty()) return Result::fail(problem);
    return Result::ok(std::move(weight));
}

std::string encode_npy_header(std::size_t rows, std::size_t cols) {
    std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + std::to_string(rows) +
                         ", " + std::to_string(cols) + "), }";
    // numpy leaves room for the first axis to grow to 21 digits, then pads to 64 bytes.
    header.append(k_growth_digits - std::to_string(rows).size(), ' ');
    const std::size_t unpadded = k_preamble_v1 + header.size() + 1;
    header.append(k_align - unpadded % k_align, ' ');  // numpy adds 64 when already aligned
    header += '\n';

    std::string out(k_magic);
    out += '\x01';
    out += '\x00';
    out += static_cast<char>(header.size() & 0xff);
    out += static_cast<char>(header.size() >> 8);
    return out + header;
}

std::string encode_npy_data(const float* values, std::size_t count) {
    std::string out;
    out.reserve(count * 4);
    for (std::size_t i = 0; i < count; ++i) {
        std::uint32_t bits = 0;
        std::memcpy(&bits, &values[i], sizeof bits);
        for (int k = 0; k < 4; ++k) out += static_cast<char>((bits >> (8 * k)) & 0xff);
    }
    return out;
}

std::string encode_npy(const Matrix& m) {
    return encode_npy_header(m.rows, m.cols) + encode_npy_data(m.values.data(), m.values.size());
}

}  // namespace embdemo
