// The training kernel (kernels.h, train_gemm_f32): the scalar table and its fused twin (each
// multiply-add rounded once) against a double reference with the float-sum error bound, and the
// wasm SIMD twin against the scalar one bit for bit, on random shapes that take every tile and
// tail of train-gemm-wasmsimd.cpp (rows mod 4, columns mod 4, 8 and 16, more columns than one
// panel), strided A (the transposed reads the trainer makes), ld > N, unaligned starts and
// K = 0 and 1.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "kernels/kernels.h"
#include "kernels/train-kernels-impl.h"

namespace {

struct Shape {
  size_t M, N, K;
  bool transposed_a;  // A read as A[k*M + m] (a_row 1, a_col M), as dW += dy^T x reads it
  size_t pad, off;    // ldb = N + pad, ldc = N + pad; buffers start off floats in
};

std::vector<Shape> shapes() {
  std::vector<Shape> v;
  size_t i = 0;
  for (size_t M : {1, 2, 3, 4, 5, 7, 8, 9, 13})
    for (size_t N = 1; N <= 37; N++)
      for (size_t K : {0, 1, 2, 3, 7, 16}) {
        v.push_back({M, N, K, i % 2 == 1, i % 3, i % 4});
        i++;
      }
  // Past one column panel (256), the trainer's shapes (output layer, GRU), and a long K.
  v.push_back({5, 300, 9, false, 1, 1});
  v.push_back({4, 515, 3, true, 2, 3});
  v.push_back({1, 384, 128, false, 0, 0});
  v.push_back({130, 64, 70, true, 0, 2});
  v.push_back({6, 3000, 64, false, 0, 1});
  return v;
}

struct Case {
  std::vector<float> A, B, C0;
  size_t a_row, a_col, ldb, ldc, off;
};

Case make(const Shape& s, std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  Case c;
  c.off = s.off;
  c.ldb = c.ldc = s.N + s.pad;
  c.a_row = s.transposed_a ? 1 : s.K + s.pad;
  c.a_col = s.transposed_a ? s.M + s.pad : 1;
  const size_t na = s.transposed_a ? std::max<size_t>(s.K, 1) * c.a_col : s.M * c.a_row + 1;
  c.A.resize(s.off + na + 1), c.B.resize(s.off + std::max<size_t>(s.K, 1) * c.ldb + 1);
  c.C0.resize(s.off + s.M * c.ldc + 1);
  for (auto* b : {&c.A, &c.B, &c.C0})
    for (float& x : *b) x = u(rng);
  return c;
}

std::vector<float> run(const bl::Kernels& k, const Shape& s, const Case& c) {
  std::vector<float> C = c.C0;
  k.train_gemm_f32(s.M, s.N, s.K, c.A.data() + c.off, c.a_row, c.a_col, c.B.data() + c.off,
                   c.ldb, C.data() + c.off, c.ldc);
  return C;
}

// The scalar twin and the fused one (the relaxed SIMD kernel's twin) both.
TEST(TrainKernels, ScalarMatchesDouble) {
  std::mt19937 rng(25);
  for (const bl::Kernels* table : {&bl::scalar_kernels(), &bl::fused_scalar_train_kernels()})
  for (const Shape& s : shapes()) {
    const Case c = make(s, rng);
    const std::vector<float> C = run(*table, s, c);
    for (size_t m = 0; m < s.M; m++)
      for (size_t j = 0; j < s.N; j++) {
        const size_t at = c.off + m * c.ldc + j;
        double want = c.C0[at], mag = std::fabs(want);
        for (size_t k = 0; k < s.K; k++) {
          const double t = double(c.A[c.off + m * c.a_row + k * c.a_col]) * c.B[c.off + k * c.ldb + j];
          want += t, mag += std::fabs(t);
        }
        ASSERT_NEAR(C[at], want, (s.K + 2) * FLT_EPSILON * mag)
            << table->name << " " << s.M << "x" << s.N << "x" << s.K << " at " << m << "," << j;
      }
    // Nothing outside the M x N block moves (the padding between rows, the spare ends).
    for (size_t at = 0; at < C.size(); at++) {
      const bool inside = at >= c.off && (at - c.off) / c.ldc < s.M && (at - c.off) % c.ldc < s.N;
      if (!inside) {
        ASSERT_EQ(C[at], c.C0[at]) << s.M << "x" << s.N << "x" << s.K << " at " << at;
      }
    }
  }
}

TEST(TrainKernels, SimdMatchesScalarBitForBit) {
  if (!bl::have_simd_kernels()) GTEST_SKIP() << "built without BL_SIMD";
  std::mt19937 rng(26);
  for (const Shape& s : shapes()) {
    const Case c = make(s, rng);
    const std::vector<float> a = run(bl::scalar_kernels(), s, c), b = run(bl::simd_kernels(), s, c);
    ASSERT_EQ(0, std::memcmp(a.data(), b.data(), a.size() * sizeof(float)))
        << s.M << "x" << s.N << "x" << s.K << " transposed_a=" << s.transposed_a
        << " pad=" << s.pad << " off=" << s.off;
  }
}

// The degenerate strides the trainer passes (train_model.cpp): A read as one value for every
// (m, k) (a_row = a_col = 0: a sum of B's rows), and K = 1 with ldb = 0 (an outer product).
TEST(TrainKernels, ZeroStrides) {
  std::mt19937 rng(29);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (size_t N : {1, 3, 4, 8, 17, 64, 256, 300})
    for (size_t M : {1, 4, 5}) {
      const size_t K = 9;
      std::vector<float> B(K * N), C0(M * N), one{1.0f}, col(M);
      for (float& x : B) x = u(rng);
      for (float& x : C0) x = u(rng);
      for (float& x : col) x = u(rng);
      for (const bl::Kernels* k : {&bl::scalar_kernels(), &bl::simd_kernels()}) {
        std::vector<float> C = C0;  // C[m][j] += sum_k 1 * B[k][j]
        k->train_gemm_f32(M, N, K, one.data(), 0, 0, B.data(), N, C.data(), N);
        for (size_t m = 0; m < M; m++)
          for (size_t j = 0; j < N; j++) {
            float want = C0[m * N + j];
            for (size_t kk = 0; kk < K; kk++) want += B[kk * N + j];
            ASSERT_EQ(C[m * N + j], want) << k->name << " " << M << "x" << N;
          }
        C = C0;  // K = 1, ldb = 0: C[m][j] += col[m] * B[0][j]
        k->train_gemm_f32(M, N, 1, col.data(), 1, 1, B.data(), 0, C.data(), N);
        for (size_t m = 0; m < M; m++)
          for (size_t j = 0; j < N; j++)
            ASSERT_EQ(C[m * N + j], C0[m * N + j] + col[m] * B[j]) << k->name << " " << M << "x" << N;
      }
    }
}

// The fused twin rounds each multiply-add once: with K = 1 and c, a b of like magnitude,
// c + a b is exact in double, so rounding it to float once is the fused result. The plain
// table rounds a b first and differs on most of these.
TEST(TrainKernels, FusedRoundsEachMultiplyAddOnce) {
  std::mt19937 rng(31);
  std::uniform_real_distribution<float> u(0.5f, 1.0f);
  constexpr size_t M = 5, N = 37;
  std::vector<float> A(M), B(N), C0(M * N);
  for (float& x : A) x = u(rng);
  for (float& x : B) x = u(rng);
  for (float& x : C0) x = -u(rng);
  std::vector<float> fused = C0, plain = C0;
  const bl::Kernels& f = bl::fused_scalar_train_kernels();
  f.train_gemm_f32(M, N, 1, A.data(), 1, 1, B.data(), N, fused.data(), N);
  bl::scalar_kernels().train_gemm_f32(M, N, 1, A.data(), 1, 1, B.data(), N, plain.data(), N);
  size_t differ = 0;
  for (size_t m = 0; m < M; m++)
    for (size_t j = 0; j < N; j++) {
      const float want = float(double(C0[m * N + j]) + double(A[m]) * double(B[j]));
      ASSERT_EQ(fused[m * N + j], want) << m << "," << j;
      differ += plain[m * N + j] != want;
    }
  EXPECT_GT(differ, 0u) << "no case where rounding twice differs: the test shows nothing";
}

// bl_fma_f32 (the fused twin's multiply-add) is correctly rounded: against the platform's
// std::fma (glibc's is) on random triples of every sign and a wide range of magnitudes, and on
// the halfway cases of the relaxed kernel's install check, where the double sum lands on the
// midpoint of two floats and Emscripten's fmaf rounds the wrong way.
TEST(TrainKernels, FmaIsCorrectlyRounded) {
  const float a = 1.0f + 0x1p-23f, b = 0x1p-24f * (1.0f - 0x1p-23f);  // a b = 2^-24 - 2^-70
  const float odd = 1.0f + 0x1p-23f, odd3 = 1.0f + 3 * 0x1p-23f;
  EXPECT_EQ(bl_fma_f32(a, b, odd), odd);  // the double sum: odd + 2^-24, a midpoint
  EXPECT_EQ(bl_fma_f32(a, -b, -odd), -odd);
  EXPECT_EQ(bl_fma_f32(a, -b, odd3), odd3);  // odd3 - 2^-24, a midpoint
  EXPECT_EQ(bl_fma_f32(a, b, -odd3), -odd3);
  std::mt19937 rng(41);
  std::uniform_real_distribution<float> mant(-2.0f, 2.0f);
  std::uniform_int_distribution<int> ex(-30, 30);
  size_t twice = 0;  // triples where mul then add is not the fma
  for (int i = 0; i < 200000; i++) {
    const float x = std::ldexp(mant(rng), ex(rng)), y = std::ldexp(mant(rng), ex(rng));
    // c near x y half the time, so that cancellation and near-ties come up
    const float c = i % 2 ? std::ldexp(mant(rng), ex(rng)) : -x * y * (1.0f + mant(rng) * 0x1p-20f);
    const float got = bl_fma_f32(x, y, c), want = std::fma(x, y, c);
    ASSERT_EQ(std::memcmp(&got, &want, sizeof got), 0) << x << " * " << y << " + " << c;
    const float p = x * y;
    twice += p + c != want;
  }
  EXPECT_GT(twice, 20000u) << "mul then add gives the fma almost always: the test shows little";
}

// Accumulation, not assignment: C's old value is where each sum starts.
TEST(TrainKernels, AddsToC) {
  for (const bl::Kernels* k : {&bl::scalar_kernels(), &bl::simd_kernels()}) {
    const float A[2] = {2, 3}, B[2 * 5] = {1, 1, 1, 1, 1, 10, 10, 10, 10, 10};
    float C[5] = {0.5f, 0.5f, 0.5f, 0.5f, 0.5f};
    k->train_gemm_f32(1, 5, 2, A, 0, 1, B, 5, C, 5);
    for (float c : C) EXPECT_EQ(c, 32.5f) << k->name;
  }
}

}  // namespace
