// Helpers shared by the tests that compare with tensors recorded from real torch: float32 bit
// patterns, the FNV-1a hash the data files use for big tensors, and the reader of
// tests/data/torch_grad_vectors.txt (format: tools/make_torch_grad_vectors.py). Test-only code.
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "core/matrix.hpp"

namespace embdemo::testing {

inline std::uint32_t bits_of(float value) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
}

inline std::string hex(std::uint64_t value, int digits) {
    std::ostringstream out;
    out << "0x" << std::hex;
    out.width(digits);
    out.fill('0');
    out << value;
    return out.str();
}

// FNV-1a over the float32 values as little-endian bytes, independent of the host's byte order.
inline std::uint64_t fnv1a64(const std::vector<float>& values) {
    std::uint64_t hash = 0xcbf29ce484222325u;
    for (const float value : values) {
        const std::uint32_t bits = bits_of(value);
        for (int shift = 0; shift < 32; shift += 8) {
            hash ^= (bits >> shift) & 0xffu;
            hash *= 0x100000001b3u;
        }
    }
    return hash;
}

struct RecordedTensor {
    std::size_t rows = 0;
    std::size_t cols = 0;
    bool full = false;
    std::vector<std::uint32_t> bits;  // full: rows * cols bit patterns, row-major
    std::uint64_t fnv = 0;            // otherwise: the hash of all values
};

struct RecordedCase {
    std::string label;  // "line N: case <kind> ...", for failure messages
    std::string kind;
    std::map<std::string, std::string> keys;
    std::map<std::string, RecordedTensor> tensors;

    const std::string& key(const std::string& name) const {
        const auto found = keys.find(name);
        REQUIRE_MESSAGE(found != keys.end(), label, ": no key ", name);
        return found->second;
    }
    std::uint64_t number(const std::string& name) const { return std::stoull(key(name)); }
    double real(const std::string& name) const { return std::stod(key(name)); }
    const RecordedTensor& tensor(const std::string& name) const {
        const auto found = tensors.find(name);
        REQUIRE_MESSAGE(found != tensors.end(), label, ": no tensor ", name);
        return found->second;
    }
};

// "<rows>x<cols>" -> rows, cols; false when there is no 'x'.
inline bool parse_shape(const std::string& text, std::size_t& rows, std::size_t& cols) {
    const std::size_t x = text.find('x');
    if (x == std::string::npos) return false;
    rows = std::stoull(text.substr(0, x));
    cols = std::stoull(text.substr(x + 1));
    return true;
}

// "tensor <name> <rows>x<cols> full <hex>... | fnv <hex>"; false with a reason when malformed.
inline bool parse_tensor(std::istringstream& in, RecordedCase& out, std::string& error) {
    std::string name, shape, storage, word;
    if (!(in >> name >> shape >> storage)) {
        error = "tensor line with fewer than three fields";
        return false;
    }
    RecordedTensor tensor;
    if (!parse_shape(shape, tensor.rows, tensor.cols)) {
        error = "bad shape '" + shape + "'";
        return false;
    }
    tensor.full = storage == "full";
    if (tensor.full) {
        while (in >> word) tensor.bits.push_back(static_cast<std::uint32_t>(std::stoul(word, nullptr, 16)));
        if (tensor.bits.size() != tensor.rows * tensor.cols) {
            error = "tensor " + name + ": expected " + std::to_string(tensor.rows * tensor.cols) +
                    " values, found " + std::to_string(tensor.bits.size());
            return false;
        }
    } else if (storage == "fnv" && in >> word) {
        tensor.fnv = std::stoull(word, nullptr, 16);
    } else {
        error = "tensor " + name + ": unknown storage '" + storage + "'";
        return false;
    }
    out.tensors[name] = std::move(tensor);
    return true;
}

inline std::vector<RecordedCase> load_recorded_cases(const std::string& path) {
    std::ifstream file(path);
    REQUIRE_MESSAGE(file.good(), "cannot open ", path,
                    " (regenerate it with /usr/bin/python3 tools/make_torch_grad_vectors.py)");
    std::vector<RecordedCase> cases;
    std::string line;
    std::size_t line_number = 0;
    bool open = false;
    while (std::getline(file, line)) {
        ++line_number;
        if (line.empty() || line[0] == '#') continue;
        std::istringstream in(line);
        std::string word;
        in >> word;
        std::string error;
        if (word == "case" && !open) {
            cases.emplace_back();
            cases.back().label = "line " + std::to_string(line_number) + ": " + line;
            in >> cases.back().kind;
            while (in >> word) {
                const std::size_t equals = word.find('=');
                if (equals == std::string::npos) error = "bad key '" + word + "'";
                cases.back().keys[word.substr(0, equals)] = word.substr(equals + 1);
            }
            open = true;
        } else if (word == "tensor" && open) {
            parse_tensor(in, cases.back(), error);
        } else if (word == "end" && open) {
            open = false;
        } else {
            error = "unexpected '" + word + "'";
        }
        REQUIRE_MESSAGE(error.empty(), path, " line ", line_number, ": ", error);
    }
    REQUIRE_MESSAGE(!open, path, ": the last case has no 'end'");
    return cases;
}

// Compares `actual` with a recorded tensor bit for bit; reports the first difference (index,
// expected, actual) or the hash, and returns whether everything matched.
inline bool matches_recorded(const RecordedCase& recorded, const std::string& name,
                             const Matrix& actual) {
    const RecordedTensor& expected = recorded.tensor(name);
    if (actual.rows != expected.rows || actual.cols != expected.cols) {
        FAIL_CHECK(recorded.label, ": ", name, " has shape ", actual.rows, "x", actual.cols,
                   ", expected ", expected.rows, "x", expected.cols);
        return false;
    }
    if (!expected.full) {
        const std::uint64_t actual_fnv = fnv1a64(actual.values);
        if (actual_fnv == expected.fnv) return true;
        FAIL_CHECK(recorded.label, ": ", name, " FNV-1a expected ", hex(expected.fnv, 16), ", got ",
                   hex(actual_fnv, 16));
        return false;
    }
    for (std::size_t i = 0; i < expected.bits.size(); ++i) {
        const std::uint32_t got = bits_of(actual.values[i]);
        if (got == expected.bits[i]) continue;
        FAIL_CHECK(recorded.label, ": ", name, " index ", i, " (row ", i / expected.cols, ")",
                   ": expected ", hex(expected.bits[i], 8), ", got ", hex(got, 8));
        return false;
    }
    return true;
}

}  // namespace embdemo::testing
