// JSON spelling shared by every machine view: numbers in their shortest round-trip form (non-finite
// ones as strings, since JSON has none), strings in ASCII with escapes, and the names of E's sources.
#pragma once

#include <string>
#include <string_view>

#include "core/ids.hpp"
#include "core/lessons/report.hpp"

namespace embdemo {

// JSON has no NaN or infinity; those become the strings "nan", "inf", "-inf".
std::string json_number(float value);
std::string json_number(double value);

// A JSON string in ASCII (see json_text.cpp for how bytes that are not UTF-8 are kept).
std::string json_string(std::string_view text);

// [2, 3, 1], or [[2, 3], [1, 1]] for a batch.
std::string ids_json(const IdBatch& ids);

// ["Your", " journey"]: the token labels of ids made from --text, escaped as text views quote them.
std::string tokens_json(const IdBatch& ids);

// For ids made from --text, the fields that go after "ids": `"text": "...",` and `"tokens":
// [...],`, each on its own line after `indent`; empty for typed ids.
std::string id_source_json(const IdBatch& ids, const std::string& indent);

// "torch", "randint", "index" or "file": docs/schema.md's weight_source.
const char* weight_source_name(const WeightOrigin& origin);

}  // namespace embdemo
