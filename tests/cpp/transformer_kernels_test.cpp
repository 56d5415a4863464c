// The Transformer's kernels (layer_norm, relu): each table against a double-precision
// reference, and the SIMD twin against the scalar one on every length 1..67 (every tail mod 4),
// unaligned starts and in place. The tolerance of layer_norm scales with |g| * |x - mean| / std,
// the size of each output's terms, so a dropped or misplaced element fails by far.
#include "kernels/kernels.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

namespace {

using bl::Kernels;

std::vector<const Kernels*> tables() {
  std::vector<const Kernels*> t = {&bl::scalar_kernels()};
  if (bl::have_simd_kernels()) t.push_back(&bl::simd_kernels());
  return t;
}

// n random floats starting `off` elements into a vector with one guard element after them.
std::vector<float> random_at(std::mt19937& rng, size_t n, size_t off, float lo, float hi) {
  std::uniform_real_distribution<float> u(lo, hi);
  std::vector<float> v(off + n + 1, 0.0f);
  for (size_t i = 0; i < n; i++) v[off + i] = u(rng);
  return v;
}

TEST(TransformerKernels, Registered) {
  for (const Kernels* k : tables()) EXPECT_TRUE(k->layer_norm && k->relu) << k->name;
  if (bl::have_simd_kernels()) {
    EXPECT_NE(bl::simd_kernels().layer_norm, bl::scalar_kernels().layer_norm);
  }
}

TEST(TransformerKernels, LayerNormMatchesDouble) {
  std::mt19937 rng(11);
  for (const Kernels* k : tables()) {
    for (size_t n = 1; n <= 67; n++) {
      const size_t off = n % 4;
      // An offset mean (+3) checks that the variance is of the centred values.
      auto x = random_at(rng, n, off, 2.0f, 4.0f);
      auto g = random_at(rng, n, (off + 1) % 4, -2.0f, 2.0f);
      auto b = random_at(rng, n, (off + 2) % 4, -1.0f, 1.0f);
      const float *xp = x.data() + off, *gp = g.data() + (off + 1) % 4,
                  *bp = b.data() + (off + 2) % 4;
      const float eps = 1e-5f;
      double mean = 0, var = 0;
      for (size_t i = 0; i < n; i++) mean += xp[i];
      mean /= double(n);
      for (size_t i = 0; i < n; i++) var += (xp[i] - mean) * (xp[i] - mean);
      const double inv = 1.0 / std::sqrt(var / double(n) + eps);
      std::vector<float> y(n + 1, -7.0f);
      k->layer_norm(n, xp, gp, bp, eps, y.data());
      std::vector<float> inplace(xp, xp + n);
      k->layer_norm(n, inplace.data(), gp, bp, eps, inplace.data());
      for (size_t i = 0; i < n; i++) {
        const double want = (xp[i] - mean) * inv * gp[i] + bp[i];
        const double mag = std::fabs(gp[i]) * (std::fabs(xp[i] - mean) * inv + 1.0) +
                           std::fabs(bp[i]);
        ASSERT_NEAR(y[i], want, 4e-6 * mag) << k->name << " n=" << n << " i=" << i;
        ASSERT_EQ(inplace[i], y[i]) << k->name << " n=" << n;
      }
      ASSERT_EQ(y[n], -7.0f) << "wrote past the row";
    }
  }
}

TEST(TransformerKernels, LayerNormSimdMatchesScalar) {
  if (!bl::have_simd_kernels()) GTEST_SKIP() << "built without BL_SIMD";
  std::mt19937 rng(12);
  for (size_t n = 1; n <= 67; n++) {
    auto x = random_at(rng, n, 1, -5.0f, 5.0f), g = random_at(rng, n, 2, 0.5f, 1.5f),
         b = random_at(rng, n, 3, -1.0f, 1.0f);
    std::vector<float> want(n), got(n);
    bl::scalar_kernels().layer_norm(n, x.data() + 1, g.data() + 2, b.data() + 3, 1e-5f,
                                    want.data());
    bl::simd_kernels().layer_norm(n, x.data() + 1, g.data() + 2, b.data() + 3, 1e-5f,
                                  got.data());
    for (size_t i = 0; i < n; i++)
      ASSERT_NEAR(got[i], want[i], 2e-6 * (1.0 + std::fabs(want[i]))) << "n=" << n;
  }
  // A constant row has variance 0: eps keeps it finite, and every output is the offset b.
  std::vector<float> x(9, 3.25f), g(9, 2.0f), b(9, 0.5f), y(9);
  for (const Kernels* k : tables()) {
    k->layer_norm(9, x.data(), g.data(), b.data(), 1e-5f, y.data());
    for (float v : y) ASSERT_EQ(v, 0.5f) << k->name;
  }
}

TEST(TransformerKernels, ReluOnEveryLength) {
  std::mt19937 rng(13);
  for (const Kernels* k : tables()) {
    for (size_t n = 1; n <= 67; n++) {
      auto x = random_at(rng, n, n % 4, -3.0f, 3.0f);
      const float* xp = x.data() + n % 4;
      std::vector<float> y(n + 1, -7.0f);
      k->relu(n, xp, y.data());
      for (size_t i = 0; i < n; i++) ASSERT_EQ(y[i], xp[i] > 0 ? xp[i] : 0.0f) << k->name;
      ASSERT_EQ(y[n], -7.0f) << "wrote past the row";
    }
    float special[5] = {NAN, -INFINITY, INFINITY, -0.0f, 1e-30f};
    k->relu(5, special, special);
    EXPECT_EQ(special[0], 0.0f) << k->name << ": NaN gives 0 in both tables";
    EXPECT_EQ(special[1], 0.0f);
    EXPECT_EQ(special[2], INFINITY);
    EXPECT_EQ(special[3], 0.0f);
    EXPECT_EQ(special[4], 1e-30f);
  }
}

}  // namespace
