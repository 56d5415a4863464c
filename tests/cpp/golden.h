// What the golden tests share (golden_test.cpp, golden_edits_test.cpp): reading fixtures and
// models, and the tolerances against the PyTorch reference.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>

#include "bahdanau.h"

namespace golden {

using nlohmann::json;

inline std::string path_of(const std::string& rel) { return std::string(BL_SOURCE_DIR) + "/" + rel; }

inline std::vector<uint8_t> read_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

inline json read_json(const std::string& path) {
  std::ifstream f(path);
  EXPECT_TRUE(f.good()) << "missing fixture " << path;
  return json::parse(f, nullptr, false);
}

inline std::unique_ptr<bl::Translator> load(const std::string& rel, bool simd) {
  auto bytes = read_bytes(path_of(rel));
  std::string err;
  auto tr = bl::Translator::load(bytes.data(), bytes.size(), bl::LoadParams{simd}, &err);
  EXPECT_TRUE(tr) << rel << ": " << err;
  return tr;
}

// |a - b| <= tol * max(1, |b|): absolute near zero, relative for log-probs of size ~10.
// tol is 1e-5 but for the int8 Transformer (kTransformerInt8Tol).
inline void expect_close(const std::vector<float>& got, const json& want, const std::string& what,
                  double tol = 1e-5) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t k = 0; k < got.size(); k++) {
    const double w = want[k].get<double>();
    ASSERT_LE(std::fabs(got[k] - w), tol * std::max(1.0, std::fabs(w)))
        << what << "[" << k << "]: got " << got[k] << ", want " << w;
  }
}

// The int8 Transformer's tolerance. The int8 kernels quantize each activation vector to 14 bits
// (gemv-scalar.cpp, qd14: up to amax / 16382 per element), and a Transformer feeds every
// product through LayerNorms that rescale it by 1/std: on the tiny model (d_model 12, weights
// N(0, 0.6)) values move up to 7.5e-4 (relative above 1) from the dequantized-f32 reference;
// tokens stay identical. 1.5e-3 leaves room for that; a wrong term moves them by 1e-2.
constexpr double kTransformerInt8Tol = 1.5e-3;

// The RNN int8 models' tolerance, for the same reason: measured (node scripts/int8-error.mjs)
// at most 3.4e-3 on the top log-probs, 2.1e-3 on e, 7.8e-4 on prob, 2.7e-4 on alpha, 3.9e-2 on
// a 39-row forced log-prob; docs/model-format.md has the table. Their random tiny weights leave
// near ties, which expect_top_ids and the flip rule below allow for.
constexpr double kRnnInt8Tol = 5e-3;

}  // namespace golden
