// The Transformer's own parity with PyTorch (scripts/nmt/golden.py), beyond what golden_test.cpp
// checks for every model kind (steps, greedy, beam-4, forced decoding): the encoder's output
// (after its final LayerNorm), its real self-attention per layer and head, and each step's
// cross-attention per layer and head, on both kernel tables, f32 and int8.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "bahdanau.h"
#include "core/model_file.h"
#include "core/transformer.h"
#include "kernels/kernels.h"

namespace {

using nlohmann::json;

std::string fixture(const std::string& name) {
  return std::string(BL_SOURCE_DIR) + "/tests/fixtures/" + name;
}

std::vector<uint8_t> read_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  EXPECT_TRUE(f.good()) << path;
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

// golden_test.cpp's tolerance: |got - want| <= tol * max(1, |want|), tol 1e-5 for f32 and
// 1.5e-3 for int8 (golden_test.cpp's kTransformerInt8Tol says why).
constexpr double kInt8Tol = 1.5e-3;
void expect_close(const float* got, size_t n, const json& want, const std::string& what,
                  double tol) {
  ASSERT_EQ(n, want.size()) << what;
  for (size_t k = 0; k < n; k++) {
    const double w = want[k].get<double>();
    ASSERT_LE(std::fabs(got[k] - w), tol * std::max(1.0, std::fabs(w)))
        << what << "[" << k << "]: got " << got[k] << ", want " << w;
  }
}

struct Case {
  std::string dtype;
  bool simd;
};

class GoldenTransformer : public testing::TestWithParam<Case> {};

TEST_P(GoldenTransformer, EncoderSelfAndCrossAttentionMatchPyTorch) {
  const Case& p = GetParam();
  std::ifstream f(fixture("tiny-transformer-" + p.dtype + ".json"));
  const json doc = json::parse(f, nullptr, false);
  ASSERT_FALSE(doc.is_discarded());
  const auto bytes = read_bytes(fixture(doc["model"].get<std::string>()));
  std::string err;
  auto tr = bl::Translator::load(bytes.data(), bytes.size(), bl::LoadParams{p.simd}, &err);
  ASSERT_TRUE(tr) << err;
  const bl::ModelInfo& info = tr->info();
  EXPECT_EQ(info.arch, "transformer");
  EXPECT_EQ(info.enc_hidden, 0);
  const int L = info.dec_layers, H = info.heads;
  const double tol = p.dtype == "int8" ? kInt8Tol : 1e-5;
  ASSERT_GT(L, 0);
  ASSERT_GT(H, 0);

  // The encoder's output itself, through the model class (the public API does not expose it).
  bl::ModelData md;
  ASSERT_TRUE(bl::load_model(bytes.data(), bytes.size(), &md, &err)) << err;
  const bl::Transformer model(md, p.simd ? bl::simd_kernels() : bl::scalar_kernels());

  int encoder_cases = 0, cross_steps = 0;
  for (const json& c : doc["cases"]) {
    const std::string text = c["text"];
    SCOPED_TRACE(text);
    if (!c.contains("encoder")) continue;
    const size_t n = c["src_ids"].size() + 1, d = size_t(info.d_model);
    bl::Annotations a;
    model.encode(c["src_ids"].get<std::vector<int>>(), &a);
    ASSERT_EQ(a.h.size(), n * d);
    for (size_t j = 0; j < n; j++)
      expect_close(&a.h[j * d], d, c["encoder"][j], "encoder row " + std::to_string(j), tol);

    bl::SelfAttention sa;
    ASSERT_TRUE(tr->self_attention(text, &sa, &err)) << err;
    EXPECT_EQ(sa.layers, info.enc_layers);
    EXPECT_EQ(sa.heads, H);
    EXPECT_NE(sa.method.find("encoder"), std::string::npos) << sa.method;
    const json& want = c["encoder_self_attention"];
    ASSERT_EQ(sa.layer_weights.size(), want.size());
    for (size_t l = 0; l < want.size(); l++) {
      for (size_t h = 0; h < size_t(H); h++) {
        for (size_t i = 0; i < n; i++) {
          const auto& row = sa.layer_weights[l][h][i];
          const std::string at = "self l" + std::to_string(l) + " h" + std::to_string(h) +
                                 " row " + std::to_string(i);
          expect_close(row.data(), row.size(), want[l][h][i], at, tol);
          ASSERT_EQ(sa.layer_scores[l][h][i].size(), n) << at;
        }
      }
    }
    encoder_cases++;

    auto dec = tr->start(text, bl::TranslateParams{}, &err);
    ASSERT_TRUE(dec) << err;
    bl::Step st;
    for (size_t i = 0; dec->next(&st); i++) {
      const json& cross = c["steps"][i]["cross"];
      ASSERT_EQ(st.cross_alpha.size(), size_t(L));
      for (size_t l = 0; l < size_t(L); l++) {
        ASSERT_EQ(st.cross_alpha[l].size(), size_t(H));
        for (size_t h = 0; h < size_t(H); h++) {
          const std::string at = "step " + std::to_string(i) + " cross l" + std::to_string(l) +
                                 " h" + std::to_string(h) + " ";
          expect_close(st.cross_e[l][h].data(), st.cross_e[l][h].size(), cross["e"][l][h],
                       at + "e", tol);
          expect_close(st.cross_alpha[l][h].data(), st.cross_alpha[l][h].size(),
                       cross["alpha"][l][h], at + "alpha", tol);
        }
      }
      cross_steps++;
    }
  }
  EXPECT_GE(encoder_cases, 20);
  EXPECT_GE(cross_steps, 20);
}

INSTANTIATE_TEST_SUITE_P(Tiny, GoldenTransformer,
                         testing::Values(Case{"f32", false}, Case{"f32", true},
                                         Case{"int8", false}, Case{"int8", true}),
                         [](const testing::TestParamInfo<Case>& i) {
                           return i.param.dtype + (i.param.simd ? "_simd" : "_scalar");
                         });

}  // namespace
