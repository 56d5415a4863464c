#include "core/utf8.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

std::string decode_error(const std::string& s) {
  std::vector<uint32_t> cps;
  std::string error;
  EXPECT_FALSE(bl::utf8_decode(s, &cps, &error)) << "accepted invalid input";
  EXPECT_TRUE(cps.empty());
  return error;
}

TEST(Utf8Test, DecodesBoundaryCodePoints) {
  const std::vector<uint32_t> want = {0x00, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFF,
                                      0x10000, 0x10FFFF};
  std::string s;
  for (uint32_t cp : want) bl::utf8_append(cp, &s);
  EXPECT_EQ(s, std::string("\x00\x7F\xC2\x80\xDF\xBF\xE0\xA0\x80\xED\x9F\xBF\xEE\x80\x80"
                           "\xEF\xBF\xBF\xF0\x90\x80\x80\xF4\x8F\xBF\xBF",
                           26));
  std::vector<uint32_t> got;
  std::string error;
  ASSERT_TRUE(bl::utf8_decode(s, &got, &error)) << error;
  EXPECT_EQ(got, want);
}

TEST(Utf8Test, RoundTripsEveryScalarValue) {
  std::string s;
  std::vector<uint32_t> want;
  for (uint32_t cp = 0; cp <= 0x10FFFF; cp++) {
    if (cp >= 0xD800 && cp <= 0xDFFF) continue;
    want.push_back(cp);
    bl::utf8_append(cp, &s);
  }
  std::vector<uint32_t> got;
  std::string error;
  ASSERT_TRUE(bl::utf8_decode(s, &got, &error)) << error;
  EXPECT_EQ(got, want);
  EXPECT_EQ(bl::utf8_encode(got.data(), got.size()), s);
}

TEST(Utf8Test, EmptyInput) {
  std::vector<uint32_t> cps = {1, 2};
  std::string error;
  EXPECT_TRUE(bl::utf8_decode("", &cps, &error));
  EXPECT_TRUE(cps.empty());
}

TEST(Utf8Test, RejectsEachKindWithItsOffset) {
  EXPECT_EQ(decode_error("\x80"), "invalid UTF-8 at byte 0: unexpected continuation byte");
  EXPECT_EQ(decode_error("ab\xBF"), "invalid UTF-8 at byte 2: unexpected continuation byte");
  EXPECT_EQ(decode_error("\xC3\xA9\xA9"),
            "invalid UTF-8 at byte 2: unexpected continuation byte");
  EXPECT_EQ(decode_error("\xFF"), "invalid UTF-8 at byte 0: invalid byte");
  EXPECT_EQ(decode_error("x\xF8\x88\x80\x80\x80"), "invalid UTF-8 at byte 1: invalid byte");
  // Overlong forms of '/', U+07FF and U+FFFF.
  EXPECT_EQ(decode_error("\xC0\xAF"), "invalid UTF-8 at byte 0: overlong encoding");
  EXPECT_EQ(decode_error("\xC1\xBF"), "invalid UTF-8 at byte 0: overlong encoding");
  EXPECT_EQ(decode_error("\xE0\x9F\xBF"), "invalid UTF-8 at byte 0: overlong encoding");
  EXPECT_EQ(decode_error("\xF0\x8F\xBF\xBF"), "invalid UTF-8 at byte 0: overlong encoding");
  EXPECT_EQ(decode_error("abcd\xED\xA0\x80"), "invalid UTF-8 at byte 4: surrogate code point");
  EXPECT_EQ(decode_error("\xED\xBF\xBF"), "invalid UTF-8 at byte 0: surrogate code point");
  EXPECT_EQ(decode_error("\xF4\x90\x80\x80"),
            "invalid UTF-8 at byte 0: code point above U+10FFFF");
  EXPECT_EQ(decode_error("\xF7\xBF\xBF\xBF"),
            "invalid UTF-8 at byte 0: code point above U+10FFFF");
  EXPECT_EQ(decode_error("\xC3"), "invalid UTF-8 at byte 0: truncated sequence");
  EXPECT_EQ(decode_error("hello\xE2\x82"), "invalid UTF-8 at byte 5: truncated sequence");
  EXPECT_EQ(decode_error("\xF0\x9F\x98"), "invalid UTF-8 at byte 0: truncated sequence");
  EXPECT_EQ(decode_error("\xE2\x82" "A"), "invalid UTF-8 at byte 0: truncated sequence");
  EXPECT_EQ(decode_error("\xF0\x9F\x98\xC3\xA9"), "invalid UTF-8 at byte 0: truncated sequence");
}

TEST(Utf8Test, NulIsAnOrdinaryCodePoint) {
  std::vector<uint32_t> cps;
  std::string error;
  ASSERT_TRUE(bl::utf8_decode(std::string("a\0b", 3), &cps, &error));
  EXPECT_EQ(cps, (std::vector<uint32_t>{'a', 0, 'b'}));
}

}  // namespace
