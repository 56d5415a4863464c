// Layer normalisation in wasm SIMD: the two reductions in 4 lanes (a different summation order
// from the scalar kernel, so the two agree to about 1e-6 relative), then the affine map.
#include <cmath>

#include "kernels/checks.h"
#include "kernels/kernels-impl.h"
#include "kernels/math-wasmsimd.h"

void bl_f32_layer_norm__wasmsimd(size_t n, const float* x, const float* g, const float* b,
                                 float eps, float* y) {
  assert(bl_check::row(n, x, y));
  const size_t body = n & ~size_t(3);
  v128_t acc = wasm_f32x4_splat(0.0f);
  for (size_t i = 0; i < body; i += 4) acc = wasm_f32x4_add(acc, wasm_v128_load(x + i));
  float sum = bl_hsum_f32x4(acc);
  for (size_t i = body; i < n; i++) sum += x[i];
  const float mean = sum / float(n);

  const v128_t vmean = wasm_f32x4_splat(mean);
  acc = wasm_f32x4_splat(0.0f);
  for (size_t i = 0; i < body; i += 4) {
    const v128_t c = wasm_f32x4_sub(wasm_v128_load(x + i), vmean);
    acc = wasm_f32x4_add(acc, wasm_f32x4_mul(c, c));
  }
  float sq = bl_hsum_f32x4(acc);
  for (size_t i = body; i < n; i++) sq += (x[i] - mean) * (x[i] - mean);
  const float inv = 1.0f / std::sqrt(sq / float(n) + eps);

  const v128_t vinv = wasm_f32x4_splat(inv);
  for (size_t i = 0; i < body; i += 4) {
    const v128_t c = wasm_f32x4_mul(wasm_f32x4_sub(wasm_v128_load(x + i), vmean), vinv);
    wasm_v128_store(y + i, wasm_f32x4_add(wasm_f32x4_mul(c, wasm_v128_load(g + i)),
                                          wasm_v128_load(b + i)));
  }
  for (size_t i = body; i < n; i++) y[i] = (x[i] - mean) * inv * g[i] + b[i];
}
