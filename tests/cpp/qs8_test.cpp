// The int8-weight gemv on 14-bit activations (kernels.h, gemv-scalar.cpp): the quantizer, the
// scalar and SIMD kernels bit for bit against each other and against an exact integer reference
// written here, the error bound against f32 activations, and the overflow cases (rows whose
// products saturate an i32 lane or an i32 row sum).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "kernels/kernels-impl.h"
#include "kernels/kernels.h"
#include "kernel_tables.h"

namespace {

using bl::Kernels;

using kernel_tests::all_tables;
using kernel_tests::same_bits;

// Every cols % 16 tail, the shipped models' widest rows (896: the readout; 1024: a Transformer
// ffn), then the widths the overflow logic switches on: 2048 (largest with i32 row sums) and
// 8192 (largest single i32 chunk), and past them.
std::vector<size_t> widths() {
  std::vector<size_t> v;
  for (size_t c = 1; c <= 67; c++) v.push_back(c);
  for (size_t c : {127, 128, 511, 512, 513, 896, 1024, 2047, 2048, 2049, 2063, 4200, 8192, 8193})
    v.push_back(c);
  return v;
}

std::vector<float> randf(std::mt19937& rng, size_t n, float lo, float hi) {
  std::uniform_real_distribution<float> u(lo, hi);
  std::vector<float> v(n);
  for (float& f : v) f = u(rng);
  return v;
}

// The quantizer's definition, in double where the kernels use f32 only to compare against:
// xq[k] = round(x[k] / amax * 8191) up to the rounding of the f32 product.
TEST(Qs8, QuantizerScalarMatchesSimdAndDefinition) {
  std::mt19937 rng(21);
  for (size_t n : widths()) {
    for (int trial = 0; trial < 3; trial++) {
      std::vector<float> x = randf(rng, n, -3.0f, 3.0f);
      if (trial == 1) x[n / 2] = -40.0f;          // one large negative entry sets the scale
      if (trial == 2) std::fill(x.begin(), x.end(), 0.0f);
      const size_t padded = (n + 15) & ~size_t(15);
      std::vector<int16_t> q0(padded, 77), q1(padded, 77);
      const float s0 = bl_qd14_quantize__scalar(n, x.data(), q0.data());
      float amax = 0.0f;
      for (float v : x) amax = std::max(amax, std::fabs(v));
      ASSERT_EQ(s0, amax / 8191.0f) << n;
      for (size_t k = n; k < padded; k++) ASSERT_EQ(q0[k], 0) << "padding, n " << n;
      for (size_t k = 0; k < n; k++) {
        const double want = amax == 0.0f ? 0.0 : double(x[k]) * 8191.0 / amax;
        ASSERT_LE(std::fabs(q0[k] - want), 0.5 + 1e-2) << "n " << n << " k " << k;
        if (std::fabs(x[k]) == amax && amax > 0) {
          ASSERT_EQ(std::abs(q0[k]), 8191);
        }
      }
#if defined(BL_HAVE_SIMD)
      const float s1 = bl_qd14_quantize__wasmsimd(n, x.data(), q1.data());
      ASSERT_TRUE(same_bits(s0, s1)) << n;
      ASSERT_EQ(q0, q1) << "n " << n << " trial " << trial;
#endif
    }
  }
}

struct Case {
  size_t rows, cols, ld;
  bool bias;
};

// Both tables on one case: bit-identical to the exact reference, (scale[r] * xs) * float(dot)
// + bias with dot the int64 sum, and within the quantization bound of the f32-activation
// product: |y - y_f32| <= scale * sum |w| * amax / 16382, plus f32 rounding.
void check(const Case& c, std::mt19937& rng, int8_t fill = 0, float xfill = 0.0f) {
  SCOPED_TRACE(::testing::Message() << c.rows << "x" << c.cols << " ld " << c.ld);
  std::uniform_int_distribution<int> q(-128, 127);
  std::vector<int8_t> W(c.rows * c.ld + 1);
  for (int8_t& w : W) w = fill ? fill : static_cast<int8_t>(q(rng));
  std::vector<float> x = randf(rng, c.cols, -1.0f, 1.0f), scale = randf(rng, c.rows, 1e-3f, 2e-2f);
  std::vector<float> b = randf(rng, c.rows, -1.0f, 1.0f);
  if (xfill != 0.0f) std::fill(x.begin(), x.end(), xfill);
  const float* bias = c.bias ? b.data() : nullptr;

  std::vector<int16_t> xq((c.cols + 15) & ~size_t(15));
  const float xs = bl_qd14_quantize__scalar(c.cols, x.data(), xq.data());
  float amax = 0.0f;
  for (float v : x) amax = std::max(amax, std::fabs(v));
  std::vector<float> want(c.rows);
  std::vector<double> bound(c.rows);
  std::vector<int32_t> wsum(c.rows, 0);  // Matrix::row_sum
  for (size_t r = 0; r < c.rows; r++)
    for (size_t k = 0; k < c.cols; k++) wsum[r] += W[r * c.ld + k];
  for (size_t r = 0; r < c.rows; r++) {
    int64_t dot = 0;
    double exact = 0.0, abs_sum = 0.0;
    for (size_t k = 0; k < c.cols; k++) {
      dot += int64_t(W[r * c.ld + k]) * xq[k];
      exact += double(W[r * c.ld + k]) * x[k];
      abs_sum += std::fabs(double(W[r * c.ld + k]));
    }
    const float v = (scale[r] * xs) * float(dot);
    want[r] = bias ? v + bias[r] : v;
    const double f32 = (bias ? bias[r] : 0.0) + scale[r] * exact;
    bound[r] = scale[r] * abs_sum * amax / 16382.0 * 1.001 + 4e-7 * (std::fabs(f32) + 1.0);
    ASSERT_LE(std::fabs(want[r] - f32), bound[r]) << "reference vs f32, row " << r;
  }
  for (const Kernels* k : all_tables()) {
    std::vector<float> y(c.rows + 1, 12345.0f);
    k->gemv_i8(c.rows, c.cols, W.data(), c.ld, scale.data(), wsum.data(), x.data(), bias, y.data());
    for (size_t r = 0; r < c.rows; r++)
      ASSERT_TRUE(same_bits(y[r], want[r]))
          << k->name << " row " << r << ": got " << y[r] << ", want " << want[r];
    ASSERT_EQ(y[c.rows], 12345.0f) << k->name << " wrote past y";
  }
}

TEST(Qs8, GemvBothTablesEqualExactIntegerReference) {
  std::mt19937 rng(22);
  for (size_t cols : widths())
    for (size_t rows : {1, 2, 3, 4, 5, 7, 9, 13}) {
      check({rows, cols, cols + (rows + cols) % 3, (rows + cols) % 4 != 0}, rng);
      if (HasFatalFailure()) return;
    }
  check({8000, 128, 128, true}, rng);  // the output layer's shape
}

// |w * xq| at its maximum in every product: W all -128 (or 127) and x constant, so xq is
// 8191 everywhere and every lane's partial sum grows in one direction. The i32 lane bound (8192
// columns) and the i32 row-sum bound (2048) are crossed here; a wrapped sum would be off by 2^32.
TEST(Qs8, GemvExtremesDoNotOverflow) {
  std::mt19937 rng(23);
  for (size_t cols : {16, 512, 513, 896, 1024, 2048, 2049, 4096, 8192, 8200, 16400})
    for (size_t rows : {4, 5}) {
      check({rows, cols, cols, false}, rng, -128, 0.75f);
      if (HasFatalFailure()) return;
      check({rows, cols, cols, true}, rng, 127, 2.0f);
      if (HasFatalFailure()) return;
    }
}

// A zero vector: scale 0, every output exactly the bias (or 0).
TEST(Qs8, GemvZeroVector) {
  for (const Kernels* k : all_tables()) {
    for (size_t cols : {1, 16, 33}) {
      std::vector<int8_t> W(5 * cols, 3);
      std::vector<float> x(cols, 0.0f), scale(5, 0.5f), bias = {1, -2, 3, -4, 5}, y(5);
      const std::vector<int32_t> wsum(5, int32_t(3 * cols));
      k->gemv_i8(5, cols, W.data(), cols, scale.data(), wsum.data(), x.data(), bias.data(),
                 y.data());
      EXPECT_EQ(y, bias) << k->name;
      k->gemv_i8(5, cols, W.data(), cols, scale.data(), wsum.data(), x.data(), nullptr, y.data());
      for (float v : y) EXPECT_EQ(v, 0.0f) << k->name;
    }
  }
}

}  // namespace
