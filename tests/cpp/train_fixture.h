// What the trainer's tests share: tests/fixtures/tiny-train.json (scripts/nmt/golden_train.py),
// its batches, and a Trainer on one of the tiny models.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "bahdanau_train.h"
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

}  // namespace train_fixture
