// Hand-written wasm SIMD rather than left to Eigen: Eigen 3.4 has no wasm SIMD backend, so with
// -msimd128 alone these loops (and the tanh fused into the additive score) stay scalar.
#include "kernels/checks.h"
#include "kernels/kernels-impl.h"
#include "kernels/math-wasmsimd.h"

void bl_f32_additive_score__wasmsimd(size_t n, size_t dim, const float* keys, size_t ld,
                                     const float* q, const float* v, float* e) {
  assert(bl_check::scores(n, dim, ld, q, e));
  const size_t body = dim & ~size_t(3);
  const size_t tail = dim - body;
  // The last dim % 4 lanes of q and v, zero-padded once for all keys: a zero v lane makes
  // whatever tanh gives for the padding irrelevant.
  float qt[4] = {0.0f, 0.0f, 0.0f, 0.0f}, vt[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  std::memcpy(qt, q + body, tail * sizeof(float));
  std::memcpy(vt, v + body, tail * sizeof(float));

  for (size_t j = 0; j < n; j++) {
    const float* k = keys + j * ld;
    v128_t acc = wasm_f32x4_splat(0.0f);
    for (size_t a = 0; a < body; a += 4) {
      const v128_t t = bl_vtanh_f32x4(wasm_f32x4_add(wasm_v128_load(k + a), wasm_v128_load(q + a)));
      acc = wasm_f32x4_add(acc, wasm_f32x4_mul(wasm_v128_load(v + a), t));
    }
    if (tail != 0) {
      float kt[4] = {0.0f, 0.0f, 0.0f, 0.0f};
      std::memcpy(kt, k + body, tail * sizeof(float));
      const v128_t t = bl_vtanh_f32x4(wasm_f32x4_add(wasm_v128_load(kt), wasm_v128_load(qt)));
      acc = wasm_f32x4_add(acc, wasm_f32x4_mul(wasm_v128_load(vt), t));
    }
    e[j] = bl_hsum_f32x4(acc);
  }
}

// A dot score is a gemv of the key matrix with q, scaled afterwards (scale * sum, the same
// rounding order as the scalar kernel).
void bl_f32_dot_score__wasmsimd(size_t n, size_t dim, const float* keys, size_t ld, const float* q,
                                float scale, float* e) {
  assert(bl_check::scores(n, dim, ld, q, e));
  bl_f32_gemv__wasmsimd(n, dim, keys, ld, q, nullptr, e);
  const v128_t vs = wasm_f32x4_splat(scale);
  bl_map_f32x4(n, e, e, [vs](v128_t s) { return wasm_f32x4_mul(vs, s); });
}

// Column blocks held in registers across all n rows: each c element is written once, and the
// per-element order (j = 0, 1, ...) matches the scalar kernel.
void bl_f32_weighted_sum__wasmsimd(size_t n, size_t dim, const float* alpha, const float* h,
                                   size_t ld, float* c) {
  assert(bl_check::weighted_sum(n, dim, ld, alpha, c));
  size_t d = 0;
  for (; d + 16 <= dim; d += 16) {
    v128_t c0 = wasm_f32x4_splat(0.0f), c1 = c0, c2 = c0, c3 = c0;
    for (size_t j = 0; j < n; j++) {
      const v128_t a = wasm_f32x4_splat(alpha[j]);
      const float* row = h + j * ld + d;
      c0 = wasm_f32x4_add(c0, wasm_f32x4_mul(a, wasm_v128_load(row)));
      c1 = wasm_f32x4_add(c1, wasm_f32x4_mul(a, wasm_v128_load(row + 4)));
      c2 = wasm_f32x4_add(c2, wasm_f32x4_mul(a, wasm_v128_load(row + 8)));
      c3 = wasm_f32x4_add(c3, wasm_f32x4_mul(a, wasm_v128_load(row + 12)));
    }
    wasm_v128_store(c + d, c0);
    wasm_v128_store(c + d + 4, c1);
    wasm_v128_store(c + d + 8, c2);
    wasm_v128_store(c + d + 12, c3);
  }
  for (; d + 4 <= dim; d += 4) {
    v128_t c0 = wasm_f32x4_splat(0.0f);
    for (size_t j = 0; j < n; j++) {
      c0 = wasm_f32x4_add(
          c0, wasm_f32x4_mul(wasm_f32x4_splat(alpha[j]), wasm_v128_load(h + j * ld + d)));
    }
    wasm_v128_store(c + d, c0);
  }
  for (; d < dim; d++) {
    float s = 0.0f;
    for (size_t j = 0; j < n; j++) s += alpha[j] * h[j * ld + d];
    c[d] = s;
  }
}
