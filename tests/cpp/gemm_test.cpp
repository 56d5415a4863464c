// The batched kernels (gemm_f32, gemm_i8) against the same table's gemv, bit for bit: every
// output element must equal what gemv computes for that row and vector, which is what makes
// batched decoding give exactly the one-at-a-time numbers (kernels.h). Shapes cover every
// rows % 4, cols % 4 and % 16 tail, batch sizes 1, 2, 3, 5 and 33 (full and partial tiles of
// 4), strides wider than the data, null bias, and signed zeros.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "kernels/kernels.h"

namespace {

using bl::Kernels;

std::vector<const Kernels*> all_tables() {
  std::vector<const Kernels*> t = {&bl::scalar_kernels()};
  if (bl::have_simd_kernels()) t.push_back(&bl::simd_kernels());
  return t;
}

struct Shape {
  size_t rows, cols, B;
  bool bias;
};

std::vector<Shape> shapes() {
  std::vector<Shape> v;
  const size_t rows[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 17};
  const size_t batches[] = {1, 2, 3, 5, 33};
  for (size_t r : rows)
    for (size_t c = 1; c <= 35; c++)
      for (size_t b : batches) v.push_back({r, c, b, (r + c + b) % 3 != 0});
  for (size_t c : {47u, 48u, 49u, 63u, 64u, 65u, 67u})  // int8's 16-wide groups and tails
    for (size_t b : batches) v.push_back({9, c, b, true});
  v.push_back({130, 640, 33, true});  // decoder-sized
  v.push_back({9, 2100, 5, true});    // int8: over 2048 columns, i64 row sums
  v.push_back({9, 8200, 5, true});    // int8: over 8192 columns, i32 lanes flushed in chunks
  v.push_back({1003, 128, 8, false});
  return v;
}

struct Data {
  std::vector<float> Wf, scale, X, bias;
  std::vector<int8_t> Wq;
  std::vector<int32_t> wsum;  // Matrix::row_sum of Wq
  size_t ld, ldx, ldy;
};

// Random data with strides wider than the data (ld = cols + 3, ldx = cols + 1, ldy = rows + 2),
// so a kernel that ignores a stride or writes between rows is caught. zeros: X holds only
// signed zeros (and W some), where a changed order of adds would show in the sign of zero.
Data make(const Shape& s, std::mt19937& rng, bool zeros = false) {
  Data d;
  d.ld = s.cols + 3;
  d.ldx = s.cols + 1;
  d.ldy = s.rows + 2;
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::uniform_int_distribution<int> q(-127, 127);
  d.Wf.resize(s.rows * d.ld);
  d.Wq.resize(s.rows * d.ld);
  for (size_t i = 0; i < d.Wf.size(); i++) {
    d.Wf[i] = zeros && i % 2 ? 0.0f : u(rng);
    d.Wq[i] = static_cast<int8_t>(zeros && i % 2 ? 0 : q(rng));
  }
  d.scale.resize(s.rows);
  d.bias.resize(s.rows);
  for (size_t r = 0; r < s.rows; r++) {
    d.scale[r] = 0.01f * (1.0f + u(rng));
    d.bias[r] = zeros ? -0.0f : u(rng);
  }
  d.wsum.assign(s.rows, 0);
  for (size_t r = 0; r < s.rows; r++)
    for (size_t k = 0; k < s.cols; k++) d.wsum[r] += d.Wq[r * d.ld + k];
  d.X.resize(s.B * d.ldx);
  for (size_t i = 0; i < d.X.size(); i++) d.X[i] = zeros ? (i % 3 ? -0.0f : 0.0f) : u(rng);
  return d;
}

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Runs one table's gemm (int8 or f32) on d and compares every element with its gemv; the
// padding between rows of Y (ldy > rows) must stay untouched.
void check(const Kernels& k, const Shape& s, const Data& d, bool int8) {
  SCOPED_TRACE(::testing::Message() << k.name << (int8 ? " i8 " : " f32 ") << s.rows << "x"
                                    << s.cols << " B=" << s.B << " bias=" << s.bias);
  const float* bias = s.bias ? d.bias.data() : nullptr;
  const float kPad = 12345.0f;
  std::vector<float> Y(s.B * d.ldy, kPad), y(s.rows);
  if (int8)
    k.gemm_i8(s.rows, s.cols, d.Wq.data(), d.ld, d.scale.data(), d.wsum.data(), s.B, d.X.data(), d.ldx, bias,
              Y.data(), d.ldy);
  else
    k.gemm_f32(s.rows, s.cols, d.Wf.data(), d.ld, s.B, d.X.data(), d.ldx, bias, Y.data(), d.ldy);
  for (size_t b = 0; b < s.B; b++) {
    const float* x = d.X.data() + b * d.ldx;
    if (int8)
      k.gemv_i8(s.rows, s.cols, d.Wq.data(), d.ld, d.scale.data(), d.wsum.data(), x, bias,
                y.data());
    else
      k.gemv_f32(s.rows, s.cols, d.Wf.data(), d.ld, x, bias, y.data());
    for (size_t r = 0; r < s.rows; r++)
      ASSERT_TRUE(same_bits(Y[b * d.ldy + r], y[r]))
          << "b=" << b << " r=" << r << ": gemm " << Y[b * d.ldy + r] << ", gemv " << y[r];
    for (size_t r = s.rows; r < d.ldy; r++) ASSERT_EQ(Y[b * d.ldy + r], kPad) << "padding";
  }
}

TEST(Gemm, Registered) {
  for (const Kernels* k : all_tables()) EXPECT_TRUE(k->gemm_f32 && k->gemm_i8) << k->name;
  if (bl::have_simd_kernels()) {
    EXPECT_NE(bl::simd_kernels().gemm_f32, bl::scalar_kernels().gemm_f32);
    EXPECT_NE(bl::simd_kernels().gemm_i8, bl::scalar_kernels().gemm_i8);
  }
}

TEST(Gemm, F32EqualsGemvBitForBit) {
  std::mt19937 rng(11);
  for (const Kernels* k : all_tables())
    for (const Shape& s : shapes()) {
      check(*k, s, make(s, rng), false);
      if (HasFatalFailure()) return;
    }
}

TEST(Gemm, I8EqualsGemvBitForBit) {
  std::mt19937 rng(12);
  for (const Kernels* k : all_tables())
    for (const Shape& s : shapes()) {
      check(*k, s, make(s, rng), true);
      if (HasFatalFailure()) return;
    }
}

TEST(Gemm, SignedZerosEqualGemv) {
  std::mt19937 rng(13);
  for (const Kernels* k : all_tables())
    for (bool int8 : {false, true})
      for (size_t cols : {1u, 3u, 4u, 5u, 16u, 17u, 31u})
        for (size_t B : {2u, 5u}) {
          const Shape s{6, cols, B, cols % 2 == 1};
          check(*k, s, make(s, rng, true), int8);
          if (HasFatalFailure()) return;
        }
}

// The scalar and SIMD tables agree with each other: to rounding for f32 (as their gemvs do),
// bit for bit for int8 (exact integer sums, the same final f32 operations): a check that the
// SIMD gemm is not merely consistent with a wrong gemv.
TEST(Gemm, SimdCloseToScalar) {
  if (!bl::have_simd_kernels()) GTEST_SKIP() << "built without BL_SIMD";
  std::mt19937 rng(14);
  const Shape s{37, 133, 7, true};
  const Data d = make(s, rng);
  for (bool int8 : {false, true}) {
    std::vector<float> Y0(s.B * d.ldy), Y1(s.B * d.ldy);
    for (int t = 0; t < 2; t++) {
      const Kernels& k = t ? bl::simd_kernels() : bl::scalar_kernels();
      float* Y = t ? Y1.data() : Y0.data();
      if (int8)
        k.gemm_i8(s.rows, s.cols, d.Wq.data(), d.ld, d.scale.data(), d.wsum.data(), s.B, d.X.data(), d.ldx,
                  d.bias.data(), Y, d.ldy);
      else
        k.gemm_f32(s.rows, s.cols, d.Wf.data(), d.ld, s.B, d.X.data(), d.ldx, d.bias.data(), Y,
                   d.ldy);
    }
    for (size_t b = 0; b < s.B; b++)
      for (size_t r = 0; r < s.rows; r++)
        if (int8)
          EXPECT_TRUE(same_bits(Y1[b * d.ldy + r], Y0[b * d.ldy + r])) << "b=" << b << " r=" << r;
        else
          EXPECT_NEAR(Y1[b * d.ldy + r], Y0[b * d.ldy + r], 1e-4) << "b=" << b << " r=" << r;
  }
}

}  // namespace
