// Attention edits' rules (bahdanau.h AttentionEdit) beyond the golden parity of
// golden_edits_test.cpp: every malformed edit is refused with a message that names it, the
// steps before an edit are the plain run's bit for bit, weights are scaled to sum 1, held edits
// cover the later steps, and translate_batch gives what translate gives.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "bahdanau.h"
#include "golden.h"

namespace {

using namespace golden;

const char* kText = "The black cat is sleeping.";  // 6 tokens + </s>: 7 columns

bl::AttentionEdit column_edit(int step, int column, bool hold = false) {
  bl::AttentionEdit e;
  e.step = step;
  e.column = column;
  e.hold = hold;
  return e;
}

std::string translate_error(bl::Translator& tr, std::vector<bl::AttentionEdit> edits,
                            int beam = 1) {
  bl::TranslateParams p;
  p.beam = beam;
  p.edits = std::move(edits);
  bl::Translation t;
  std::string err;
  EXPECT_FALSE(tr.translate(kText, p, &t, &err));
  EXPECT_TRUE(t.tgt_tokens.empty());
  return err;
}

TEST(AttentionEdit, MalformedEditsAreRefusedByName) {
  auto tr = load("tests/fixtures/tiny-additive-f32.safetensors", false);
  ASSERT_TRUE(tr);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  struct Case {
    std::vector<float> weights;
    int column;
    std::string says;
  } cases[] = {
      {{1, 0, 0, nan, 0, 0, 0}, -1, "weight 3 is not a finite number"},
      {{1, 0, 0, inf, 0, 0, 0}, -1, "weight 3 is not a finite number"},
      {{1, 0, -0.5f, 0, 0, 0, 0}, -1, "weight 2 is negative"},
      {{0, 0, 0, 0, 0, 0, 0}, -1, "the weights sum to 0"},
      {{1, 0, 0}, -1, "3 weights for 7 columns"},
      {{}, -1, "give weights (one per column) or a column"},
      {{1, 0, 0, 0, 0, 0, 0}, 2, "give either weights or a column, not both"},
      {{}, 7, "column 7 is out of range"},
      {{}, -2, "column -2 is out of range"},
  };
  for (const Case& c : cases) {
    bl::AttentionEdit e;
    e.step = 1;
    e.weights = c.weights;
    e.column = c.column;
    const std::string err = translate_error(*tr, {column_edit(0, 1), e});
    EXPECT_NE(err.find("attention edit 1: " + c.says), std::string::npos) << err;
  }
  bl::AttentionEdit e = column_edit(1, 1);
  e.layer = 0;
  EXPECT_NE(translate_error(*tr, {e}).find("this RNN has one attention"), std::string::npos);
  e = column_edit(1, -1);
  e.ablate = true;
  EXPECT_NE(translate_error(*tr, {e}).find("ablate switches a Transformer head off"),
            std::string::npos);
  EXPECT_NE(translate_error(*tr, {column_edit(-1, 0)}).find("step must be >= 0"),
            std::string::npos);
  EXPECT_NE(translate_error(*tr, {column_edit(22, 0)}).find("past the length limit"),
            std::string::npos);  // 2n + 10 = 22 steps: 0..21
  EXPECT_NE(translate_error(*tr, {column_edit(2, 0), column_edit(2, 3)})
                .find("attention edits 0 and 1 both set step 2"),
            std::string::npos);
  EXPECT_NE(translate_error(*tr, {column_edit(0, 1)}, 2).find("need greedy decoding"),
            std::string::npos);
  EXPECT_NE(translate_error(*tr, std::vector<bl::AttentionEdit>(bl::kMaxEdits + 1,
                                                                column_edit(0, 0)))
                .find("at most 1024"),
            std::string::npos);
}

TEST(AttentionEdit, ModelsWithoutAttentionAndShortOutputsSaySo) {
  auto none = load("tests/fixtures/tiny-none-f32.safetensors", false);
  ASSERT_TRUE(none);
  EXPECT_NE(translate_error(*none, {column_edit(0, 1)}).find("has no attention"),
            std::string::npos);
  auto tf = load("tests/fixtures/tiny-transformer-f32.safetensors", false);
  ASSERT_TRUE(tf);  // it writes </s> at step 0
  EXPECT_NE(translate_error(*tf, {column_edit(1, 1)})
                .find("step 1 is past the end: the translation has 1 steps"),
            std::string::npos);
  bl::AttentionEdit e = column_edit(0, 1);
  e.layer = 2;
  EXPECT_NE(translate_error(*tf, {e}).find("layer 2 is out of range 0..1"), std::string::npos);
  e.layer = 0;
  e.head = 3;
  EXPECT_NE(translate_error(*tf, {e}).find("head 3 is out of range 0..2"), std::string::npos);
  e = column_edit(0, -1);
  e.ablate = true;
  e.weights = {1, 0, 0, 0, 0, 0, 0};
  EXPECT_NE(translate_error(*tf, {e}).find("give it no weights"), std::string::npos);
  // Forced decoding knows its rows up front: "Le chat noir dort." has 6 with </s>.
  bl::AlignParams ap;
  ap.edits = {column_edit(6, 1)};
  bl::Alignment al;
  std::string err;
  EXPECT_FALSE(tf->align(kText, "Le chat noir dort.", ap, &al, &err));
  EXPECT_NE(err.find("step 6 is past the length limit"), std::string::npos) << err;
}

TEST(AttentionEdit, StepsBeforeTheEditAreThePlainRunsAndWeightsAreScaled) {
  for (bool simd : {false, true}) {
    auto tr = load("tests/fixtures/tiny-scaled_dot-f32.safetensors", simd);
    ASSERT_TRUE(tr);
    bl::TranslateParams plain, edited, scaled, held;
    edited.edits = {column_edit(3, 2)};
    bl::AttentionEdit w;  // the same edit as weights that sum to 5
    w.step = 3;
    w.weights = {0, 0, 5, 0, 0, 0, 0};
    scaled.edits = {w};
    held.edits = {column_edit(3, 2, true)};
    bl::Translation a, b, c, d;
    std::string err;
    ASSERT_TRUE(tr->translate(kText, plain, &a, &err)) << err;
    ASSERT_TRUE(tr->translate(kText, edited, &b, &err)) << err;
    ASSERT_TRUE(tr->translate(kText, scaled, &c, &err)) << err;
    ASSERT_TRUE(tr->translate(kText, held, &d, &err)) << err;
    ASSERT_GT(a.attention.size(), 4u);
    for (size_t i = 0; i < 3; i++) {  // bit for bit before step 3
      EXPECT_EQ(b.attention[i], a.attention[i]) << i;
      EXPECT_EQ(b.tgt_ids[i], a.tgt_ids[i]) << i;
    }
    EXPECT_EQ(b.edited, std::vector<int>{3});
    ASSERT_EQ(b.own_attention.size(), 1u);
    EXPECT_EQ(b.own_attention[0], a.attention[3]);  // the model's own row is the plain run's
    EXPECT_EQ(b.attention[3], (std::vector<float>{0, 0, 1, 0, 0, 0, 0}));
    EXPECT_EQ(c.tgt_ids, b.tgt_ids);
    EXPECT_EQ(c.attention, b.attention);
    EXPECT_EQ(b.attention[4] == a.attention[4], false);  // step 4 reads the edited state
    ASSERT_GT(d.edited.size(), 1u);  // held: every later row is given, and listed
    for (size_t k = 0; k < d.edited.size(); k++) {
      EXPECT_EQ(d.edited[k], int(3 + k));
      EXPECT_EQ(d.attention[size_t(d.edited[k])], b.attention[3]);
    }
    std::vector<bl::Translation> batch;
    std::vector<std::string> errors;
    ASSERT_TRUE(tr->translate_batch({kText, kText}, edited, &batch, &errors));
    EXPECT_EQ(batch[1].tgt_ids, b.tgt_ids);
    EXPECT_EQ(batch[1].edited, b.edited);
  }
}

}  // namespace
