// The engine tokenizes with the model's own tokenizer_version: the version is kept, a model
// reads full-width and CJK text as its spec does, a Chinese target is detokenized without
// spaces, and paragraphs split at Chinese sentence ends.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "bahdanau.h"
#include "core/tokenizer.h"
#include "model_file_parts.h"

namespace bl {
namespace {

using namespace model_file_parts;

std::unique_ptr<Translator> translator(const Bytes& file) {
  std::string error;
  auto tr = Translator::load(file.data(), file.size(), LoadParams{}, &error);
  EXPECT_TRUE(tr) << error;
  return tr;
}

// The tiny fixture with its metadata's tokenizer_version (and, if given, tgt_lang) rewritten.
Bytes with_tokenizer(const char* version, const char* tgt_lang = nullptr) {
  return edit(kF32, [&](Parts& p) {
    json& m = p.header["__metadata__"];
    m["tokenizer_version"] = version;
    if (tgt_lang) {
      json c = json::parse(m["config"].get<std::string>());
      c["tgt_lang"] = tgt_lang;
      m["config"] = c.dump();
    }
  });
}

TEST(ModelFile, TokenizerVersionIsKept) {
  for (const char* v : {"1", "2", "3"}) {
    const Result r = load(with_tokenizer(v));
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.md.tokenizer_version, std::stoi(v));
  }
  EXPECT_EQ(load(fixture(kF32)).md.tokenizer_version, 2);  // what the fixtures are written with
}

// Full-width letters and digits and CJK ideographs: spec 2 keeps them as typed, in runs;
// spec 3 folds the full-width ones to ASCII and makes each ideograph a token. A version-2
// model (the shipped en-fr ones) must read them as spec 2 does, a version-3 copy as spec 3.
TEST(ModelFile, EngineTokenizesWithTheModelsTokenizerVersion) {
  const std::string text = "Tom \uFF34\uFF4F\uFF4D \u4F60\u597D\u3002 \uFF11\uFF12 ok";
  using Strings = std::vector<std::string>;
  const Strings spec2 = {"Tom", "\uFF34\uFF4F\uFF4D", "\u4F60\u597D", "\u3002",
                         "\uFF11\uFF12", "ok"};
  const Strings spec3 = {"Tom", "Tom", "\u4F60", "\u597D", "\u3002", "12", "ok"};
  for (const char* v : {"1", "2", "3"}) {
    SCOPED_TRACE(v);
    const bool v3 = std::string(v) == "3";
    const Bytes file = with_tokenizer(v);
    const Result r = load(file);
    ASSERT_TRUE(r.ok) << r.error;
    auto tr = translator(file);
    ASSERT_TRUE(tr);
    Strings src, tgt, direct;
    std::string error;
    ASSERT_TRUE(tr->tokenize_source(text, &src, &error)) << error;
    ASSERT_TRUE(tr->tokenize_target(text, &tgt, &error)) << error;
    EXPECT_EQ(src, v3 ? spec3 : spec2);
    // the same as a Tokenizer of that version built from the model's names and vocabulary
    const Tokenizer src_tok("en", r.md.src_names, r.md.src_vocab, std::stoi(v));
    const Tokenizer tgt_tok("fr", r.md.tgt_names, r.md.tgt_vocab, std::stoi(v));
    ASSERT_TRUE(src_tok.tokenize(text, &direct, &error)) << error;
    EXPECT_EQ(src, direct);
    ASSERT_TRUE(tgt_tok.tokenize(text, &direct, &error)) << error;
    EXPECT_EQ(tgt, direct);
    // translate() reads the same tokens (its columns end with </s>)
    Translation t;
    ASSERT_TRUE(tr->translate(text, TranslateParams{}, &t, &error)) << error;
    src.push_back("</s>");
    EXPECT_EQ(t.src_tokens, src);
  }
}

// A Chinese target (tokenizer_version 3): the engine detokenizes its output the Chinese way,
// with no spaces between ideographs. The tiny model's target vocabulary is rewritten to
// ideographs so that whatever it emits shows the difference.
TEST(ModelFile, ChineseTargetIsDetokenizedAsChinese) {
  const Bytes file = edit(kF32, [&](Parts& p) {
    json& m = p.header["__metadata__"];
    m["tokenizer_version"] = "3";
    json c = json::parse(m["config"].get<std::string>());
    c["tgt_lang"] = "zh";
    m["config"] = c.dump();
    json vocab = json::parse(m["tgt_vocab"].get<std::string>());
    for (size_t i = 4; i < vocab.size(); i++) {
      const uint32_t cp = 0x4E00 + uint32_t(i);  // three UTF-8 bytes
      vocab[i] = std::string{char(0xE0 | (cp >> 12)), char(0x80 | ((cp >> 6) & 0x3F)),
                             char(0x80 | (cp & 0x3F))};
    }
    m["tgt_vocab"] = vocab.dump();
    m["tgt_names"] = "[]";
  });
  const Result r = load(file);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.md.config.tgt_lang, "zh");
  auto tr = translator(file);
  ASSERT_TRUE(tr);
  EXPECT_EQ(tr->info().tgt_lang, "zh");
  const Tokenizer zh("zh", {}, r.md.tgt_vocab, 3);
  size_t multi = 0;
  for (const char* s : {"The black cat is sleeping.", "I see a red car.",
                        "They see a black and white cat in the house."}) {
    Translation t;
    std::string error;
    ASSERT_TRUE(tr->translate(s, TranslateParams{}, &t, &error)) << error;
    EXPECT_EQ(t.text, zh.detokenize(t.tgt_tokens));
    EXPECT_EQ(t.text.find(' '), std::string::npos) << t.text;
    multi += t.tgt_tokens.size() > 1;
  }
  EXPECT_GT(multi, 0u);  // some output has two ideographs side by side
  // and the target side tokenizes Chinese text as spec 3 does
  std::vector<std::string> tgt;
  std::string error;
  ASSERT_TRUE(tr->tokenize_target("\u4F60\u597D\uFF01", &tgt, &error)) << error;
  EXPECT_EQ(tgt, (std::vector<std::string>{"\u4F60", "\u597D", "\uFF01"}));
}

// Paragraphs split at 。！？ too, in a model of either tokenizer version.
TEST(ModelFile, SplitSentencesAtChineseSentenceEnds) {
  const std::string text = "Tom sleeps\u3002 The cat eats\uFF01 Is it red\uFF1F ok";
  for (const char* v : {"2", "3"}) {
    SCOPED_TRACE(v);
    auto tr = translator(with_tokenizer(v));
    ASSERT_TRUE(tr);
    std::vector<std::string> sentences;
    std::string error;
    ASSERT_TRUE(tr->split_sentences(text, &sentences, &error)) << error;
    EXPECT_EQ(sentences, (std::vector<std::string>{"Tom sleeps\u3002", "The cat eats\uFF01",
                                                   "Is it red\uFF1F", "ok"}));
  }
}

}  // namespace
}  // namespace bl
