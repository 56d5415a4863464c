// The training pass's matrix product, scalar reference (kernels.h, train_gemm_f32):
//   C[m*ldc + j] += A(m, k) * B[k*ldb + j]   for k = 0, 1, .. K-1 in order, A(m, k) = A[m*a_row + k*a_col]
// Each C element takes one product at a time, rounded, then added, k ascending. The SIMD twin
// does exactly these operations per element (its lanes run over j, never over k), so the two
// tables give the same bits, and so do the wasm variants' training losses
// (tests/node/trainer.test.mjs).
//
// The loop nest: per row of C, blocks of 8 columns held in locals (registers) across the whole
// k loop, so each product costs one load of B and no store; then the columns left over one by
// one. The order of each element's operations is the one above either way.
#include "kernels/train-checks.h"
#include "kernels/train-kernels-impl.h"

#include <cassert>
#include <cmath>
#include <cstdint>
#include <cstring>

void bl_f32_train_gemm__scalar(size_t M, size_t N, size_t K, const float* A, size_t a_row,
                               size_t a_col, const float* B, size_t ldb, float* C, size_t ldc) {
  assert(bl_check::train_gemm(M, N, K, A, a_row, a_col, B, ldb, C, ldc));
  constexpr size_t kCols = 8;
  for (size_t m = 0; m < M; m++) {
    const float* a = A + m * a_row;
    float* c = C + m * ldc;
    size_t j = 0;
    for (; j + kCols <= N; j += kCols) {
      float acc[kCols];
      for (size_t q = 0; q < kCols; q++) acc[q] = c[j + q];
      for (size_t k = 0; k < K; k++) {
        const float ak = a[k * a_col];
        const float* b = B + k * ldb + j;
        for (size_t q = 0; q < kCols; q++) acc[q] += ak * b[q];
      }
      for (size_t q = 0; q < kCols; q++) c[j + q] = acc[q];
    }
    for (; j < N; j++) {
      float acc = c[j];
      for (size_t k = 0; k < K; k++) acc += a[k * a_col] * B[k * ldb + j];
      c[j] = acc;
    }
  }
}

// fma(a, b, c) in float, rounded once, exactly: a b is exact in double (24 + 24 bits), the
// sum's rounding error is recovered exactly (TwoSum), and rounding the double sum to odd before
// the conversion makes that second rounding give the correctly rounded float. Not std::fma:
// Emscripten's musl fmaf rounds the wrong way in about half the cases that fall exactly halfway
// in double, since its fesetround is a stub (the check in train-gemm-wasmrelaxed.cpp has one).
float bl_fma_f32(float a, float b, float c) {
  const double p = double(a) * double(b);
  const double s = p + double(c);
  const double bb = s - p;
  const double e = (p - (s - bb)) + (double(c) - bb);
  if (e == 0 || !std::isfinite(s)) return float(s);
  uint64_t u;
  std::memcpy(&u, &s, sizeof u);
  // An even last bit moves one unit towards the exact value, whose side e gives.
  if ((u & 1) == 0) u = ((e > 0) == (s > 0)) ? u + 1 : u - 1;
  double odd;
  std::memcpy(&odd, &u, sizeof odd);
  return float(odd);
}

// The same product with each multiply-add fused, rounded once: c = fma(A(m, k), B[k*ldb + j], c),
// k ascending. The scalar twin of the relaxed SIMD kernel (train-gemm-wasmrelaxed.cpp), which is
// installed only where it gives these bits, and what that kernel does for the columns left
// over past a multiple of 4.
void bl_f32_train_gemm_fused__scalar(size_t M, size_t N, size_t K, const float* A, size_t a_row,
                                     size_t a_col, const float* B, size_t ldb, float* C,
                                     size_t ldc) {
  assert(bl_check::train_gemm(M, N, K, A, a_row, a_col, B, ldb, C, ldc));
  for (size_t m = 0; m < M; m++)
    for (size_t j = 0; j < N; j++) {
      float c = C[m * ldc + j];
      for (size_t k = 0; k < K; k++) c = bl_fma_f32(A[m * a_row + k * a_col], B[k * ldb + j], c);
      C[m * ldc + j] = c;
    }
}
