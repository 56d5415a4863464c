// The C++ tokenizer against the Python reference (tests/fixtures/tokenizer.json, made by
// scripts/nmt/tokenizer_fixtures.py), plus the inputs the fixture cannot hold: invalid UTF-8
// and very large texts.
#include "core/tokenizer.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace {

using Tokens = std::vector<std::string>;

const nlohmann::json& fixture() {
  static const nlohmann::json doc = [] {
    std::ifstream f(BL_SOURCE_DIR "/tests/fixtures/tokenizer.json", std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return nlohmann::json::parse(ss.str(), nullptr, /*allow_exceptions=*/false);
  }();
  return doc;
}

// with_vocab: the fixture's small vocabulary, which turns case repair on (spec step 6).
bl::Tokenizer fixture_tokenizer(const std::string& lang, bool with_vocab = false) {
  return bl::Tokenizer(lang, fixture()["names"][lang].get<Tokens>(),
                       with_vocab ? fixture()["vocab"][lang].get<Tokens>() : Tokens{});
}

// Inputs hold NULs, escapes and bidi controls: show them as escapes, not raw bytes.
std::string printable(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    if (c < 0x20 || c == 0x7F || c == '\\') {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

std::string joined(const Tokens& t) {
  std::string out = "[";
  for (size_t i = 0; i < t.size(); i++) out += (i ? "|" : "") + printable(t[i]);
  return out + "]";
}

// Time limits are for optimised builds; sanitizers and -O0 run ~10x slower. Even with the
// slack, a quadratic tokenizer would blow the 1 MB limit by orders of magnitude.
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(undefined_behavior_sanitizer)
#define BL_TEST_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(BL_TEST_SANITIZED) || !defined(__OPTIMIZE__)
constexpr double kTimeSlack = 10.0;
#else
constexpr double kTimeSlack = 1.0;
#endif

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

TEST(TokenizerFixture, IsCompleteAndOfThisSpecVersion) {
  const auto& doc = fixture();
  ASSERT_FALSE(doc.is_discarded()) << "tests/fixtures/tokenizer.json missing or not JSON";
  EXPECT_EQ(doc["spec_version"].get<int>(), bl::kTokenizerSpecVersion);
  EXPECT_GE(doc["cases"].size(), 200u) << "fixture truncated?";
  ASSERT_TRUE(doc["names"].contains("en"));
  ASSERT_TRUE(doc["names"].contains("fr"));
}

TEST(TokenizerFixture, EveryCaseMatchesTheReference) {
  const auto& doc = fixture();
  ASSERT_FALSE(doc.is_discarded());
  const bl::Tokenizer en = fixture_tokenizer("en"), fr = fixture_tokenizer("fr");
  const bl::Tokenizer en_v = fixture_tokenizer("en", true), fr_v = fixture_tokenizer("fr", true);
  int checked = 0, failed = 0, repaired = 0;
  for (const auto& c : doc["cases"]) for (bool with_vocab : {false, true}) {
    const std::string lang = c["lang"], input = c["input"], want_detok = c["detokenized"];
    const Tokens want = c[with_vocab ? "tokens_with_vocab" : "tokens"].get<Tokens>();
    repaired += with_vocab && want != c["tokens"].get<Tokens>();
    const bl::Tokenizer& tok = lang == "fr" ? (with_vocab ? fr_v : fr) : (with_vocab ? en_v : en);
    Tokens got;
    std::string error;
    const bool ok = tok.tokenize(input, &got, &error);
    const std::string detok = tok.detokenize(c["tokens"].get<Tokens>());
    if (!ok || got != want || detok != want_detok) {
      failed++;
      ADD_FAILURE() << lang << (with_vocab ? " (with vocabulary)" : "") << " input \""
                    << printable(input) << "\"\n"
                    << (ok ? "" : "  error: " + error + "\n") << "  tokens: " << joined(got)
                    << "\n  want:   " << joined(want) << "\n  detokenized: \""
                    << printable(detok) << "\"\n  want:        \"" << printable(want_detok)
                    << "\"";
    }
    checked++;
  }
  EXPECT_EQ(failed, 0) << "of " << checked;
  EXPECT_GE(checked, 2 * 200);
  EXPECT_GE(repaired, 15) << "case repair cases missing from the fixture?";
}

TEST(TokenizerTest, EmptyAndBlankInputGiveNoTokens) {
  const bl::Tokenizer en("en", {}), fr("fr", {});
  for (const std::string& s : {std::string(), std::string(" \t\r\n"), std::string("\0\0", 2),
                              std::string("\xE2\x80\x8B\xEF\xBB\xBF")}) {
    Tokens t = {"stale"};
    std::string error;
    EXPECT_TRUE(en.tokenize(s, &t, &error)) << error;
    EXPECT_TRUE(t.empty()) << joined(t);
    EXPECT_TRUE(fr.tokenize(s, &t, &error)) << error;
    EXPECT_TRUE(t.empty()) << joined(t);
  }
  EXPECT_EQ(en.detokenize({}), "");
}

TEST(TokenizerTest, InvalidUtf8IsAnErrorNotACrash) {
  const bl::Tokenizer fr("fr", {"Paris"});
  const std::pair<std::string, std::string> cases[] = {
      {"C'est \x80", "invalid UTF-8 at byte 6: unexpected continuation byte"},
      {"\xC0\xA7", "invalid UTF-8 at byte 0: overlong encoding"},
      {"l'\xE0\x80\xA7", "invalid UTF-8 at byte 2: overlong encoding"},
      {"ab\xED\xA0\x80", "invalid UTF-8 at byte 2: surrogate code point"},
      {"\xF4\x90\x80\x80!", "invalid UTF-8 at byte 0: code point above U+10FFFF"},
      {"caf\xC3", "invalid UTF-8 at byte 3: truncated sequence"},
      {"caf\xC3 bar", "invalid UTF-8 at byte 3: truncated sequence"},
      {"\xFE\xFF", "invalid UTF-8 at byte 0: invalid byte"},
  };
  for (const auto& [input, want] : cases) {
    Tokens t = {"stale"};
    std::string error;
    EXPECT_FALSE(fr.tokenize(input, &t, &error)) << printable(input);
    EXPECT_EQ(error, want) << printable(input);
    EXPECT_TRUE(t.empty());
  }
  // A huge valid prefix must not hide the offset.
  std::string big(100000, 'a');
  big += "\xED\xBF\xBF";
  Tokens t;
  std::string error;
  EXPECT_FALSE(fr.tokenize(big, &t, &error));
  EXPECT_EQ(error, "invalid UTF-8 at byte 100000: surrogate code point");
}

TEST(TokenizerTest, DetokenizeToleratesAnyBytes) {
  const bl::Tokenizer en("en", {}), fr("fr", {});
  const Tokens odd = {"", "\xFF", "a\xC3", "", "'", "\xE2\x80", "\"", "\xC3\xA9t\xC3\xA9", ""};
  EXPECT_EQ(en.detokenize(odd), " \xFF A\xC3  ' \xE2\x80 \"\xC3\xA9t\xC3\xA9 ");
  EXPECT_FALSE(fr.detokenize(odd).empty());
}

// Repeating a sentence must give the repeated tokens: no state leaks across sentences.
TEST(TokenizerTest, HundredKilobytesIsFastAndExact) {
  const bl::Tokenizer fr("fr", {"Tom"});
  const std::string sentence =
      "Aujourd\xE2\x80\x99hui, qu\xE2\x80\x99il parte \xC3\xA0 12:30\xE2\x80\xAF! ";
  const Tokens one = {"aujourd'hui", ",", "qu'", "il", "parte", "\xC3\xA0", "12:30", "!"};
  std::string text;
  size_t reps = 0;
  for (; text.size() < 100 * 1024; reps++) text += sentence;

  const auto t0 = std::chrono::steady_clock::now();
  Tokens got;
  std::string error;
  ASSERT_TRUE(fr.tokenize(text, &got, &error)) << error;
  const std::string detok = fr.detokenize(got);
  const double ms = ms_since(t0);

  ASSERT_EQ(got.size(), reps * one.size());
  for (size_t i = 0; i < got.size(); i++) ASSERT_EQ(got[i], one[i % one.size()]) << "token " << i;
  EXPECT_EQ(detok.substr(0, 36), "Aujourd'hui, qu'il parte \xC3\xA0 12:30 ! ");
  EXPECT_LT(ms, 1000.0 * kTimeSlack) << "100 KB took " << ms << " ms";
}

// One enormous word through each rule that loops inside a word: must stay linear.
TEST(TokenizerTest, OneMegabyteWordsAreLinear) {
  const bl::Tokenizer en("en", {}), fr("fr", {});
  const size_t n = 1 << 20;
  Tokens got;
  std::string error;

  auto t0 = std::chrono::steady_clock::now();
  ASSERT_TRUE(en.tokenize(std::string(n, 'A'), &got, &error)) << error;
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0], std::string(n, 'A'));  // all capitals: truecasing keeps it

  std::string joined_word;  // a'b-a'b-...z: joiners keep it one word
  while (joined_word.size() < n) joined_word += "a'b-";
  joined_word += "z";
  ASSERT_TRUE(en.tokenize(joined_word, &got, &error)) << error;
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0], joined_word);

  std::string accents;  // e + combining acute, composed one by one
  while (accents.size() < n) accents += "e\xCC\x81";
  ASSERT_TRUE(en.tokenize(accents, &got, &error)) << error;
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].size(), accents.size() / 3 * 2);

  std::string elisions;  // qu'qu'qu'...x: the elision loop peels one at a time
  while (elisions.size() < n) elisions += "qu'";
  ASSERT_TRUE(fr.tokenize(elisions + "x", &got, &error)) << error;
  ASSERT_EQ(got.size(), elisions.size() / 3 + 1);
  EXPECT_EQ(got.back(), "x");

  std::string digits;  // 1.2,3:4.5... stays one number
  while (digits.size() < n) digits += "1.2,3:";
  digits += "9";
  ASSERT_TRUE(en.tokenize(digits, &got, &error)) << error;
  ASSERT_EQ(got.size(), 1u);

  ASSERT_TRUE(en.tokenize(std::string(n, '.'), &got, &error)) << error;
  EXPECT_EQ(got.size(), (n + 2) / 3);
  EXPECT_EQ(en.detokenize(got), std::string(n, '.'));

  const double ms = ms_since(t0);
  EXPECT_LT(ms, 3000.0 * kTimeSlack) << "1 MB inputs took " << ms << " ms";
}

TEST(TokenizerTest, NamesOnlyMatterSentenceInitially) {
  const bl::Tokenizer en("en", {"Tom"});
  Tokens got;
  std::string error;
  ASSERT_TRUE(en.tokenize("Tom saw Bob. Bob saw Tom. Alice left.", &got, &error));
  EXPECT_EQ(got, (Tokens{"Tom", "saw", "Bob", ".", "bob", "saw", "Tom", ".", "alice", "left",
                         "."}));
  EXPECT_EQ(en.detokenize(got), "Tom saw Bob. Bob saw Tom. Alice left.");
}

}  // namespace
