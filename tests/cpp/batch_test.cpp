// Translator::translate_batch equals translate() text for text, exactly: tokens, text, ids,
// attention rows and probabilities compared with ==, not within a tolerance, since batched
// decoding runs gemv-identical kernels (kernels.h). For every tiny fixture model (additive,
// scaled dot and no attention; both decoders; f32 and int8) on both kernel tables, over the
// fixture texts plus texts that fail (invalid UTF-8, too many tokens) and empty ones, enough
// of them that sentences join the batch while others decode; a length limit; beam search; and
// the shipped model on 100 dev sentences.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "bahdanau.h"
#include "kernels/kernels.h"  // bl::have_simd_kernels

namespace {

using nlohmann::json;

std::string path_of(const std::string& rel) { return std::string(BL_SOURCE_DIR) + "/" + rel; }

std::unique_ptr<bl::Translator> load(const std::string& rel, bool simd) {
  std::ifstream f(path_of(rel), std::ios::binary);
  std::vector<uint8_t> bytes{std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
  std::string err;
  auto tr = bl::Translator::load(bytes.data(), bytes.size(), bl::LoadParams{simd}, &err);
  EXPECT_TRUE(tr) << rel << ": " << err;
  return tr;
}

std::vector<std::string> fixture_texts(const std::string& name) {
  std::ifstream f(path_of("tests/fixtures/" + name + ".json"));
  const json doc = json::parse(f, nullptr, false);
  EXPECT_FALSE(doc.is_discarded()) << name;
  std::vector<std::string> texts;
  if (doc.is_discarded()) return texts;
  for (const json& c : doc["cases"]) texts.push_back(c["text"].get<std::string>());
  return texts;
}

// translate_batch(texts) against translate() on each text; `what` names the run.
void expect_batch_equals_single(bl::Translator& tr, const std::vector<std::string>& texts,
                                const bl::TranslateParams& p, const std::string& what) {
  SCOPED_TRACE(what);
  std::vector<bl::Translation> got;
  std::vector<std::string> errors;
  const bool all_ok = tr.translate_batch(texts, p, &got, &errors);
  ASSERT_EQ(got.size(), texts.size());
  ASSERT_EQ(errors.size(), texts.size());
  bool want_all_ok = true;
  for (size_t i = 0; i < texts.size(); i++) {
    SCOPED_TRACE("text " + std::to_string(i) + ": " + texts[i].substr(0, 60));
    bl::Translation want;
    std::string err;
    const bool ok = tr.translate(texts[i], p, &want, &err);
    want_all_ok = want_all_ok && ok;
    EXPECT_EQ(errors[i], ok ? std::string() : err);
    const bl::Translation& t = got[i];
    EXPECT_EQ(t.src_tokens, want.src_tokens);
    EXPECT_EQ(t.src_ids, want.src_ids);
    EXPECT_EQ(t.tgt_tokens, want.tgt_tokens);
    EXPECT_EQ(t.tgt_ids, want.tgt_ids);
    EXPECT_EQ(t.text, want.text);
    EXPECT_EQ(t.attention, want.attention);  // float ==: bit for bit but for NaN, which none is
    EXPECT_EQ(t.probs, want.probs);
    EXPECT_EQ(t.truncated, want.truncated);
    ASSERT_EQ(t.hypotheses.size(), want.hypotheses.size());
    for (size_t h = 0; h < t.hypotheses.size(); h++) {
      EXPECT_EQ(t.hypotheses[h].tokens, want.hypotheses[h].tokens);
      EXPECT_EQ(t.hypotheses[h].score, want.hypotheses[h].score);
      EXPECT_EQ(t.hypotheses[h].norm, want.hypotheses[h].norm);
      EXPECT_EQ(t.hypotheses[h].finished, want.hypotheses[h].finished);
    }
  }
  EXPECT_EQ(all_ok, want_all_ok);
}

struct Case {
  std::string name;
  bool simd;
};

class BatchTiny : public testing::TestWithParam<Case> {};

TEST_P(BatchTiny, EqualsTranslateTextForText) {
  const Case& c = GetParam();
  auto tr = load("tests/fixtures/" + c.name + ".safetensors", c.simd);
  ASSERT_TRUE(tr);
  EXPECT_EQ(tr->info().kernels, std::string(c.simd && bl::have_simd_kernels() ? "wasm-simd" : "scalar"));
  std::vector<std::string> texts = fixture_texts(c.name);
  ASSERT_GE(texts.size(), 20u);
  std::string too_long;
  for (int k = 0; k <= tr->info().max_src_len; k++) too_long += "cat ";
  // Failures and empty texts between the others, then the set again three times over, so the
  // batch (64 at most) is full and sentences join it as others finish.
  const std::vector<std::string> odd = {"", "   ", "The cat \xff is black.", too_long, "\t"};
  for (size_t k = 0; k < odd.size(); k++) texts.insert(texts.begin() + 3 * k + 1, odd[k]);
  const size_t one = texts.size();
  for (int rep = 0; rep < 3; rep++) texts.insert(texts.end(), texts.begin(), texts.begin() + one);
  ASSERT_GT(texts.size(), 64u);

  bl::TranslateParams p;
  expect_batch_equals_single(*tr, texts, p, "greedy");
  p.max_len = 3;  // most translations cut at the limit
  expect_batch_equals_single(*tr, texts, p, "max_len 3");
  p.max_len = 0;
  p.beam = 4;  // one at a time through translate()
  expect_batch_equals_single(*tr, std::vector<std::string>(texts.begin(), texts.begin() + one), p,
                             "beam 4");
  p.beam = 0;  // refused for every text, with translate()'s message
  expect_batch_equals_single(*tr, {"The cat.", ""}, p, "beam 0");
}

TEST(Batch, NoTextsGiveNoResults) {
  auto tr = load("tests/fixtures/tiny-additive-int8.safetensors", true);
  ASSERT_TRUE(tr);
  std::vector<bl::Translation> out(3);
  std::vector<std::string> errors(2);
  EXPECT_TRUE(tr->translate_batch({}, bl::TranslateParams{}, &out, &errors));
  EXPECT_TRUE(out.empty());
  EXPECT_TRUE(errors.empty());
}

std::vector<Case> all_tiny() {
  std::vector<Case> out;
  for (const char* scoring : {"additive", "scaled_dot", "none"})
    for (const char* decoder : {"", "-cgru"})
      for (const char* dtype : {"-f32", "-int8"})
        for (bool simd : {false, true})
          out.push_back(Case{std::string("tiny-") + scoring + decoder + dtype, simd});
  return out;
}

INSTANTIATE_TEST_SUITE_P(AllTiny, BatchTiny, testing::ValuesIn(all_tiny()),
                         [](const testing::TestParamInfo<Case>& i) {
                           std::string n = i.param.name + (i.param.simd ? "_simd" : "_scalar");
                           for (char& ch : n)
                             if (ch == '-') ch = '_';
                           return n;
                         });

// The shipped model (int8, 16,000 target words) on the dev fixture's 100 sentences, in one
// batch call: more than the 64 that decode at once.
TEST(BatchShipped, Dev100EqualTranslate) {
  const std::vector<std::string> texts = fixture_texts("en-fr-dev100");
  ASSERT_EQ(texts.size(), 100u);
  for (bool simd : {true, false}) {
    auto tr = load("models/en-fr.safetensors", simd);
    ASSERT_TRUE(tr);
    expect_batch_equals_single(*tr, texts, bl::TranslateParams{}, simd ? "simd" : "scalar");
  }
}

}  // namespace
