// The 4-bit weight products (kernels.h: gemv_q4, gemm_q4; gemv-qs4-scalar.cpp): both tables bit
// for bit against a reference written here from the unpacked codes (so the packing is checked
// too), within the activation-quantization bound of the f32 product, gemm equal to gemv for
// every vector, the extremes without overflow, and the embedding rows' dequantization.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "core/matrix_ops.h"
#include "kernel_tables.h"
#include "kernels/kernels-impl.h"
#include "kernels/kernels.h"

namespace {

using bl::Kernels;

using kernel_tests::all_tables;
using kernel_tests::same_bits;

// A rows x cols matrix of codes in -8..7, packed with ld bytes a row (>= cols / 2), and a
// scale per group.
struct Q4 {
  size_t rows, cols, ld;
  std::vector<int> codes;  // [rows][cols]
  std::vector<uint8_t> packed;
  std::vector<float> scale;  // [rows][cols / 16]
};

// Byte i of a group: code i in the low nibble, code i + 8 in the high one, each plus 8.
Q4 make(size_t rows, size_t cols, size_t ld, std::mt19937& rng, int fill = 99) {
  Q4 m{rows, cols, ld, {}, std::vector<uint8_t>(rows * ld + 1, 0xA5), {}};
  std::uniform_int_distribution<int> q(-8, 7);
  std::uniform_real_distribution<float> s(1e-3f, 3e-2f);
  m.codes.resize(rows * cols);
  for (int& c : m.codes) c = fill == 99 ? q(rng) : fill;
  for (size_t r = 0; r < rows; r++)
    for (size_t g = 0; g < cols / 16; g++)
      for (size_t i = 0; i < 8; i++)
        m.packed[r * ld + 8 * g + i] = uint8_t((m.codes[r * cols + 16 * g + i] + 8) |
                                               (m.codes[r * cols + 16 * g + i + 8] + 8) << 4);
  m.scale.resize(rows * cols / 16);
  for (float& v : m.scale) v = s(rng);
  return m;
}

std::vector<float> randf(std::mt19937& rng, size_t n, float lo, float hi) {
  std::uniform_real_distribution<float> u(lo, hi);
  std::vector<float> v(n);
  for (float& f : v) f = u(rng);
  return v;
}

// kernels.h's definition, from the codes: per group an exact integer, groups added in f32 in
// order, times xs, plus the bias.
float reference(const Q4& m, size_t r, const std::vector<int16_t>& xq, float xs,
                const float* bias) {
  float acc = 0.0f;
  for (size_t g = 0; g < m.cols / 16; g++) {
    int64_t d = 0;
    for (size_t i = 0; i < 16; i++) d += int64_t(m.codes[r * m.cols + 16 * g + i]) * xq[16 * g + i];
    acc += m.scale[r * (m.cols / 16) + g] * float(d);
  }
  const float v = acc * xs;
  return bias ? v + bias[r] : v;
}

void check(size_t rows, size_t cols, size_t ld, bool with_bias, std::mt19937& rng, int fill = 99,
           float xfill = 0.0f) {
  SCOPED_TRACE(::testing::Message() << rows << "x" << cols << " ld " << ld);
  const Q4 m = make(rows, cols, ld, rng, fill);
  std::vector<float> x = randf(rng, cols, -1.0f, 1.0f), b = randf(rng, rows, -1.0f, 1.0f);
  if (xfill != 0.0f) std::fill(x.begin(), x.end(), xfill);
  const float* bias = with_bias ? b.data() : nullptr;
  std::vector<int16_t> xq(cols);
  const float xs = bl_qd14_quantize__scalar(cols, x.data(), xq.data());
  float amax = 0.0f;
  for (float v : x) amax = std::max(amax, std::fabs(v));
  std::vector<float> want(rows);
  for (size_t r = 0; r < rows; r++) {
    want[r] = reference(m, r, xq, xs, bias);
    // Against f32 activations: each activation is off by at most xs / 2.
    double exact = bias ? bias[r] : 0.0, bound = 0.0;
    for (size_t k = 0; k < cols; k++) {
      const double w = double(m.codes[r * cols + k]) * m.scale[r * (cols / 16) + k / 16];
      exact += w * x[k];
      bound += std::fabs(w);
    }
    bound = bound * amax / 16382.0 * 1.001 + 1e-6 * (std::fabs(exact) + 1.0) * double(cols / 16);
    ASSERT_LE(std::fabs(want[r] - exact), bound) << "reference vs f32, row " << r;
  }
  for (const Kernels* k : all_tables()) {
    std::vector<float> y(rows + 1, 12345.0f);
    k->gemv_q4(rows, cols, m.packed.data(), ld, m.scale.data(), x.data(), bias, y.data());
    for (size_t r = 0; r < rows; r++)
      ASSERT_TRUE(same_bits(y[r], want[r]))
          << k->name << " row " << r << ": " << y[r] << " vs " << want[r];
    ASSERT_EQ(y[rows], 12345.0f) << k->name << " wrote past y";
  }
}

TEST(Qs4, GemvBothTablesEqualReference) {
  std::mt19937 rng(41);
  for (size_t cols : {16, 32, 48, 64, 128, 144, 256, 512, 896, 1024, 2048, 4096})
    for (size_t rows : {1, 2, 3, 4, 5, 7, 8, 9, 13}) {
      check(rows, cols, cols / 2 + (rows + cols) % 5, (rows + cols) % 3 != 0, rng);
      if (HasFatalFailure()) return;
    }
  check(6000, 128, 64, true, rng);  // an output layer's shape
}

// Every code at -8 (the largest magnitude) and x constant, so every xq is 8191: the group sums
// at their extreme, 16 * 8 * 8191, still exact in an i32 and in f32's mantissa.
TEST(Qs4, GemvExtremesAreExact) {
  std::mt19937 rng(42);
  for (size_t cols : {16, 512, 8192})
    for (size_t rows : {4, 5}) {
      check(rows, cols, cols / 2, false, rng, -8, 0.75f);
      if (HasFatalFailure()) return;
      check(rows, cols, cols / 2, true, rng, 7, -2.0f);
      if (HasFatalFailure()) return;
    }
}

TEST(Qs4, GemvZeroVectorGivesTheBias) {
  std::mt19937 rng(43);
  const Q4 m = make(5, 32, 16, rng);
  std::vector<float> x(32, 0.0f), bias = {1, -2, 3, -4, 5}, y(5);
  for (const Kernels* k : all_tables()) {
    k->gemv_q4(5, 32, m.packed.data(), 16, m.scale.data(), x.data(), bias.data(), y.data());
    EXPECT_EQ(y, bias) << k->name;
  }
}

// gemm_q4: every (row, vector) bit-identical to gemv_q4 on that vector, strides and tails
// included, on both tables.
TEST(Qs4, GemmEqualsGemvPerVector) {
  std::mt19937 rng(44);
  for (size_t B : {1, 2, 3, 5, 8})
    for (size_t rows : {1, 4, 6, 9})
      for (size_t cols : {16, 48, 128}) {
        const size_t ld = cols / 2 + 3, ldx = cols + 5, ldy = rows + 2;
        const Q4 m = make(rows, cols, ld, rng);
        const std::vector<float> X = randf(rng, B * ldx, -2.0f, 2.0f), b = randf(rng, rows, -1, 1);
        for (const Kernels* k : all_tables()) {
          std::vector<float> Y(B * ldy, 777.0f), y(rows);
          k->gemm_q4(rows, cols, m.packed.data(), ld, m.scale.data(), B, X.data(), ldx, b.data(),
                     Y.data(), ldy);
          for (size_t v = 0; v < B; v++) {
            k->gemv_q4(rows, cols, m.packed.data(), ld, m.scale.data(), X.data() + v * ldx,
                       b.data(), y.data());
            for (size_t r = 0; r < rows; r++)
              ASSERT_TRUE(same_bits(Y[v * ldy + r], y[r]))
                  << k->name << " B " << B << " vector " << v << " row " << r << " " << rows << "x"
                  << cols;
            for (size_t r = rows; r < ldy && v * ldy + r < Y.size(); r++)
              ASSERT_EQ(Y[v * ldy + r], 777.0f) << k->name << " wrote into the stride";
          }
        }
      }
}

// An embedding row: code * scale in f32, per element, in the file's packing.
TEST(Qs4, EmbeddingRowIsCodeTimesScale) {
  std::mt19937 rng(45);
  const Q4 m = make(3, 48, 24, rng);
  std::vector<float> out(48);
  for (size_t r = 0; r < 3; r++) {
    bl::dequantize_q4_row(m.packed.data() + r * 24, m.scale.data() + r * 3, 48, out.data());
    for (size_t k = 0; k < 48; k++)
      ASSERT_TRUE(same_bits(out[k], float(m.codes[r * 48 + k]) * m.scale[r * 3 + k / 16]))
          << r << " " << k;
  }
}

}  // namespace
