// bl::BatchSampler and Trainer::step(batches, n) (issue 25): every epoch hands out each pair
// once, in a seeded order that differs between seeds and epochs; n steps on the sampler equal
// n single steps on the same batches, bit for bit; bad sizes are refused with a message.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <set>
#include <vector>

#include "bahdanau_train.h"
#include "train_fixture.h"

namespace {

std::vector<bl::TrainPair> numbered(int n) {  // pair k: src {k + 4}, tgt {4}
  std::vector<bl::TrainPair> pairs;
  for (int k = 0; k < n; k++) pairs.push_back({{k + 4}, {4}});
  return pairs;
}

std::vector<int> epoch_order(bl::BatchSampler& s) {
  std::vector<int> ids;
  for (size_t b = 0; b < s.batches_per_epoch(); b++)
    for (const bl::TrainPair& p : s.next()) ids.push_back(p.src[0] - 4);
  return ids;
}

TEST(TrainBatches, EachEpochHandsOutEveryPairOnceInASeededOrder) {
  std::string err;
  auto s = bl::BatchSampler::create(numbered(103), 10, 7, &err);
  ASSERT_TRUE(s) << err;
  EXPECT_EQ(s->batches_per_epoch(), 11u);
  EXPECT_EQ(s->epochs(), 0);
  std::vector<std::vector<int>> epochs;
  for (int e = 0; e < 3; e++) {
    size_t sizes = 0;
    epochs.push_back(epoch_order(*s));
    for (size_t b = 0; b + 1 < s->batches_per_epoch(); b++) sizes += 10;
    EXPECT_EQ(epochs.back().size(), sizes + 3);  // ten batches of 10 and a last one of 3
    EXPECT_EQ(std::set<int>(epochs.back().begin(), epochs.back().end()).size(), 103u);
    EXPECT_EQ(s->epochs(), e + 1);
  }
  EXPECT_NE(epochs[0], epochs[1]);  // a new shuffle each epoch
  std::vector<int> identity(103);
  for (int k = 0; k < 103; k++) identity[k] = k;
  EXPECT_NE(epochs[0], identity);

  auto same = bl::BatchSampler::create(numbered(103), 10, 7, &err);
  auto other = bl::BatchSampler::create(numbered(103), 10, 8, &err);
  EXPECT_EQ(epoch_order(*same), epochs[0]);
  EXPECT_NE(epoch_order(*other), epochs[0]);
}

TEST(TrainBatches, TheShuffleIsUniformEnough) {
  // 4 pairs, 4,000 epochs: each pair is first about 1,000 times (a modulo-biased or off-by-one
  // Fisher-Yates shows here: one that never swaps the last element leaves it last).
  std::string err;
  auto s = bl::BatchSampler::create(numbered(4), 4, 3, &err);
  ASSERT_TRUE(s) << err;
  std::map<int, int> first, last;
  for (int e = 0; e < 4000; e++) {
    const std::vector<int> o = epoch_order(*s);
    first[o.front()]++;
    last[o.back()]++;
  }
  for (int k = 0; k < 4; k++) {
    EXPECT_NEAR(first[k], 1000, 120) << "pair " << k << " first";
    EXPECT_NEAR(last[k], 1000, 120) << "pair " << k << " last";
  }
}

TEST(TrainBatches, BadSizesAreRefused) {
  std::string err;
  EXPECT_FALSE(bl::BatchSampler::create({}, 8, 1, &err));
  EXPECT_EQ(err, "batches: there are no training pairs");
  EXPECT_FALSE(bl::BatchSampler::create(numbered(3), 0, 1, &err));
  EXPECT_EQ(err, "batches: batch size 0 is outside 1..4096");
  EXPECT_FALSE(bl::BatchSampler::create(numbered(3), bl::kMaxTrainBatch + 1, 1, &err));
  EXPECT_NE(err.find("outside 1..4096"), std::string::npos);
}

bool same_bits(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size()) == 0;
}

TEST(TrainBatches, NStepsEqualNSingleStepsOnTheSameBatches) {
  const golden::json fx = train_fixture::fixture();
  std::vector<bl::TrainPair> pairs;
  for (const golden::json& b : fx["adam_batches"])
    for (const bl::TrainPair& p : train_fixture::batch_of(b)) pairs.push_back(p);
  ASSERT_GE(pairs.size(), 4u);
  const std::string model = "tiny-additive-cgru-f32.safetensors";
  bl::TrainParams params;
  params.lr = 1e-2f;

  auto a = train_fixture::trainer(model, params);
  auto b = train_fixture::trainer(model, params);
  ASSERT_TRUE(a && b);
  std::string err;
  auto sa = bl::BatchSampler::create(pairs, 3, 5, &err);
  auto sb = bl::BatchSampler::create(pairs, 3, 5, &err);
  ASSERT_TRUE(sa && sb) << err;
  std::vector<float> losses;
  ASSERT_TRUE(a->step(*sa, 7, &losses, &err)) << err;
  ASSERT_EQ(losses.size(), 7u);
  for (int k = 0; k < 7; k++) {
    float loss = 0;
    ASSERT_TRUE(b->step(sb->next(), &loss, &err)) << err;
    EXPECT_EQ(std::memcmp(&loss, &losses[k], sizeof loss), 0) << "step " << k;
  }
  EXPECT_EQ(a->steps(), 7);
  EXPECT_TRUE(same_bits(a->snapshot(), b->snapshot()));
  EXPECT_LT(losses.back(), losses.front());  // it learns on these few pairs

  EXPECT_FALSE(a->step(*sa, 0, &losses, &err));
  EXPECT_EQ(err, "step: n = 0 is outside 1..10000");
  EXPECT_EQ(a->steps(), 7);
}

}  // namespace
