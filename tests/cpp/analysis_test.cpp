// The comparison view's two extra questions to the core: what scoring costs (scoring_cost) and
// what the source's self-attention looks like (self_attention; values are pinned against
// PyTorch in golden_test.cpp). Here: shapes, argument checks and errors.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <fstream>
#include <iterator>
#include <numeric>
#include <tuple>

#include "bahdanau.h"

namespace {

std::unique_ptr<bl::Translator> load(const std::string& name) {
  std::ifstream f(std::string(BL_SOURCE_DIR) + "/tests/fixtures/" + name, std::ios::binary);
  std::vector<uint8_t> bytes{std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
  std::string err;
  auto tr = bl::Translator::load(bytes.data(), bytes.size(), bl::LoadParams{}, &err);
  EXPECT_TRUE(tr) << err;
  return tr;
}

bl::ScoringCostParams quick() {
  bl::ScoringCostParams p;
  p.min_batch_ms = 0.2;
  p.batches = 3;
  return p;
}

TEST(ScoringCost, CoversEverySourcePositionForBothScorings) {
  for (const char* model : {"tiny-additive-int8.safetensors", "tiny-scaled_dot-f32.safetensors"}) {
    SCOPED_TRACE(model);
    auto tr = load(model);
    bl::ScoringCost c;
    std::string err;
    ASSERT_TRUE(tr->scoring_cost("The black cat is sleeping.", quick(), &c, &err)) << err;
    EXPECT_EQ(c.n, 7);  // 6 tokens and </s>
    EXPECT_GE(c.batches, 1);  // all 3, or fewer if the time ran out on a busy machine
    EXPECT_LE(c.batches, 3);
    EXPECT_GT(c.step_us, 0);
    EXPECT_GT(c.score_us, 0);
    EXPECT_GT(c.keys_us, 0);
    EXPECT_GE(c.calls_per_batch, 1);
    // Every timed batch lasts min_batch_ms, so coarse clocks still resolve it: the median too.
    EXPECT_GE(c.step_us * double(c.calls_per_batch), 0.999 * quick().min_batch_ms * 1000);
    // The spread: the fastest and the slowest batch bracket the median, for each timing.
    for (auto [lo, mid, hi] : {std::tuple{c.step_us_min, c.step_us, c.step_us_max},
                               std::tuple{c.score_us_min, c.score_us, c.score_us_max},
                               std::tuple{c.keys_us_min, c.keys_us, c.keys_us_max}}) {
      EXPECT_GT(lo, 0);
      EXPECT_LE(lo, mid);
      EXPECT_LE(mid, hi);
    }
    if (c.batches == 1) {
      EXPECT_EQ(c.step_us_min, c.step_us);
      EXPECT_EQ(c.step_us_max, c.step_us);
    }
  }
}

TEST(ScoringCost, EmptyTextCostsNothingAndBadInputIsRefused) {
  auto tr = load("tiny-additive-f32.safetensors");
  bl::ScoringCost c;
  std::string err;
  ASSERT_TRUE(tr->scoring_cost("  \n", quick(), &c, &err)) << err;
  EXPECT_EQ(c.n, 0);
  EXPECT_EQ(c.step_us, 0);
  EXPECT_EQ(c.step_us_min, 0);
  EXPECT_EQ(c.step_us_max, 0);
  EXPECT_FALSE(tr->scoring_cost("caf\xC3", quick(), &c, &err));
  EXPECT_NE(err.find("UTF-8"), std::string::npos) << err;
  std::string long_text;
  for (int i = 0; i < 65; i++) long_text += "cat ";
  EXPECT_FALSE(tr->scoring_cost(long_text, quick(), &c, &err));
  EXPECT_NE(err.find("at most 64"), std::string::npos) << err;
  for (auto [ms, batches] : {std::pair{0.0, 5}, {-1.0, 5}, {101.0, 5}, {1.0, 0}, {1.0, 101},
                             {std::nan(""), 5}, {100.0, 100}, {20.0, 51}}) {
    bl::ScoringCostParams p;
    p.min_batch_ms = ms;
    p.batches = batches;
    err.clear();
    EXPECT_FALSE(tr->scoring_cost("cat", p, &c, &err)) << ms << " " << batches;
    EXPECT_NE(err.find("min_batch_ms"), std::string::npos) << err;
  }
}

// The stated bound holds whatever the machine (this suite also runs under ASan, where every
// call is several times slower): twice it fails.
TEST(ScoringCost, ReturnsWithinItsStatedBound) {
  auto tr = load("tiny-additive-f32.safetensors");
  std::string text;
  for (int i = 0; i < 15; i++) text += "the black cat sleeps ";  // 60 tokens
  for (auto [ms, batches] : {std::pair{20.0, 3}, {50.0, 1}}) {
    bl::ScoringCostParams p;
    p.min_batch_ms = ms;
    p.batches = batches;
    EXPECT_DOUBLE_EQ(bl::scoring_cost_bound_ms(p), 4 * (batches + 1) * ms);
    bl::ScoringCost c;
    std::string err;
    const auto t0 = std::chrono::steady_clock::now();
    ASSERT_TRUE(tr->scoring_cost(text, p, &c, &err)) << err;
    const double took =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_EQ(c.n, 61);
    EXPECT_LE(took, 2 * bl::scoring_cost_bound_ms(p)) << ms << " ms x " << batches;
    EXPECT_GE(c.batches, 1);
    EXPECT_LE(c.batches, batches);
  }
}

TEST(SelfAttention, SquareRowsSumToOneOnScaledDotModels) {
  auto tr = load("tiny-scaled_dot-int8.safetensors");
  bl::SelfAttention sa;
  std::string err;
  ASSERT_TRUE(tr->self_attention("Tom is in Paris.", &sa, &err)) << err;
  EXPECT_EQ(sa.tokens, (std::vector<std::string>{"Tom", "is", "in", "Paris", ".", "</s>"}));
  ASSERT_EQ(sa.weights.size(), 6u);
  ASSERT_EQ(sa.scores.size(), 6u);
  for (const auto& row : sa.weights) {
    ASSERT_EQ(row.size(), 6u);
    EXPECT_NEAR(std::accumulate(row.begin(), row.end(), 0.0), 1.0, 1e-5);
  }
  EXPECT_NE(sa.method.find("W_k"), std::string::npos);
  ASSERT_TRUE(tr->self_attention("", &sa, &err)) << err;
  EXPECT_TRUE(sa.tokens.empty());
  EXPECT_TRUE(sa.weights.empty());
  EXPECT_FALSE(tr->self_attention("\xFF", &sa, &err));
}

TEST(SelfAttention, RefusedForAdditiveModels) {
  auto tr = load("tiny-additive-f32.safetensors");
  bl::SelfAttention sa;
  std::string err;
  EXPECT_FALSE(tr->self_attention("Tom is in Paris.", &sa, &err));
  EXPECT_NE(err.find("scaled_dot"), std::string::npos) << err;
  EXPECT_TRUE(sa.tokens.empty());
}

}  // namespace
