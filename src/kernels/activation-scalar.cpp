// Reference activations: libm, so the accuracy tests have something exact to aim at.
#include <cmath>

#include "kernels/checks.h"
#include "kernels/kernels-impl.h"

// 1/(1+exp(-x)) is safe in f32 at both ends: exp(-x) overflows to inf for x < -88, giving 0,
// and underflows to 0 for large x, giving 1.
void bl_f32_sigmoid__scalar(size_t n, const float* x, float* y) {
  assert(bl_check::same_or_apart(n, x, y));
  for (size_t i = 0; i < n; i++) y[i] = 1.0f / (1.0f + std::exp(-x[i]));
}

void bl_f32_tanh__scalar(size_t n, const float* x, float* y) {
  assert(bl_check::same_or_apart(n, x, y));
  for (size_t i = 0; i < n; i++) y[i] = std::tanh(x[i]);
}

// NaN gives 0, as the SIMD twin's pmax(0, x) does.
void bl_f32_relu__scalar(size_t n, const float* x, float* y) {
  assert(bl_check::same_or_apart(n, x, y));
  for (size_t i = 0; i < n; i++) y[i] = x[i] > 0.0f ? x[i] : 0.0f;
}
