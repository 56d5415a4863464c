// Hand-written wasm SIMD rather than left to Eigen: Eigen 3.4 has no wasm SIMD backend, so with
// -msimd128 alone its reductions and exp stay scalar. Softmax over the 8000-word output layer is
// one exp per vocabulary entry per decoder step, which makes the vectorised exp worth having.
//
// Same contract as softmax-scalar.cpp: max first (no overflow at 1e4), -inf entries give 0, at
// least one finite entry.
#include <cmath>

#include "kernels/checks.h"
#include "kernels/kernels-impl.h"
#include "kernels/math-wasmsimd.h"

static float max_of(size_t n, const float* x) {
  v128_t vm = wasm_f32x4_splat(x[0]);
  size_t i = 0;
  for (; i + 4 <= n; i += 4) vm = wasm_f32x4_pmax(vm, wasm_v128_load(x + i));
  vm = wasm_f32x4_pmax(vm, wasm_i32x4_shuffle(vm, vm, 2, 3, 0, 1));
  vm = wasm_f32x4_pmax(vm, wasm_i32x4_shuffle(vm, vm, 1, 0, 3, 2));
  float m = wasm_f32x4_extract_lane(vm, 0);
  for (; i < n; i++) m = x[i] > m ? x[i] : m;
  return m;
}

// Writes exp(x[i] - m) to y (when y is non-null) and returns their sum. The tail is padded with
// -inf, whose exp is exactly 0, so it adds nothing to the sum.
static float exp_sum(size_t n, const float* x, float m, float* y) {
  const v128_t vm = wasm_f32x4_splat(m);
  v128_t vsum = wasm_f32x4_splat(0.0f);
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const v128_t e = bl_vexp_f32x4(wasm_f32x4_sub(wasm_v128_load(x + i), vm));
    if (y) wasm_v128_store(y + i, e);
    vsum = wasm_f32x4_add(vsum, e);
  }
  if (i < n) {
    float buf[4] = {-INFINITY, -INFINITY, -INFINITY, -INFINITY};
    std::memcpy(buf, x + i, (n - i) * sizeof(float));
    const v128_t e = bl_vexp_f32x4(wasm_f32x4_sub(wasm_v128_load(buf), vm));
    wasm_v128_store(buf, e);
    if (y) std::memcpy(y + i, buf, (n - i) * sizeof(float));
    vsum = wasm_f32x4_add(vsum, e);
  }
  return bl_hsum_f32x4(vsum);
}

void bl_f32_softmax__wasmsimd(size_t n, const float* x, float* y) {
  assert(bl_check::row(n, x, y));
  const float m = max_of(n, x);
  const float sum = exp_sum(n, x, m, y);
  const v128_t inv = wasm_f32x4_splat(1.0f / sum);
  bl_map_f32x4(n, y, y, [inv](v128_t e) { return wasm_f32x4_mul(e, inv); });
}

void bl_f32_log_softmax__wasmsimd(size_t n, const float* x, float* y) {
  assert(bl_check::row(n, x, y));
  const float m = max_of(n, x);
  // Only the one log is scalar; it is per vector, not per element.
  const float lse = std::log(exp_sum(n, x, m, nullptr));
  const v128_t vm = wasm_f32x4_splat(m);
  const v128_t vlse = wasm_f32x4_splat(lse);
  const v128_t ninf = wasm_f32x4_splat(-INFINITY);
  // NaN -> -inf in the same pass (kernels.h): a lane is NaN exactly when it is not equal to
  // itself. This saves the decoders a separate scalar pass over the vocabulary.
  bl_map_f32x4(n, x, y, [vm, vlse, ninf](v128_t v) {
    const v128_t r = wasm_f32x4_sub(wasm_f32x4_sub(v, vm), vlse);
    return wasm_v128_bitselect(r, ninf, wasm_f32x4_eq(r, r));
  });
}
