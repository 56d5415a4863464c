// Sentence splitting for long input (src/core/sentences.h), and the token byte ranges it is
// built on: every sentence is a piece of the text exactly as typed.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/sentences.h"

namespace {

using Strings = std::vector<std::string>;

Strings split(const std::string& text, const char* lang = "en",
              int version = bl::kTokenizerSpecVersion) {
  const bl::Tokenizer tok(lang, {"I", "Tom"}, {}, version);
  std::vector<bl::Tokenizer::ByteRange> ranges;
  std::string error;
  EXPECT_TRUE(bl::split_sentences(tok, text, &ranges, &error)) << error;
  Strings out;
  for (const auto& r : ranges) {
    EXPECT_LE(r.begin, r.end);
    EXPECT_LE(r.end, text.size());
    out.push_back(text.substr(r.begin, r.end - r.begin));
  }
  return out;
}

TEST(Sentences, SplitAfterSentenceEnds) {
  EXPECT_EQ(split("The cat sleeps. The dog eats! Is it red? Yes... Fine\u2026 ok"),
            (Strings{"The cat sleeps.", "The dog eats!", "Is it red?", "Yes...", "Fine\u2026",
                     "ok"}));
  EXPECT_EQ(split("One sentence only."), (Strings{"One sentence only."}));
  EXPECT_EQ(split("No end mark"), (Strings{"No end mark"}));
}

TEST(Sentences, ClosingPunctuationStaysWithItsSentence) {
  EXPECT_EQ(split("Really?! Yes. (I think so.) He said \"yes.\" Then \"Go!\" she said."),
            (Strings{"Really?!", "Yes.", "(I think so.)", "He said \"yes.\"", "Then \"Go!\"",
                     "she said."}));  // the tokenizer's rule: a word after an end starts anew
  EXPECT_EQ(split("She asked: \"Why?\" \"Because.\" Fine."),
            (Strings{"She asked: \"Why?\"", "\"Because.\"", "Fine."}));
}

TEST(Sentences, NumbersAndTrailingPunctuationDoNotSplit) {
  EXPECT_EQ(split("It costs 3.50 euros. It is 12:30."), (Strings{"It costs 3.50 euros.", "It is 12:30."}));
  EXPECT_EQ(split("The end. !!! ..."), (Strings{"The end. !!! ..."}));
  EXPECT_EQ(split("...and then. Later"), (Strings{"...and then.", "Later"}));
}

TEST(Sentences, PiecesAreTheTextAsTyped) {
  // Curly quotes, a decomposed accent, zero-width and odd spaces: the pieces are byte for
  // byte what was typed, with only the spaces between sentences left out.
  const std::string text = "  Cafe\u0301 \u201cok.\u201d\u00a0 l\u2019e\u0301te\u0301 est la\u0300.\u200b  Fin.  ";
  EXPECT_EQ(split(text, "fr"),
            (Strings{"Cafe\u0301 \u201cok.\u201d", "l\u2019e\u0301te\u0301 est la\u0300.", "Fin."}));
}

TEST(Sentences, EmptyBlankAndInvalidInput) {
  EXPECT_EQ(split(""), Strings{});
  EXPECT_EQ(split("   \n\t "), Strings{});
  EXPECT_EQ(split(". . ! ?"), Strings{});
  const bl::Tokenizer tok("en", {});
  std::vector<bl::Tokenizer::ByteRange> ranges;
  std::string error;
  EXPECT_FALSE(bl::split_sentences(tok, "Fine. \xC3", &ranges, &error));
  EXPECT_NE(error.find("invalid UTF-8"), std::string::npos) << error;
}

// 。！？ end sentences too, with or without spaces after them, and under every tokenizer
// version (a version-2 model reads them as lone punctuation tokens as well); a closing
// full-width bracket or corner bracket stays with its sentence.
TEST(Sentences, ChineseSentenceEnds) {
  for (int version : {2, 3}) {
    SCOPED_TRACE(version);
    EXPECT_EQ(split("\u4F60\u597D\u3002\u6211\u5F88\u597D\uFF01\u4F60\u5462\uFF1F\u597D", "zh",
                    version),
              (Strings{"\u4F60\u597D\u3002", "\u6211\u5F88\u597D\uFF01", "\u4F60\u5462\uFF1F",
                       "\u597D"}));
    EXPECT_EQ(split("Tom sleeps\u3002 The cat eats\uFF01\uFF01 Is it red\uFF1F ok", "en", version),
              (Strings{"Tom sleeps\u3002", "The cat eats\uFF01\uFF01", "Is it red\uFF1F", "ok"}));
    EXPECT_EQ(split("\u4ED6\u8BF4\u300C\u597D\u3002\u300D\uFF08\u5BF9\u3002\uFF09\u8D70", "zh",
                    version),
              (Strings{"\u4ED6\u8BF4\u300C\u597D\u3002\u300D", "\uFF08\u5BF9\u3002\uFF09",
                       "\u8D70"}));
    EXPECT_EQ(split("\u3002\uFF01\uFF1F", "zh", version), Strings{});  // no word: no sentence
  }
}

TEST(Sentences, TokenRangesPointAtTheTypedText) {
  const bl::Tokenizer tok("en", {});
  std::vector<std::string> t;
  std::vector<bl::Tokenizer::ByteRange> r;
  std::string error;
  const std::string text = "Don\u2019t\u200b go, cafe\u0301!";
  ASSERT_TRUE(tok.tokenize(text, &t, &r, &error)) << error;
  ASSERT_EQ(t, (std::vector<std::string>{"do", "n't", "go", ",", "caf\u00e9", "!"}));
  Strings pieces;
  for (const auto& x : r) pieces.push_back(text.substr(x.begin, x.end - x.begin));
  EXPECT_EQ(pieces, (Strings{"Do", "n\u2019t", "go", ",", "cafe\u0301", "!"}));
}

}  // namespace
