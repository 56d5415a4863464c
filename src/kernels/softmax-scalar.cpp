// Reference softmax / log_softmax over one vector (attention weights, output distribution).
//
// Both subtract the maximum first so that large logits (1e4) cannot overflow exp; -inf entries
// (masked positions) then give exp(-inf) = 0. At least one entry must be finite.
#include <cmath>

#include "kernels/checks.h"
#include "kernels/kernels-impl.h"

static float max_of(size_t n, const float* x) {
  float m = x[0];
  for (size_t i = 1; i < n; i++) m = x[i] > m ? x[i] : m;
  return m;
}

void bl_f32_softmax__scalar(size_t n, const float* x, float* y) {
  assert(bl_check::row(n, x, y));
  const float m = max_of(n, x);
  float sum = 0.0f;
  for (size_t i = 0; i < n; i++) {
    y[i] = std::exp(x[i] - m);
    sum += y[i];
  }
  const float inv = 1.0f / sum;
  for (size_t i = 0; i < n; i++) y[i] *= inv;
}

void bl_f32_log_softmax__scalar(size_t n, const float* x, float* y) {
  assert(bl_check::row(n, x, y));
  const float m = max_of(n, x);
  float sum = 0.0f;
  for (size_t i = 0; i < n; i++) sum += std::exp(x[i] - m);
  // One log for the whole vector; (x - m) - log(sum) keeps the top entry exact at -log(sum).
  const float lse = std::log(sum);
  for (size_t i = 0; i < n; i++) {
    const float v = (x[i] - m) - lse;
    y[i] = std::isnan(v) ? -INFINITY : v;  // kernels.h: a NaN ranks last
  }
}
