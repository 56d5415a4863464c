// The weights' moving average (TrainParams::average, TrainWeights::average; issue 25): against
// PyTorch's (tests/fixtures/tiny-train.json, "average", written by scripts/nmt/golden_train.py),
// and what the two weight sets mean when averaging is off, and bad decays.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "bahdanau_train.h"
#include "core/model_file.h"
#include "core/train_tensors.h"
#include "core/weight_average.h"
#include "train_fixture.h"

namespace {

using golden::json;
using train_fixture::batch_of;
using train_fixture::fixture;
using train_fixture::model_bytes;
using train_fixture::trainer;

// Weights after 50 steps, relative to each tensor's largest entry. The latest weights carry the
// losses' rounding (2e-6 relative over 50 steps, train_test.cpp), which Adam's m / sqrt(v)
// magnifies where a gradient is a near-cancelling sum: measured 1.5e-5 of the scale at one entry
// of the scaled-dot model (enc.fwd.W_ih[30]), at most 3.4e-7 everywhere else. The averaged
// model's loss: measured within 2.1e-7 relative. The decay's own formula is pinned exactly by
// DecayWarmsUpThenHolds and FollowsItsRecurrenceStepByStep: a step index off by one moves the
// scaled-dot model's loss here by 1.2e-5, the weights by less than this tolerance.
constexpr double kWeightTol = 5e-5, kLossTol = 5e-6;

TEST(TrainAverage, DecayWarmsUpThenHolds) {
  EXPECT_EQ(bl::train::average_decay(0, 5), 0);
  EXPECT_DOUBLE_EQ(bl::train::average_decay(0.998, 1), 2.0 / 11.0);
  EXPECT_DOUBLE_EQ(bl::train::average_decay(0.998, 100), 101.0 / 110.0);
  EXPECT_DOUBLE_EQ(bl::train::average_decay(0.998, 5000), 0.998);
}

// The 50 decayed Adam steps of the fixture with TrainParams::average: the averaged snapshot's
// every tensor, and evaluate()'s loss of the averaged weights, against PyTorch's.
TEST(TrainAverage, AveragedWeightsMatchPyTorch) {
  const json fx = fixture();
  std::vector<std::vector<bl::TrainPair>> batches;
  for (const json& b : fx["adam_batches"]) batches.push_back(batch_of(b));
  const auto batch = batch_of(fx["batch"]);
  int checked = 0;
  for (const json& m : fx["models"]) {
    if (!m.contains("average")) continue;
    const json& want = m["average"];
    bl::TrainParams p;
    p.lr = fx["lr"].get<float>();
    p.clip = fx["clip"].get<float>();
    p.lr_decay_steps = fx["lr_decay_steps"].get<double>();
    p.average = want["decay"].get<double>();
    auto t = trainer(m["model"], p);
    ASSERT_TRUE(t);
    std::string err;
    for (size_t k = 0; k < m["adam_decay_losses"].size(); k++)
      ASSERT_TRUE(t->step(batches[k % batches.size()], nullptr, &err)) << err;

    const auto file = t->snapshot(bl::TrainWeights::average);
    bl::ModelData md;
    ASSERT_TRUE(bl::load_model(file.data(), file.size(), &md, &err)) << err;
    double worst = 0;
    size_t tensors = 0;
    for (const bl::TensorRef& got : bl::named_tensors(md.config, &md.weights)) {
      ASSERT_TRUE(want["weights"].contains(got.name)) << got.name;
      const json& w = want["weights"][got.name];
      ASSERT_EQ(w.size(), got.size()) << got.name;
      double scale = 0;
      for (const json& v : w) scale = std::max(scale, std::fabs(v.get<double>()));
      for (size_t k = 0; k < got.size(); k++) {
        const double d = std::fabs(got.data[k] - w[k].get<double>());
        worst = std::max(worst, d / scale);
        ASSERT_LE(d, kWeightTol * scale) << m["model"] << " " << got.name << "[" << k << "]";
      }
      tensors++;
    }
    EXPECT_EQ(tensors, want["weights"].size());
    float loss = 0;
    ASSERT_TRUE(t->evaluate(batch, &loss, &err, bl::TrainWeights::average)) << err;
    const double wl = want["loss"].get<double>();
    EXPECT_NEAR(loss, wl, kLossTol * wl) << m["model"];
    // The latest weights are another model: the test would notice one read for the other.
    float latest = 0;
    ASSERT_TRUE(t->evaluate(batch, &latest, &err)) << err;
    EXPECT_GT(std::fabs(latest - wl), 100 * kLossTol * wl) << m["model"];
    EXPECT_NE(t->snapshot(), file);
    std::printf("  %s: averaged weights max |d| / tensor scale %.2e, loss %.7f (want %.7f)\n",
                m["model"].get<std::string>().c_str(), worst, loss, wl);
    checked++;
  }
  EXPECT_EQ(checked, 2);
}

// snapshot(average) after every step against the documented recurrence, applied here to the
// latest weights of each step's snapshot, in the same f32 operations: the same bits.
TEST(TrainAverage, FollowsItsRecurrenceStepByStep) {
  const auto batch = batch_of(fixture()["batch"]);
  bl::TrainParams p;
  p.lr = 1e-2f;
  p.average = 0.9;  // the warm-up's (1 + t) / (10 + t) passes 0.9 at t = 80
  auto t = trainer("tiny-additive-cgru-f32.safetensors", p);
  ASSERT_TRUE(t);
  auto floats = [](const std::vector<uint8_t>& file) {
    bl::ModelData md;
    std::string err;
    EXPECT_TRUE(bl::load_model(file.data(), file.size(), &md, &err)) << err;
    std::vector<float> out;
    for (const bl::TensorRef& r : bl::named_tensors(md.config, &md.weights))
      out.insert(out.end(), r.data, r.data + r.size());
    return out;
  };
  std::vector<float> want = floats(t->snapshot());  // a_0: the starting weights
  std::string err;
  for (long step = 1; step <= 100; step++) {
    ASSERT_TRUE(t->step(batch, nullptr, &err)) << err;
    const std::vector<float> w = floats(t->snapshot());
    const double d = std::min(0.9, (1.0 + double(step)) / (10.0 + double(step)));
    for (size_t k = 0; k < w.size(); k++) want[k] = float(d) * want[k] + float(1.0 - d) * w[k];
    ASSERT_EQ(floats(t->snapshot(bl::TrainWeights::average)), want) << "after step " << step;
  }
}

// Without averaging (the default) the average is the latest weights: same file, same loss.
TEST(TrainAverage, OffMeansTheLatestWeights) {
  const json fx = fixture();
  const auto batch = batch_of(fx["batch"]);
  auto t = trainer("tiny-additive-f32.safetensors");
  ASSERT_TRUE(t);
  std::string err;
  for (int k = 0; k < 3; k++) ASSERT_TRUE(t->step(batch, nullptr, &err)) << err;
  EXPECT_EQ(t->snapshot(bl::TrainWeights::average), t->snapshot());
  float a = 0, b = 0;
  ASSERT_TRUE(t->evaluate(batch, &a, &err, bl::TrainWeights::average)) << err;
  ASSERT_TRUE(t->evaluate(batch, &b, &err)) << err;
  EXPECT_EQ(a, b);
}

// Before any step the average is the starting weights; a step that fails leaves it as it was.
TEST(TrainAverage, StartsAtTheStartingWeightsAndSkipsFailedSteps) {
  bl::TrainParams p;
  p.average = 0.9;
  auto t = trainer("tiny-additive-f32.safetensors", p);
  ASSERT_TRUE(t);
  const auto start = t->snapshot();
  EXPECT_EQ(t->snapshot(bl::TrainWeights::average), start);
  // Quantized files start the average from their dequantized weights, as training does.
  for (const char* name : {"tiny-additive-int8.safetensors", "tiny16-additive-cgru-q4.safetensors"}) {
    auto q = trainer(name, p);
    ASSERT_TRUE(q);
    EXPECT_EQ(q->snapshot(bl::TrainWeights::average), q->snapshot()) << name;
  }
  std::string err;
  EXPECT_FALSE(t->step({{{4, 999}, {7}}}, nullptr, &err));  // a source id outside the vocabulary
  EXPECT_EQ(t->snapshot(bl::TrainWeights::average), start);

  bl::TrainParams huge = p;  // a loss that overflows: the step stops, the average stays
  huge.lr = 1e30f;
  huge.clip = 0;
  auto h = trainer("tiny-additive-f32.safetensors", huge);
  ASSERT_TRUE(h);
  const auto batch = batch_of(fixture()["batch"]);
  for (int k = 0; k < 10; k++) {
    const auto last = h->snapshot(bl::TrainWeights::average);
    if (!h->step(batch, nullptr, &err)) {
      EXPECT_EQ(h->snapshot(bl::TrainWeights::average), last);
      return;
    }
  }
  FAIL() << "the loss never overflowed";
}

TEST(TrainAverage, BadDecaysAreRefused) {
  auto bytes = model_bytes("tiny-additive-f32.safetensors");
  for (double d : {-0.1, 1.0, 1.5, double(std::nan("")), double(INFINITY)}) {
    bl::TrainParams p;
    p.average = d;
    std::string err;
    EXPECT_FALSE(bl::Trainer::from_model(bytes.data(), bytes.size(), p, &err)) << d;
    EXPECT_NE(err.find("average"), std::string::npos) << err;
  }
}

}  // namespace
