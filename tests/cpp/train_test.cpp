// Training in the core (issue 25, part 1): gradients and Adam against PyTorch
// (tests/fixtures/tiny-train.json, scripts/nmt/golden_train.py), finite differences in double,
// determinism, bad input and snapshots.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>

#include "bahdanau.h"
#include "bahdanau_train.h"
#include "core/model_file.h"
#include "core/train_ops.h"
#include "core/train_model.h"
#include "core/train_tensors.h"
#include "golden.h"
#include "train_fixture.h"

namespace {

using golden::json;

// Gradients: |got - want| <= kGradTol * max |want| over the tensor. Both sides are f32 with
// different summation orders (PyTorch sums a batch's time steps at once, we one sentence at a
// time), so entries differ in their last bits relative to the largest terms summed, not to the
// entry itself: a small entry made of large cancelling terms keeps the absolute error of those
// terms, hence a tolerance on the tensor's scale. Measured on the six tiny models: at most
// 2.5e-6 of the scale (8.2e-7 absolute; the test prints both). A wrong term (a missing gate, a
// transposed product) moves entries by the tensor's own scale.
constexpr double kGradTol = 1e-5;
// Losses, relative: measured 1.6e-7 for one batch and 2.1e-6 over the 50 Adam steps (rounding
// grows through the updates); 1e-5 and 2e-5 leave room for other compilers.
constexpr double kLossTol = 1e-5, kAdamTol = 2e-5;

using train_fixture::batch_of;
using train_fixture::fixture;
using train_fixture::model_bytes;
using train_fixture::trainer;

// The batch's loss and every gradient of the six tiny models against PyTorch's, with the
// kernel table chosen around the call (the default, or the fused one below).
static void expect_gradients() {
  const json fx = fixture();
  const auto batch = batch_of(fx["batch"]);
  for (const json& m : fx["models"]) {
    const std::string name = m["model"];
    auto t = trainer(name);
    ASSERT_TRUE(t);
    float loss = 0;
    std::string err;
    ASSERT_TRUE(t->compute(batch, &loss, &err)) << err;
    EXPECT_NEAR(loss, m["loss"].get<double>(), kLossTol * m["loss"].get<double>()) << name;
    const auto grads = t->gradients();
    ASSERT_EQ(grads.size(), m["grads"].size()) << name;
    double max_abs = 0, max_rel_scale = 0;
    for (const bl::TensorGrad& g : grads) {
      ASSERT_TRUE(m["grads"].contains(g.name)) << name << " " << g.name;
      const json& want = m["grads"][g.name];
      ASSERT_EQ(want.size(), g.size) << name << " " << g.name;
      double scale = 0;
      for (const json& v : want) scale = std::max(scale, std::fabs(v.get<double>()));
      for (size_t k = 0; k < g.size; k++) {
        const double w = want[k].get<double>(), d = std::fabs(g.data[k] - w);
        max_abs = std::max(max_abs, d);
        if (scale > 0) max_rel_scale = std::max(max_rel_scale, d / scale);
        ASSERT_LE(d, kGradTol * scale)
            << name << " " << g.name << "[" << k << "]: got " << g.data[k] << ", want " << w;
      }
    }
    std::printf(
        "  %s: loss %.7f (want %.7f), gradients max |d| %.2e, max |d| / tensor scale %.2e\n",
        name.c_str(), loss, m["loss"].get<double>(), max_abs, max_rel_scale);
  }
}

TEST(TrainGolden, LossAndEveryGradientMatchPyTorch) { expect_gradients(); }

// The 50 steps of `key` in the fixture, each loss within kAdamTol of PyTorch's. p: lr and clip
// from the fixture, lr_decay_steps as the caller sets it.
static void expect_adam_losses(const json& fx, const char* key, bl::TrainParams p) {
  std::vector<std::vector<bl::TrainPair>> batches;
  for (const json& b : fx["adam_batches"]) batches.push_back(batch_of(b));
  p.lr = fx["lr"].get<float>();
  p.clip = fx["clip"].get<float>();
  for (const json& m : fx["models"]) {
    auto t = trainer(m["model"], p);
    ASSERT_TRUE(t);
    const json& want = m[key];
    double worst = 0;
    for (size_t k = 0; k < want.size(); k++) {
      float loss = 0;
      std::string err;
      ASSERT_TRUE(t->step(batches[k % batches.size()], &loss, &err)) << err;
      const double w = want[k].get<double>(), d = std::fabs(loss - w);
      worst = std::max(worst, d / w);
      ASSERT_LE(d, kAdamTol * w) << m["model"] << " " << key << " step " << k << ": got " << loss
                                 << ", want " << w;
    }
    EXPECT_EQ(t->steps(), long(want.size()));
    std::printf("  %s: %zu Adam steps (%s), max relative loss difference %.2e\n",
                m["model"].get<std::string>().c_str(), want.size(), key, worst);
  }
}

TEST(TrainGolden, AdamLossesMatchPyTorchStepByStep) {
  expect_adam_losses(fixture(), "adam_losses", bl::TrainParams{});
}

// LambdaLR's min(1, sqrt(D / t)) against TrainParams::lr_decay_steps = D: 40 of the 50 steps
// decayed.
TEST(TrainGolden, AdamWithDecayMatchesPyTorchStepByStep) {
  const json fx = fixture();
  bl::TrainParams p;
  p.lr_decay_steps = fx["lr_decay_steps"].get<double>();
  ASSERT_GT(p.lr_decay_steps, 0);
  expect_adam_losses(fx, "adam_decay_losses", p);
}

// The fused product (each multiply-add rounded once: TrainParams::relaxed in a browser with
// relaxed SIMD, whose kernel gives the bits of this scalar twin; tests/node/relaxed-gemm.test.mjs)
// meets PyTorch within the same tolerances, and computes something else than the plain tables.
TEST(TrainGoldenFused, GradientsAndAdamMatchPyTorch) {
  const bl::train::UseTrainKernels fused(&bl::fused_scalar_train_kernels());
  expect_gradients();
  expect_adam_losses(fixture(), "adam_losses", bl::TrainParams{});
}

TEST(TrainGoldenFused, RoundsOtherwiseThanThePlainTables) {
  const json fx = fixture();
  const auto batch = batch_of(fx["batch"]);
  auto plain = trainer("tiny-additive-f32.safetensors");
  auto fused = trainer("tiny-additive-f32.safetensors");
  ASSERT_TRUE(plain && fused);
  float a = 0, b = 0;
  ASSERT_TRUE(plain->compute(batch, &a, nullptr));
  {
    const bl::train::UseTrainKernels use(&bl::fused_scalar_train_kernels());
    ASSERT_TRUE(fused->compute(batch, &b, nullptr));
    EXPECT_EQ(fused->kernels(), "scalar-fused");
  }
  EXPECT_NE(fused->kernels(), "scalar-fused") << "the choice ends with its scope";
  size_t differ = 0;
  const auto ga = plain->gradients(), gb = fused->gradients();
  for (size_t t = 0; t < ga.size(); t++)
    for (size_t k = 0; k < ga[t].size; k++) differ += ga[t].data[k] != gb[t].data[k];
  EXPECT_GT(differ, 0u) << "the fused table gave the plain tables' gradients bit for bit";
}

// TrainParams::relaxed where no relaxed kernel is installed (every native build): the plain
// table, the same bits as without it.
TEST(TrainGoldenFused, RelaxedWithoutTheKernelIsThePlainTable) {
  const json fx = fixture();
  const auto batch = batch_of(fx["batch"]);
  bl::TrainParams p;
  p.relaxed = true;
  auto plain = trainer("tiny-additive-f32.safetensors");
  auto asked = trainer("tiny-additive-f32.safetensors", p);
  ASSERT_TRUE(plain && asked);
  EXPECT_EQ(asked->kernels(), plain->kernels());
  float a = 0, b = 0;
  ASSERT_TRUE(plain->step(batch, &a, nullptr));
  ASSERT_TRUE(asked->step(batch, &b, nullptr));
  EXPECT_EQ(std::memcmp(&a, &b, sizeof a), 0);
}

// Central differences of the double-precision loss against the f32 analytic gradient, for the
// largest entry of every tensor and two others: the check that does not trust PyTorch.
TEST(TrainGradCheck, FiniteDifferencesAgreeWithBackprop) {
  const json fx = fixture();
  const auto batch = batch_of(fx["batch"]);
  for (const json& m : fx["models"]) {
    const std::string name = m["model"];
    auto bytes = model_bytes(name);
    bl::ModelData md;
    std::string err;
    ASSERT_TRUE(bl::load_model(bytes.data(), bytes.size(), &md, &err)) << err;
    const bl::Config& cfg = md.config;
    bl::Weights grad = bl::zeros_like(cfg, md.weights);
    bl::train::batch_loss<float>(cfg, md.weights, batch, &grad);
    const double worst =
        train_fixture::check_finite_differences(cfg, &md.weights, &grad, batch, {}, name);
    std::printf("  %s: worst |fd - backprop| / max(1e-3, |fd|) = %.2e\n", name.c_str(), worst);
  }
}

TEST(TrainDeterminism, SameInputsGiveSameBits) {
  const json fx = fixture();
  const auto batch = batch_of(fx["adam_batches"][0]);
  for (const char* name : {"tiny-additive-f32.safetensors", "tiny-none-cgru-f32.safetensors"}) {
    auto a = trainer(name), b = trainer(name);
    ASSERT_TRUE(a && b);
    for (int k = 0; k < 5; k++) {
      float la = 0, lb = 0;
      std::string err;
      ASSERT_TRUE(a->step(batch, &la, &err)) << err;
      ASSERT_TRUE(b->step(batch, &lb, &err)) << err;
      EXPECT_EQ(std::memcmp(&la, &lb, sizeof la), 0) << name << " step " << k;
      const auto ga = a->gradients(), gb = b->gradients();
      for (size_t i = 0; i < ga.size(); i++)
        EXPECT_EQ(std::memcmp(ga[i].data, gb[i].data, ga[i].size * sizeof(float)), 0) << ga[i].name;
    }
    EXPECT_EQ(a->snapshot(), b->snapshot()) << name;
  }
}

TEST(TrainBadInput, ClearErrorsNeverACrash) {
  auto t = trainer("tiny-additive-f32.safetensors");
  ASSERT_TRUE(t);
  const auto before = t->snapshot();
  std::string err;
  float loss = 0;
  EXPECT_FALSE(t->step({}, &loss, &err));
  EXPECT_NE(err.find("empty"), std::string::npos) << err;
  const std::map<std::string, std::vector<bl::TrainPair>> bad = {
      {"outside 1..", {{{4, 5}, {7}}, {{4, 999}, {7}}}},
      {"target id 0", {{{4}, {0}}}},
      {"source id -3", {{{-3}, {5}}}},
      {"more than max_src_len", {{std::vector<int>(65, 4), {5}}}},
      {"more than max_tgt_len", {{{4}, std::vector<int>(40, 5)}}},
  };
  for (const auto& [want, batch] : bad) {
    err.clear();
    EXPECT_FALSE(t->step(batch, &loss, &err)) << want;
    EXPECT_NE(err.find(want), std::string::npos) << err;
  }
  EXPECT_EQ(t->steps(), 0);
  EXPECT_EQ(t->snapshot(), before);

  auto bytes = model_bytes("tiny-additive-f32.safetensors");
  for (float lr : {std::nanf(""), -1.0f, 0.0f, INFINITY}) {
    bl::TrainParams p;
    p.lr = lr;
    err.clear();
    EXPECT_FALSE(bl::Trainer::from_model(bytes.data(), bytes.size(), p, &err)) << lr;
    EXPECT_NE(err.find("lr"), std::string::npos) << err;
  }
  bl::TrainParams nan_clip;
  nan_clip.clip = std::nanf("");
  EXPECT_FALSE(bl::Trainer::from_model(bytes.data(), bytes.size(), nan_clip, &err));
  EXPECT_FALSE(bl::Trainer::from_model(bytes.data(), 100, {}, &err));  // truncated file
  EXPECT_FALSE(bl::Trainer::from_model(nullptr, 0, {}, &err));
  auto tf = model_bytes("tiny-transformer-f32.safetensors");
  EXPECT_FALSE(bl::Trainer::from_model(tf.data(), tf.size(), {}, &err));
  EXPECT_NE(err.find("Transformer"), std::string::npos) << err;

  // A learning rate so high that the loss overflows: a stop with its reason, weights kept.
  bl::TrainParams huge;
  huge.lr = 1e30f;
  huge.clip = 0;
  auto h = trainer("tiny-additive-f32.safetensors", huge);
  ASSERT_TRUE(h);
  const auto batch = batch_of(fixture()["batch"]);
  bool stopped = false;
  for (int k = 0; k < 10 && !stopped; k++) {
    const auto last = h->snapshot();
    err.clear();
    if (!h->step(batch, &loss, &err)) {
      stopped = true;
      EXPECT_NE(err.find("not finite"), std::string::npos) << err;
      EXPECT_EQ(h->snapshot(), last);
    }
  }
  EXPECT_TRUE(stopped);
}

// snapshot(): an f32 model file that Translator::load reads; before training it translates
// exactly as the file it came from, after training it still loads and translates.
TEST(TrainSnapshot, LoadsInTheTranslator) {
  const json fx = fixture();
  const auto batch = batch_of(fx["batch"]);
  for (const char* name : {"tiny-additive-f32.safetensors", "tiny-scaled_dot-cgru-f32.safetensors",
                           "tiny-none-f32.safetensors", "tiny-additive-int8.safetensors",
                           "tiny16-additive-cgru-q4.safetensors"}) {
    auto t = trainer(name);
    ASSERT_TRUE(t);
    std::string err;
    auto snap = t->snapshot();
    auto fresh = bl::Translator::load(snap.data(), snap.size(), bl::LoadParams{false}, &err);
    ASSERT_TRUE(fresh) << name << ": " << err;
    EXPECT_EQ(fresh->info().dtype, "f32");
    auto orig = golden::load(std::string("tests/fixtures/") + name, false);
    bl::Translation a, b;
    ASSERT_TRUE(fresh->translate("The black cat is sleeping.", {}, &a, &err)) << err;
    ASSERT_TRUE(orig->translate("The black cat is sleeping.", {}, &b, &err)) << err;
    if (std::string(name).find("f32") != std::string::npos) {
      EXPECT_EQ(a.tgt_ids, b.tgt_ids) << name;
      EXPECT_EQ(a.attention, b.attention) << name;
    }
    float loss = 0;
    ASSERT_TRUE(t->step(batch, &loss, &err)) << err;
    snap = t->snapshot();
    auto trained = bl::Translator::load(snap.data(), snap.size(), bl::LoadParams{false}, &err);
    ASSERT_TRUE(trained) << name << ": " << err;
    ASSERT_TRUE(trained->translate("The black cat is sleeping.", {}, &a, &err)) << err;
  }
}

}  // namespace
