// The lane layout that both twins of the training reductions share (train-reduce-*.cpp): 16
// running values, element i in lane i % 16, and one fixed tree to combine them. The scalar twin
// runs the element loops below from 0; the SIMD one runs whole blocks of 16 in four f32x4
// accumulators (lanes 0-3, 4-7, 8-11, 12-15), stores them, and hands the tail to the same loops.
#pragma once
#include <cstddef>
#include <limits>

namespace bl_train_reduce {

inline constexpr float kMinusInf = -std::numeric_limits<float>::infinity();

// wasm's f32x4.pmax, one lane: a < b ? b : a (a NaN b is never taken).
inline float pmax(float a, float b) { return a < b ? b : a; }

inline void dot_tail(size_t i, size_t n, const float* a, const float* b, float* acc) {
  for (; i < n; i++) acc[i % 16] += a[i] * b[i];  // rounded product, then the add: no FMA
}

inline void sum_tail(size_t i, size_t n, const float* x, float* acc) {
  for (; i < n; i++) acc[i % 16] += x[i];
}

inline void max_tail(size_t i, size_t n, const float* x, float* acc) {
  for (; i < n; i++) acc[i % 16] = pmax(acc[i % 16], x[i]);
}

// ((v0 + v1) + (v2 + v3)) lane by lane, then ((l0 + l1) + (l2 + l3)).
inline float combine16(const float* acc) {
  float t[4];
  for (int l = 0; l < 4; l++) t[l] = (acc[l] + acc[4 + l]) + (acc[8 + l] + acc[12 + l]);
  return (t[0] + t[1]) + (t[2] + t[3]);
}

inline float max16(const float* acc) {
  float t[4];
  for (int l = 0; l < 4; l++) t[l] = pmax(pmax(acc[l], acc[4 + l]), pmax(acc[8 + l], acc[12 + l]));
  return pmax(pmax(t[0], t[1]), pmax(t[2], t[3]));
}

}  // namespace bl_train_reduce
