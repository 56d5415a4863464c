// The trainer's optional regularisation and evaluate() (issue 25): label smoothing against
// PyTorch (tests/fixtures/tiny-train.json, "smoothed"), seeded dropout, finite differences with
// both, and evaluate() as a pure function of the weights.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "bahdanau_train.h"
#include "core/model_file.h"
#include "core/train_dropout.h"
#include "core/train_model.h"
#include "core/train_tensors.h"
#include "golden.h"
#include "train_fixture.h"

namespace {

using golden::json;

// As tests/cpp/train_test.cpp: gradients to 1e-5 of their tensor's scale, the loss to 1e-5.
constexpr double kGradTol = 1e-5, kLossTol = 1e-5;

using train_fixture::batch_of;
using train_fixture::fixture;
using train_fixture::model_bytes;
using train_fixture::trainer;

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

TEST(TrainLabelSmoothing, LossAndEveryGradientMatchPyTorch) {
  const json fx = fixture();
  const auto batch = batch_of(fx["batch"]);
  bl::TrainParams p;
  p.label_smoothing = fx["label_smoothing"].get<float>();
  for (const json& m : fx["models"]) {
    const std::string name = m["model"];
    const json& want = m["smoothed"];
    auto t = trainer(name, p);
    ASSERT_TRUE(t);
    float loss = 0;
    std::string err;
    ASSERT_TRUE(t->compute(batch, &loss, &err)) << err;
    EXPECT_NEAR(loss, want["loss"].get<double>(), kLossTol * want["loss"].get<double>()) << name;
    double worst = 0;
    for (const bl::TensorGrad& g : t->gradients()) {
      const json& w = want["grads"][g.name];
      ASSERT_EQ(w.size(), g.size) << name << " " << g.name;
      double scale = 0;
      for (const json& v : w) scale = std::max(scale, std::fabs(v.get<double>()));
      for (size_t k = 0; k < g.size; k++) {
        const double d = std::fabs(g.data[k] - w[k].get<double>());
        if (scale > 0) worst = std::max(worst, d / scale);
        ASSERT_LE(d, kGradTol * scale) << name << " " << g.name << "[" << k << "]";
      }
    }
    std::printf("  %s: smoothed loss %.7f (want %.7f), max |d| / tensor scale %.2e\n",
                name.c_str(), loss, want["loss"].get<double>(), worst);
  }
}

// Central differences of the double loss with one fixed dropout mask and label smoothing,
// against the f32 backward pass with the same mask: the backward pass of dropout is checked
// without trusting PyTorch (whose masks we cannot reproduce).
TEST(TrainDropout, FiniteDifferencesWithAFixedMask) {
  const json fx = fixture();
  const auto batch = batch_of(fx["batch"]);
  for (const json& m : fx["models"]) {
    const std::string name = m["model"];
    auto bytes = model_bytes(name);
    bl::ModelData md;
    std::string err;
    ASSERT_TRUE(bl::load_model(bytes.data(), bytes.size(), &md, &err)) << err;
    const bl::Config& cfg = md.config;
    bl::train::Rng rng(11);
    const auto masks = bl::train::make_masks(cfg, batch, 0.3f, &rng);
    bl::train::LossOptions opt;
    opt.label_smoothing = 0.1;
    opt.masks = &masks;
    bl::Weights grad = bl::zeros_like(cfg, md.weights);
    const double plain = bl::train::batch_loss<double>(cfg, md.weights, batch, nullptr);
    const double l = bl::train::batch_loss<float>(cfg, md.weights, batch, &grad, opt);
    EXPECT_GT(std::fabs(l - plain), 1e-3) << name << ": the mask changes the loss";
    const double worst =
        train_fixture::check_finite_differences(cfg, &md.weights, &grad, batch, opt, name);
    std::printf("  %s (dropout 0.3, smoothing 0.1): worst |fd - backprop| / max(1e-3, |fd|) "
                "= %.2e\n", name.c_str(), worst);
  }
}

TEST(TrainDropout, SameSeedSameMasksOtherSeedOthers) {
  const auto batch = batch_of(fixture()["adam_batches"][1]);
  for (const char* name : {"tiny-additive-f32.safetensors", "tiny-none-cgru-f32.safetensors"}) {
    bl::TrainParams p;
    p.dropout = 0.3f, p.seed = 5;
    auto a = trainer(name, p), b = trainer(name, p);
    p.seed = 6;
    auto c = trainer(name, p);
    ASSERT_TRUE(a && b && c);
    bool differs = false;
    for (int k = 0; k < 4; k++) {
      float la = 0, lb = 0, lc = 0;
      std::string err;
      ASSERT_TRUE(a->step(batch, &la, &err) && b->step(batch, &lb, &err) &&
                  c->step(batch, &lc, &err)) << err;
      EXPECT_TRUE(same_bits(la, lb)) << name << " step " << k;
      differs |= !same_bits(la, lc);
    }
    EXPECT_EQ(a->snapshot(), b->snapshot()) << name;
    EXPECT_TRUE(differs) << name << ": seeds 5 and 6 drew the same masks";
    EXPECT_NE(a->snapshot(), c->snapshot()) << name;
  }
}

// dropout 0 is no dropout: the same bits whatever the seed, and the masks are not drawn.
TEST(TrainDropout, ZeroIsNoDropoutBitForBit) {
  const auto batch = batch_of(fixture()["batch"]);
  for (const char* name : {"tiny-scaled_dot-f32.safetensors", "tiny-additive-cgru-f32.safetensors"}) {
    bl::TrainParams zero;
    zero.dropout = 0, zero.seed = 1234;
    auto plain = trainer(name), z = trainer(name, zero);
    bl::TrainParams some = zero;
    some.dropout = 0.2f;
    auto d = trainer(name, some);
    ASSERT_TRUE(plain && z && d);
    for (int k = 0; k < 5; k++) {
      float lp = 0, lz = 0, ld = 0;
      std::string err;
      ASSERT_TRUE(plain->step(batch, &lp, &err) && z->step(batch, &lz, &err) &&
                  d->step(batch, &ld, &err)) << err;
      EXPECT_TRUE(same_bits(lp, lz)) << name << " step " << k;
      if (k == 0) {
        EXPECT_NE(lp, ld) << name << ": dropout 0.2 changes the first loss";
      }
    }
    EXPECT_EQ(plain->snapshot(), z->snapshot()) << name;
  }
}

// nn.Dropout's expected-value scaling: each mask value is 0 with probability p, else exactly
// 1 / (1 - p), so an activation's mean over masks is unchanged.
TEST(TrainDropout, MasksKeepTheExpectedValue) {
  bl::Config cfg;
  cfg.emb = 64;
  const std::vector<bl::TrainPair> batch(50, {{4, 5, 6, 7, 8, 9, 10}, {4, 5, 6, 7, 8}});
  for (float p : {0.1f, 0.5f, 0.8f}) {
    bl::train::Rng rng(uint64_t(p * 100));
    const auto masks = bl::train::make_masks(cfg, batch, p, &rng);
    ASSERT_EQ(masks.size(), batch.size());
    const float keep = float(1.0 / (1.0 - double(p)));
    double n = 0, zeros = 0, sum = 0;
    for (const bl::train::DropoutMasks& m : masks) {
      ASSERT_EQ(m.src.size(), 8u * 64);  // 7 tokens and </s>
      ASSERT_EQ(m.ey.size(), 6u * 64);   // 5 tokens and </s>: 6 steps
      ASSERT_EQ(m.t.size(), 6u * 64);
      for (const std::vector<float>* v : {&m.src, &m.ey, &m.t})
        for (float x : *v) {
          ASSERT_TRUE(x == 0.0f || x == keep) << x;
          n++, zeros += x == 0.0f, sum += x;
        }
    }
    const double se_rate = std::sqrt(p * (1 - p) / n);
    EXPECT_NEAR(zeros / n, p, 5 * se_rate) << p;
    EXPECT_NEAR(sum / n, 1.0, 5 * se_rate * keep) << p;  // E[mask] = 1
  }
}

TEST(TrainEvaluate, EqualsComputeAndChangesNothing) {
  const json fx = fixture();
  const auto batch = batch_of(fx["batch"]), other = batch_of(fx["adam_batches"][2]);
  for (const json& m : fx["models"]) {
    const std::string name = m["model"];
    bl::TrainParams regularised;
    regularised.dropout = 0.5f, regularised.label_smoothing = 0.2f;
    auto t = trainer(name), r = trainer(name, regularised);
    ASSERT_TRUE(t && r);
    float computed = 0, evaluated = 0, eval_r = 0;
    std::string err;
    ASSERT_TRUE(t->compute(other, &computed, &err)) << err;
    std::vector<std::vector<float>> grads;
    for (const bl::TensorGrad& g : t->gradients()) grads.emplace_back(g.data, g.data + g.size);
    const auto before = t->snapshot();
    ASSERT_TRUE(t->evaluate(batch, &evaluated, &err)) << err;
    EXPECT_EQ(t->snapshot(), before) << name;
    const auto after = t->gradients();
    for (size_t i = 0; i < after.size(); i++)
      EXPECT_EQ(std::vector<float>(after[i].data, after[i].data + after[i].size), grads[i])
          << name << " " << after[i].name << ": evaluate() touched the gradients";
    ASSERT_TRUE(t->compute(batch, &computed, &err)) << err;
    EXPECT_TRUE(same_bits(evaluated, computed)) << name << ": " << evaluated << " vs " << computed;
    // The held-out measure has no dropout or smoothing, whatever the trainer trains with.
    ASSERT_TRUE(r->evaluate(batch, &eval_r, &err)) << err;
    EXPECT_TRUE(same_bits(eval_r, computed)) << name;
    EXPECT_EQ(t->steps(), 0);
  }
}

TEST(TrainEvaluate, ManyPairsAndBadOnes) {
  const auto batch = batch_of(fixture()["batch"]);
  auto t = trainer("tiny-additive-f32.safetensors");
  ASSERT_TRUE(t);
  std::vector<bl::TrainPair> many;
  while (many.size() < 5000) many.insert(many.end(), batch.begin(), batch.end());
  float one = 0, all = 0;
  std::string err;
  ASSERT_TRUE(t->evaluate(batch, &one, &err)) << err;
  ASSERT_TRUE(t->evaluate(many, &all, &err)) << err;  // over kMaxTrainBatch: in parts
  EXPECT_NEAR(all, one, 1e-5 * one);
  EXPECT_FALSE(t->evaluate({}, &all, &err));
  EXPECT_NE(err.find("no pairs"), std::string::npos) << err;
  many[4500].tgt.push_back(999);
  EXPECT_FALSE(t->evaluate(many, &all, &err));
  EXPECT_NE(err.find("from pair 4096, batch pair 404: target id 999 is outside"),
            std::string::npos) << err;
}

}  // namespace
