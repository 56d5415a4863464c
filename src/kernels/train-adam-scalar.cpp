// Adam's update, scalar reference (kernels.h, train_adam_f32): the operations of
// torch.optim.Adam (1.13, no weight decay, no amsgrad) on one element, each rounded to f32 in
// the order written; the SIMD twin does the same per lane (sqrt and division are correctly
// rounded in both), so the two give the same bits.
#include <cmath>

#include "kernels/train-kernels-impl.h"

#include <cassert>

void bl_f32_train_adam__scalar(size_t n, float* w, float* m, float* v, const float* g,
                               const bl::AdamStep& s) {
  for (size_t k = 0; k < n; k++) {
    const float gk = s.gscale * g[k];               // clip_grad_norm_'s g *= coef
    m[k] = m[k] * s.b1 + s.a1 * gk;                 // m = b1 m + (1 - b1) g
    v[k] = v[k] * s.b2 + s.a2 * gk * gk;            // v = b2 v + (1 - b2) g^2
    const float denom = std::sqrt(v[k]) / s.bc2_root + s.eps;
    w[k] -= s.step * (m[k] / denom);                // w -= lr/bc1 * m / (sqrt(v/bc2) + eps)
  }
}
