// The training reductions (kernels.h, train_dot_f32 / train_sum_f32 / train_max_f32): each
// table against a double reference within the float-sum bound of its lane tree, the max exact;
// the wasm SIMD twin against the scalar one bit for bit on every length up to 67 (every tail of
// a block of 16) and on the trainer's widths, at every offset mod 4; NaN and infinities as
// both twins must pass them; and the lane order itself, which a sum in index order fails.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "kernels/kernels.h"

namespace {

uint32_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

std::vector<size_t> lengths() {
  std::vector<size_t> n;
  for (size_t i = 0; i <= 67; i++) n.push_back(i);
  for (size_t i : {128, 255, 256, 257, 2999, 3000, 3001}) n.push_back(i);
  return n;
}

const bl::Kernels* const kTables[] = {&bl::scalar_kernels(), &bl::simd_kernels()};

TEST(TrainReduce, WithinTheFloatSumBound) {
  std::mt19937 rng(41);
  std::uniform_real_distribution<float> u(-3.0f, 3.0f);
  for (const bl::Kernels* k : kTables)
    for (size_t n : lengths()) {
      std::vector<float> a(n), b(n);
      for (size_t i = 0; i < n; i++) a[i] = u(rng), b[i] = u(rng);
      double dot = 0, dot_abs = 0, sum = 0, sum_abs = 0, mx = -INFINITY;
      for (size_t i = 0; i < n; i++) {
        dot += double(a[i]) * b[i], dot_abs += std::fabs(double(a[i]) * b[i]);
        sum += a[i], sum_abs += std::fabs(a[i]), mx = std::max(mx, double(a[i]));
      }
      // Each term goes through at most n / 16 + 1 adds in its lane and 4 in the tree, each
      // rounded by at most 2^-24 of the partial sum; the product adds one rounding more.
      const double u24 = std::ldexp(1.0, -24), depth = double(n / 16 + 6);
      EXPECT_NEAR(k->train_dot_f32(n, a.data(), b.data()), dot, depth * u24 * dot_abs + 1e-30)
          << k->name << " n=" << n;
      EXPECT_NEAR(k->train_sum_f32(n, a.data()), sum, depth * u24 * sum_abs + 1e-30)
          << k->name << " n=" << n;
      EXPECT_EQ(k->train_max_f32(n, a.data()), float(mx)) << k->name << " n=" << n;
    }
}

TEST(TrainReduce, SimdMatchesScalarBitForBit) {
  if (!bl::have_simd_kernels()) GTEST_SKIP() << "built without BL_SIMD";
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> u(-1e3f, 1e3f);
  const bl::Kernels &s = bl::scalar_kernels(), &v = bl::simd_kernels();
  for (size_t n : lengths())
    for (size_t off = 0; off < 4; off++) {
      std::vector<float> a(n + 4), b(n + 4);
      for (size_t i = 0; i < n + 4; i++) a[i] = u(rng), b[i] = u(rng) * 1e-3f;
      const float *pa = a.data() + off, *pb = b.data() + off;
      ASSERT_EQ(bits(s.train_dot_f32(n, pa, pb)), bits(v.train_dot_f32(n, pa, pb))) << "dot n=" << n;
      ASSERT_EQ(bits(s.train_sum_f32(n, pa)), bits(v.train_sum_f32(n, pa))) << "sum n=" << n;
      ASSERT_EQ(bits(s.train_max_f32(n, pa)), bits(v.train_max_f32(n, pa))) << "max n=" << n;
    }
  // What a diverging step feeds them: NaN and infinities at every position of a 37-long row.
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = INFINITY;
  for (float odd : {nan, inf, -inf})
    for (size_t at = 0; at < 37; at++) {
      std::vector<float> x(37, 0.5f);
      x[at] = odd;
      ASSERT_EQ(bits(s.train_sum_f32(37, x.data())), bits(v.train_sum_f32(37, x.data())));
      ASSERT_EQ(bits(s.train_max_f32(37, x.data())), bits(v.train_max_f32(37, x.data())));
      ASSERT_EQ(bits(s.train_dot_f32(37, x.data(), x.data())),
                bits(v.train_dot_f32(37, x.data(), x.data())));
    }
}

TEST(TrainReduce, EmptyAndSpecialValues) {
  for (const bl::Kernels* k : kTables) {
    EXPECT_EQ(bits(k->train_sum_f32(0, nullptr)), bits(0.0f)) << k->name;
    EXPECT_EQ(bits(k->train_dot_f32(0, nullptr, nullptr)), bits(0.0f)) << k->name;
    EXPECT_EQ(k->train_max_f32(0, nullptr), -INFINITY) << k->name;
    std::vector<float> x(40, -2.0f);
    x[33] = INFINITY;
    EXPECT_EQ(k->train_max_f32(40, x.data()), INFINITY) << k->name;
    x[33] = std::numeric_limits<float>::quiet_NaN();
    EXPECT_TRUE(std::isnan(k->train_sum_f32(40, x.data()))) << k->name;
  }
}

// The layout is part of the contract (both wasm variants must train alike), and a sum in index
// order fails this. x = [2^24, then 16 ones]: in index order each 1 is lost against 2^24
// (2^24 + 1 rounds to even, back to 2^24), so the sum is 2^24. In 16 lanes only the last one
// meets 2^24 in lane 0; the other 15 sit in lanes 1..15 and meet in the tree as 2s and 4s,
// which survive: t_0 = (2^24 + 1) + (1 + 1) = 2^24 + 2, t_1..t_3 = 4, and
// (t_0 + t_1) + (t_2 + t_3) = 2^24 + 14.
TEST(TrainReduce, SumsInSixteenLanes) {
  std::vector<float> x(17, 1.0f);
  x[0] = 16777216.0f;
  for (const bl::Kernels* k : kTables) {
    EXPECT_EQ(k->train_sum_f32(17, x.data()), 16777216.0f + 14.0f) << k->name;
    EXPECT_EQ(k->train_dot_f32(17, x.data(), std::vector<float>(17, 1.0f).data()),
              16777216.0f + 14.0f) << k->name;
  }
}

}  // namespace
