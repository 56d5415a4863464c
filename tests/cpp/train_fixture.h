// What the trainer's tests share: tests/fixtures/tiny-train.json (scripts/nmt/golden_train.py),
// its batches, and a Trainer on one of the tiny models.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "bahdanau_train.h"
#include "core/train_model.h"
#include "core/train_tensors.h"
#include "golden.h"

namespace train_fixture {

inline golden::json fixture() {
  return golden::read_json(golden::path_of("tests/fixtures/tiny-train.json"));
}

inline std::vector<bl::TrainPair> batch_of(const golden::json& j) {
  std::vector<bl::TrainPair> b;
  for (const golden::json& p : j)
    b.push_back({p["src"].get<std::vector<int>>(), p["tgt"].get<std::vector<int>>()});
  return b;
}

inline std::vector<uint8_t> model_bytes(const std::string& name) {
  return golden::read_bytes(golden::path_of("tests/fixtures/" + name));
}

inline std::unique_ptr<bl::Trainer> trainer(const std::string& name, bl::TrainParams p = {}) {
  auto bytes = model_bytes(name);
  std::string err;
  auto t = bl::Trainer::from_model(bytes.data(), bytes.size(), p, &err);
  EXPECT_TRUE(t) << name << ": " << err;
  return t;
}

// Central differences of the double-precision loss (with opt) against the f32 analytic gradient
// grad of the same loss, for the largest entry of every tensor and two others, each within
// O(h^2) truncation plus the f32 rounding of the analytic side. -> the worst
// |fd - backprop| / max(1e-3, |fd|), which the tests print.
inline double check_finite_differences(const bl::Config& cfg, bl::Weights* weights,
                                       bl::Weights* grad,
                                       const std::vector<bl::TrainPair>& batch,
                                       const bl::train::LossOptions& opt,
                                       const std::string& name) {
  auto w = bl::named_tensors(cfg, weights);
  auto g = bl::named_tensors(cfg, grad);
  double worst = 0;
  for (size_t i = 0; i < w.size(); i++) {
    size_t top = 0;
    for (size_t k = 0; k < g[i].size(); k++)
      if (std::fabs(g[i].data[k]) > std::fabs(g[i].data[top])) top = k;
    for (size_t k : {top, (7 * i + 3) % w[i].size(), (131 * i + 17) % w[i].size()}) {
      const float w0 = w[i].data[k], h = 1e-3f, up = w0 + h, down = w0 - h;
      w[i].data[k] = up;
      const double lu = bl::train::batch_loss<double>(cfg, *weights, batch, nullptr, opt);
      w[i].data[k] = down;
      const double ld = bl::train::batch_loss<double>(cfg, *weights, batch, nullptr, opt);
      w[i].data[k] = w0;
      const double fd = (lu - ld) / (double(up) - double(down)), an = g[i].data[k];
      const double d = std::fabs(fd - an);
      worst = std::max(worst, d / std::max(1e-3, std::fabs(fd)));
      EXPECT_LE(d, 1e-5 + 1e-3 * std::fabs(fd))
          << name << " " << w[i].name << "[" << k << "]: finite difference " << fd
          << ", backprop " << an;
    }
  }
  return worst;
}

}  // namespace train_fixture
