// The C++ tokenizer against the Python reference (tests/fixtures/tokenizer.json for spec
// version 2, tokenizer-zh.json for version 3, made by scripts/nmt/tokenizer_fixtures.py), plus
// the inputs the fixtures cannot hold: invalid UTF-8 and very large texts.
#include "core/tokenizer.h"

#include <gtest/gtest.h>

#include "core/utf8.h"

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
// tokenizer.json is of spec version 2 (1 tokenizes alike).
bl::Tokenizer fixture_tokenizer(const std::string& lang, bool with_vocab = false,
                                int version = 2) {
  return bl::Tokenizer(lang, fixture()["names"][lang].get<Tokens>(),
                       with_vocab ? fixture()["vocab"][lang].get<Tokens>() : Tokens{}, version);
}

// The code points version 3 treats differently from 2: CJK symbols and punctuation, ideographs,
// full-width and half-width forms, planes 2-3. Text without any tokenizes alike.
bool has_cjk(const std::string& s) {
  std::vector<uint32_t> cps;
  std::string error;
  if (!bl::utf8_decode(s, &cps, &error)) return false;
  for (uint32_t cp : cps)
    if ((cp >= 0x3000 && cp <= 0x303F) || (cp >= 0x3400 && cp <= 0x4DBF) ||
        (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0xF900 && cp <= 0xFAFF) ||
        (cp >= 0xFF00 && cp <= 0xFFEF) || (cp >= 0x20000 && cp <= 0x3FFFF))
      return true;
  return false;
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
  EXPECT_EQ(doc["spec_version"].get<int>(), 2);  // versions 1-2; 3 is tokenizer-zh.json
  EXPECT_GE(doc["cases"].size(), 200u) << "fixture truncated?";
  ASSERT_TRUE(doc["names"].contains("en"));
  ASSERT_TRUE(doc["names"].contains("fr"));
}

// One fixture case through tok: false (and a failure that shows the case) unless its tokens
// (with or without the vocabulary) and its detokenized text are the reference's. label names
// the tokenizer in the message.
bool case_matches(const bl::Tokenizer& tok, const nlohmann::json& c, bool with_vocab,
                  const std::string& label) {
  const std::string input = c["input"], want_detok = c["detokenized"];
  const Tokens want = c[with_vocab ? "tokens_with_vocab" : "tokens"].get<Tokens>();
  Tokens got;
  std::string error;
  const bool ok = tok.tokenize(input, &got, &error);
  const std::string detok = tok.detokenize(c["tokens"].get<Tokens>());
  if (ok && got == want && detok == want_detok) return true;
  ADD_FAILURE() << label << (with_vocab ? " (with vocabulary)" : "") << " input \""
                << printable(input) << "\"\n"
                << (ok ? "" : "  error: " + error + "\n") << "  tokens: " << joined(got)
                << "\n  want:   " << joined(want) << "\n  detokenized: \"" << printable(detok)
                << "\"\n  want:        \"" << printable(want_detok) << "\"";
  return false;
}

TEST(TokenizerFixture, EveryCaseMatchesTheReference) {
  const auto& doc = fixture();
  ASSERT_FALSE(doc.is_discarded());
  int checked = 0, failed = 0, repaired = 0;
  for (int version : {2, 1}) {  // version 1 tokenizes as 2 does
  const bl::Tokenizer en = fixture_tokenizer("en", false, version),
                      fr = fixture_tokenizer("fr", false, version);
  const bl::Tokenizer en_v = fixture_tokenizer("en", true, version),
                      fr_v = fixture_tokenizer("fr", true, version);
  for (const auto& c : doc["cases"]) for (bool with_vocab : {false, true}) {
    const std::string lang = c["lang"];
    repaired += with_vocab && c["tokens_with_vocab"] != c["tokens"];
    const bl::Tokenizer& tok = lang == "fr" ? (with_vocab ? fr_v : fr) : (with_vocab ? en_v : en);
    failed += !case_matches(tok, c, with_vocab, lang + " v" + std::to_string(version));
    checked++;
  }
  }
  EXPECT_EQ(failed, 0) << "of " << checked;
  EXPECT_GE(checked, 2 * 2 * 200);
  EXPECT_GE(repaired, 2 * 15) << "case repair cases missing from the fixture?";
}

// Spec 3 reads every version-2 case without CJK or full-width characters as version 2 does,
// with and without the vocabulary, and detokenizes it alike; the cases with them differ.
TEST(TokenizerFixture, Version3ReadsTextWithoutCjkAsVersion2) {
  const auto& doc = fixture();
  ASSERT_FALSE(doc.is_discarded());
  int same = 0, cjk = 0, cjk_differs = 0;
  for (const auto& c : doc["cases"]) {
    const std::string lang = c["lang"], input = c["input"];
    bool differs = false;
    for (bool with_vocab : {false, true}) {
      const bl::Tokenizer v3 = fixture_tokenizer(lang, with_vocab, 3);
      Tokens got;
      std::string error;
      ASSERT_TRUE(v3.tokenize(input, &got, &error)) << error;
      const Tokens want = c[with_vocab ? "tokens_with_vocab" : "tokens"].get<Tokens>();
      const std::string detok = v3.detokenize(c["tokens"].get<Tokens>());
      differs |= got != want || detok != c["detokenized"].get<std::string>();
      if (!has_cjk(input)) {
        EXPECT_EQ(joined(got), joined(want)) << printable(input);
        EXPECT_EQ(detok, c["detokenized"].get<std::string>()) << printable(input);
      }
    }
    if (has_cjk(input)) {
      cjk++;
      cjk_differs += differs;
    } else {
      same++;
    }
  }
  EXPECT_GE(same, 200);
  EXPECT_GE(cjk, 3);
  EXPECT_EQ(cjk_differs, cjk) << "every version-2 case with ideographs reads otherwise in 3";
}

const nlohmann::json& fixture_zh() {
  static const nlohmann::json doc = [] {
    std::ifstream f(BL_SOURCE_DIR "/tests/fixtures/tokenizer-zh.json", std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return nlohmann::json::parse(ss.str(), nullptr, /*allow_exceptions=*/false);
  }();
  return doc;
}

// Spec version 3 (Chinese): the default tokenizer reproduces every case of tokenizer-zh.json.
TEST(TokenizerFixtureZh, EveryCaseMatchesTheReference) {
  const auto& doc = fixture_zh();
  ASSERT_FALSE(doc.is_discarded()) << "tests/fixtures/tokenizer-zh.json missing or not JSON";
  int checked = 0, failed = 0;
  for (const auto& c : doc["cases"]) for (bool with_vocab : {false, true}) {
    const std::string lang = c["lang"];
    ASSERT_EQ(c["version"].get<int>(), 3);
    const bl::Tokenizer tok(lang, doc["names"][lang].get<Tokens>(),
                            with_vocab ? doc["vocab"][lang].get<Tokens>() : Tokens{});
    ASSERT_EQ(tok.spec_version(), 3);  // the default: the core's own spec
    failed += !case_matches(tok, c, with_vocab, lang + " v3");
    checked++;
  }
  EXPECT_EQ(failed, 0) << "of " << checked;
  EXPECT_GE(checked, 2 * 150);
  EXPECT_EQ(doc["spec_version"].get<int>(), bl::kTokenizerSpecVersion);
  size_t zh = 0;
  for (const auto& c : doc["cases"]) zh += c["lang"] == "zh";
  EXPECT_GE(zh, 60u) << "Chinese cases missing from the fixture?";
}

// The example the spec gives: under version 2 a Chinese sentence is one word, under 3 a token
// per ideograph with digit runs and Latin words whole; 2 still reads it the old way.
TEST(TokenizerZh, Version3SplitsIdeographsVersion2DoesNot) {
  const bl::Tokenizer v2("zh", {}, {}, 2), v3("zh", {}, {}, 3);
  Tokens got;
  std::string error;
  ASSERT_TRUE(v2.tokenize("\xE6\x88\x91\xE6\x9C\x89" "3\xE5\x8F\xAA\xE7\x8C\xAB", &got, &error));
  EXPECT_EQ(joined(got), "[\xE6\x88\x91\xE6\x9C\x89" "3\xE5\x8F\xAA\xE7\x8C\xAB]");  // 我有3只猫
  ASSERT_TRUE(v3.tokenize("\xE6\x88\x91\xE6\x9C\x89" "3\xE5\x8F\xAA\xE7\x8C\xAB", &got, &error));
  EXPECT_EQ(got, (Tokens{"\xE6\x88\x91", "\xE6\x9C\x89", "3", "\xE5\x8F\xAA", "\xE7\x8C\xAB"}));
  EXPECT_EQ(v3.detokenize(got), "\xE6\x88\x91\xE6\x9C\x89" "3\xE5\x8F\xAA\xE7\x8C\xAB");
  EXPECT_EQ(v3.detokenize({"\xE7\x94\xA8", "iPhone", "6", "\xE3\x80\x82"}),
            "\xE7\x94\xA8iPhone 6\xE3\x80\x82");  // 用iPhone 6。
  EXPECT_EQ(v2.detokenize({"\xE7\x94\xA8", "iPhone", "\xE3\x80\x82"}),
            "\xE7\x94\xA8 iPhone \xE3\x80\x82");  // version 2 has no Chinese spacing
}

// Byte ranges point at what the user typed: a folded full-width digit keeps its 3 bytes.
TEST(TokenizerZh, RangesOfFoldedAndSplitCharacters) {
  const bl::Tokenizer zh("zh", {});
  const std::string text =  // 我３只ｉPhone。
      "\xE6\x88\x91\xEF\xBC\x93\xE5\x8F\xAA\xEF\xBD\x89Phone\xE3\x80\x82";
  Tokens got;
  std::vector<bl::Tokenizer::ByteRange> at;
  std::string error;
  ASSERT_TRUE(zh.tokenize(text, &got, &at, &error)) << error;
  EXPECT_EQ(got, (Tokens{"\xE6\x88\x91", "3", "\xE5\x8F\xAA", "iPhone", "\xE3\x80\x82"}));
  ASSERT_EQ(at.size(), 5u);
  const std::pair<size_t, size_t> want[] = {{0, 3}, {3, 6}, {6, 9}, {9, 17}, {17, 20}};
  for (size_t i = 0; i < 5; i++) {
    EXPECT_EQ(at[i].begin, want[i].first) << i;
    EXPECT_EQ(at[i].end, want[i].second) << i;
  }
}

// A megabyte of ideographs (a token each) and of Chinese detokenization stays linear.
TEST(TokenizerZh, OneMegabyteOfIdeographsIsLinear) {
  const bl::Tokenizer zh("zh", {});
  std::string text;
  while (text.size() < (1u << 20)) text += "\xE7\x8C\xAB\xE3\x80\x82";  // 猫。
  const auto t0 = std::chrono::steady_clock::now();
  Tokens got;
  std::string error;
  ASSERT_TRUE(zh.tokenize(text, &got, &error)) << error;
  EXPECT_EQ(got.size(), text.size() / 3);
  EXPECT_EQ(zh.detokenize(got), text);
  const double ms = ms_since(t0);
  EXPECT_LT(ms, 3000.0 * kTimeSlack) << "1 MB took " << ms << " ms";
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
