// Reference layer normalisation (Ba et al. 2016) over one row, as PyTorch's nn.LayerNorm:
// the biased variance, eps inside the square root.
#include <cmath>

#include "kernels/checks.h"
#include "kernels/kernels-impl.h"

void bl_f32_layer_norm__scalar(size_t n, const float* x, const float* g, const float* b,
                               float eps, float* y) {
  assert(bl_check::row(n, x, y));
  float sum = 0.0f;
  for (size_t i = 0; i < n; i++) sum += x[i];
  const float mean = sum / float(n);
  // Two passes (mean first, then the centred squares) rather than E[x^2] - mean^2, which
  // cancels catastrophically when the mean is large against the spread.
  float sq = 0.0f;
  for (size_t i = 0; i < n; i++) sq += (x[i] - mean) * (x[i] - mean);
  const float inv = 1.0f / std::sqrt(sq / float(n) + eps);
  for (size_t i = 0; i < n; i++) y[i] = (x[i] - mean) * inv * g[i] + b[i];
}
