// The preconditions kernels.h states in words, as debug asserts: each kernel starts with
// assert(bl_check::<family>(...)), active where NDEBUG is not defined (a Debug build, and
// scripts/build --asan) and compiled out of the Release builds and the wasm engines. A family's
// twins (scalar, wasm SIMD) assert the same function, so what they require cannot drift apart.
//
// Asserted: the shapes (ld, n >= 1), the aliasing rules, and top_k's NaN-free input (log_softmax
// maps NaN to -inf before the search reads it). Not asserted: "x finite" (int8 gemv) and "a
// finite entry" (softmax). Those say when the numbers mean something, not what keeps memory
// safe, and a loadable model breaks them: finite but huge weights overflow to inf and NaN
// (search_test.cpp, HugeFiniteWeightsStillDecodeCleanly), the kernels then compute NaN within
// their bounds, and the search still ends cleanly.
#pragma once
#include <cassert>
#include <cmath>
#include <cstddef>
#include <cstdint>

namespace bl_check {

// [a, a + na) and [b, b + nb) share no byte. (Compared as integers: < on pointers into
// different arrays is unspecified.)
template <class A, class B>
bool apart(const A* a, size_t na, const B* b, size_t nb) {
  const uintptr_t pa = uintptr_t(a), pb = uintptr_t(b);
  return pa + na * sizeof(A) <= pb || pb + nb * sizeof(B) <= pa;
}

// "y may equal x": the same array, or apart.
inline bool same_or_apart(size_t n, const float* x, const float* y) {
  return x == y || apart(x, n, y, n);
}

inline bool no_nan(size_t n, const float* x) {
  for (size_t k = 0; k < n; k++)
    if (std::isnan(x[k])) return false;
  return true;
}

// gemv: row-major W with ld >= cols; y (rows) apart from x (cols) and from bias.
inline bool gemv(size_t rows, size_t cols, size_t ld, const float* x, const float* bias,
                 const float* y) {
  return ld >= cols && apart(x, cols, y, rows) && (!bias || apart(bias, rows, y, rows));
}

// gemm: B vectors of cols at X + b*ldx, results of rows at Y + b*ldy, the arrays apart.
inline bool gemm(size_t rows, size_t cols, size_t ld, size_t B, const float* X, size_t ldx,
                 const float* bias, const float* Y, size_t ldy) {
  if (B == 0) return ld >= cols;
  const size_t nx = (B - 1) * ldx + cols, ny = (B - 1) * ldy + rows;
  return ld >= cols && (B == 1 || (ldx >= cols && ldy >= rows)) && apart(X, nx, Y, ny) &&
         (!bias || apart(bias, rows, Y, ny));
}

// 4-bit products (gemv_q4, gemm_q4): whole groups of 16 columns, ld counts bytes (2 weights
// each), otherwise as gemv and gemm.
inline bool gemv_q4(size_t rows, size_t cols, size_t ld, const float* x, const float* bias,
                    const float* y) {
  return cols % 16 == 0 && gemv(rows, cols, 2 * ld, x, bias, y);
}
inline bool gemm_q4(size_t rows, size_t cols, size_t ld, size_t B, const float* X, size_t ldx,
                    const float* bias, const float* Y, size_t ldy) {
  return cols % 16 == 0 && gemm(rows, cols, 2 * ld, B, X, ldx, bias, Y, ldy);
}

// Attention scores: n keys of dim at keys + j*ld; e (n) apart from the query.
inline bool scores(size_t n, size_t dim, size_t ld, const float* q, const float* e) {
  return ld >= dim && apart(q, dim, e, n);
}

// The context: c (dim) apart from alpha (n).
inline bool weighted_sum(size_t n, size_t dim, size_t ld, const float* alpha, const float* c) {
  return ld >= dim && apart(alpha, n, c, dim);
}

// softmax, log_softmax, layer_norm: n >= 1 (they read x[0] first); y may equal x.
inline bool row(size_t n, const float* x, const float* y) {
  return n >= 1 && same_or_apart(n, x, y);
}

// top_k: x without NaN (its strict ordering has no place for one).
inline bool top_k(size_t n, const float* x) { return no_nan(n, x); }

}  // namespace bl_check
