// Reference attention kernels: scores for one query against n keys, and the context vector.
#include <cmath>

#include "kernels/checks.h"
#include "kernels/kernels-impl.h"

void bl_f32_additive_score__scalar(size_t n, size_t dim, const float* keys, size_t ld,
                                   const float* q, const float* v, float* e) {
  assert(bl_check::scores(n, dim, ld, q, e));
  for (size_t j = 0; j < n; j++) {
    const float* k = keys + j * ld;
    float acc = 0.0f;
    for (size_t a = 0; a < dim; a++) acc += v[a] * std::tanh(k[a] + q[a]);
    e[j] = acc;
  }
}

void bl_f32_dot_score__scalar(size_t n, size_t dim, const float* keys, size_t ld, const float* q,
                              float scale, float* e) {
  assert(bl_check::scores(n, dim, ld, q, e));
  for (size_t j = 0; j < n; j++) {
    const float* k = keys + j * ld;
    float acc = 0.0f;
    for (size_t a = 0; a < dim; a++) acc += k[a] * q[a];
    e[j] = scale * acc;
  }
}

// j outer, d inner: walks h row by row (contiguous), and fixes the summation order per c[d]
// to j = 0, 1, ... which the SIMD version keeps, so the two agree closely.
void bl_f32_weighted_sum__scalar(size_t n, size_t dim, const float* alpha, const float* h,
                                 size_t ld, float* c) {
  assert(bl_check::weighted_sum(n, dim, ld, alpha, c));
  for (size_t d = 0; d < dim; d++) c[d] = 0.0f;
  for (size_t j = 0; j < n; j++) {
    const float a = alpha[j];
    const float* row = h + j * ld;
    for (size_t d = 0; d < dim; d++) c[d] += a * row[d];
  }
}
