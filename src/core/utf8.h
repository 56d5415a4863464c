// Strict UTF-8 <-> code points. Strict because the tokenizer spec (docs/tokenization.md)
// says the core rejects bad input instead of guessing: a replacement character here would
// silently become a token the Python side never produces.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace bl {

// Decodes the code point starting at s[pos]. On success stores it in *cp and returns its
// length in bytes (1-4). On failure returns 0 and points *why at a static description
// ("truncated sequence", "overlong encoding", ...). pos must be < s.size().
size_t utf8_decode_one(std::string_view s, size_t pos, uint32_t* cp, const char** why);

// Decodes all of s into *cps (cleared first). On invalid input returns false and sets *error
// to e.g. "invalid UTF-8 at byte 5: truncated sequence" (0-based offset of the bad sequence).
bool utf8_decode(std::string_view s, std::vector<uint32_t>* cps, std::string* error);

// Whether pred(cp) holds for some code point of s, decoded leniently: a byte that does not start
// a valid sequence is skipped. For strings that may come from any vocabulary (detokenization,
// casing), where a stray byte should read as no character rather than fail.
template <class Pred>
bool utf8_any_lenient(std::string_view s, Pred pred) {
  for (size_t pos = 0; pos < s.size();) {
    uint32_t cp = 0;
    const char* why = nullptr;
    const size_t len = utf8_decode_one(s, pos, &cp, &why);
    if (len == 0) {
      pos++;
      continue;
    }
    if (pred(cp)) return true;
    pos += len;
  }
  return false;
}

// Appends the UTF-8 encoding of cp. cp must be a scalar value (<= U+10FFFF, no surrogate).
void utf8_append(uint32_t cp, std::string* out);

// Encodes a run of code points.
std::string utf8_encode(const uint32_t* cps, size_t n);

}  // namespace bl
