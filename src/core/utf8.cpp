#include "core/utf8.h"

namespace bl {

size_t utf8_decode_one(std::string_view s, size_t pos, uint32_t* cp, const char** why) {
  const auto b0 = static_cast<unsigned char>(s[pos]);
  if (b0 < 0x80) {
    *cp = b0;
    return 1;
  }
  size_t len;
  uint32_t c;
  if (b0 < 0xC0) {
    *why = "unexpected continuation byte";
    return 0;
  } else if (b0 < 0xE0) {
    len = 2, c = b0 & 0x1F;
  } else if (b0 < 0xF0) {
    len = 3, c = b0 & 0x0F;
  } else if (b0 < 0xF8) {
    len = 4, c = b0 & 0x07;
  } else {
    *why = "invalid byte";  // 0xF8-0xFF never occur in UTF-8
    return 0;
  }
  // A sequence cut short by the end of input or by a non-continuation byte is "truncated";
  // the next byte is then left for the caller to report on its own.
  for (size_t k = 1; k < len; k++) {
    if (pos + k >= s.size() || (static_cast<unsigned char>(s[pos + k]) & 0xC0) != 0x80) {
      *why = "truncated sequence";
      return 0;
    }
    c = (c << 6) | (static_cast<unsigned char>(s[pos + k]) & 0x3F);
  }
  static const uint32_t kMinForLen[5] = {0, 0, 0x80, 0x800, 0x10000};
  if (c < kMinForLen[len]) {
    *why = "overlong encoding";
    return 0;
  }
  if (c >= 0xD800 && c <= 0xDFFF) {
    *why = "surrogate code point";
    return 0;
  }
  if (c > 0x10FFFF) {
    *why = "code point above U+10FFFF";
    return 0;
  }
  *cp = c;
  return len;
}

bool utf8_decode(std::string_view s, std::vector<uint32_t>* cps, std::string* error) {
  cps->clear();
  cps->reserve(s.size());  // upper bound; avoids regrowth on large inputs
  size_t pos = 0;
  while (pos < s.size()) {
    uint32_t cp = 0;
    const char* why = "";
    const size_t len = utf8_decode_one(s, pos, &cp, &why);
    if (len == 0) {
      if (error) *error = "invalid UTF-8 at byte " + std::to_string(pos) + ": " + why;
      cps->clear();
      return false;
    }
    cps->push_back(cp);
    pos += len;
  }
  return true;
}

void utf8_append(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

std::string utf8_encode(const uint32_t* cps, size_t n) {
  std::string out;
  out.reserve(n);
  for (size_t i = 0; i < n; i++) utf8_append(cps[i], &out);
  return out;
}

}  // namespace bl
