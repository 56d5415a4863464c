// JSON and UTF-8 checks shared by the model file loader (model_file.cpp, model_file_tensors.cpp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace bl {
namespace model_file {

// Nesting of any JSON text in a model file: the format needs 3 levels (header, tensor entry,
// shape); the cap keeps a hostile header from building a deep tree.
constexpr int kMaxJsonDepth = 16;

// True if s[0..n) is well-formed UTF-8 (no overlong forms, surrogates, code points above
// U+10FFFF or truncated sequences); otherwise *bad_offset is the offset of the first bad byte.
bool is_valid_utf8(const uint8_t* s, size_t n, size_t* bad_offset);

// Parses one JSON text without exceptions. Also rejects what nlohmann accepts silently:
// duplicate keys in an object (the last one would win), nesting deeper than kMaxJsonDepth, and
// more than max_values values and keys, which bounds the tree a hostile text can make us build
// (a DOM value costs 16+ bytes, "0," only 2). On failure *error says why, without naming what
// was parsed (the caller prefixes that).
bool parse_json(const char* first, const char* last, size_t max_values, nlohmann::json* out,
                std::string* error);

// "[3,4]"-style rendering of a JSON value for error messages, cut to a readable length.
std::string short_dump(const nlohmann::json& value);

}  // namespace model_file
}  // namespace bl
