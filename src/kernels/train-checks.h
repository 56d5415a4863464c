// The training kernels' preconditions (kernels.h, train_gemm_f32) as debug asserts, as checks.h
// states the inference kernels': both twins assert the same function.
#pragma once
#include <cstddef>
#include <cstdint>
#include <utility>

namespace bl_check {

// train_gemm: C (M rows of N at ldc >= N) shares no byte with A or B.
inline bool train_gemm(size_t M, size_t N, size_t K, const float* A, size_t a_row, size_t a_col,
                       const float* B, size_t ldb, const float* C, size_t ldc) {
  if (M == 0 || N == 0) return true;
  if (ldc < N || (K > 1 && ldb < N)) return false;
  const auto span = [](const float* p, size_t n) {
    return std::pair<uintptr_t, uintptr_t>(uintptr_t(p), uintptr_t(p + n));
  };
  const auto apart = [](std::pair<uintptr_t, uintptr_t> a, std::pair<uintptr_t, uintptr_t> b) {
    return a.second <= b.first || b.second <= a.first;
  };
  const auto c = span(C, (M - 1) * ldc + N);
  if (K == 0) return true;
  return apart(c, span(A, (M - 1) * a_row + (K - 1) * a_col + 1)) &&
         apart(c, span(B, (K - 1) * ldb + N));
}

}  // namespace bl_check
