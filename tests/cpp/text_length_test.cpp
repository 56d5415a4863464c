// bl::check_text_length, the bound on one call's text (bahdanau.h kMaxTextChars): counted in
// code points, so 2,000 Chinese characters (6,000 bytes) pass and 2,001 ASCII ones do not, and
// every decoding entry point refuses longer text before tokenizing it.
#include <gtest/gtest.h>

#include "bahdanau.h"
#include "golden.h"

namespace {

using namespace golden;

TEST(TextLength, CountsCodePointsAndSaysTheBound) {
  std::string err;
  EXPECT_TRUE(bl::check_text_length(std::string(2000, 'a'), &err));
  std::string han;
  for (int i = 0; i < 2000; i++) han += "\xe7\x8c\xab";  // 猫
  EXPECT_TRUE(bl::check_text_length(han, &err));
  EXPECT_FALSE(bl::check_text_length(han + "a", &err));
  EXPECT_EQ(err, "text has 2001 characters; at most 2000 are translated at once (split it into "
                 "sentences or lines)");
}

TEST(TextLength, EveryDecodingCallRefusesLongerText) {
  auto tr = load("tests/fixtures/tiny-additive-f32.safetensors", false);
  ASSERT_TRUE(tr);
  std::string huge;
  while (huge.size() < (1u << 20)) huge += "The cat sleeps. ";
  std::string err;
  bl::Translation t;
  EXPECT_FALSE(tr->translate(huge, bl::TranslateParams{}, &t, &err));
  EXPECT_EQ(err.rfind("text has 1048576 characters", 0), 0u) << err;
  EXPECT_FALSE(tr->start(huge, bl::TranslateParams{}, &err));
  EXPECT_EQ(err.rfind("text has", 0), 0u) << err;
  bl::Alignment al;
  EXPECT_FALSE(tr->align("the cat", huge, bl::AlignParams{}, &al, &err));
  EXPECT_EQ(err.rfind("target: text has", 0), 0u) << err;
  std::vector<bl::Translation> ts;
  std::vector<std::string> errors;
  EXPECT_FALSE(tr->translate_batch({huge, "The cat."}, bl::TranslateParams{}, &ts, &errors));
  EXPECT_EQ(errors[0].rfind("text has", 0), 0u);
  EXPECT_EQ(errors[1], "");
  std::vector<std::string> sentences;  // splitting takes any length
  EXPECT_TRUE(tr->split_sentences(huge, &sentences, &err));
  EXPECT_EQ(sentences.size(), 65536u);
}

}  // namespace
