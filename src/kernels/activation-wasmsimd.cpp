// Hand-written wasm SIMD rather than left to Eigen: Eigen 3.4 has no wasm SIMD backend, so with
// -msimd128 alone its array ops (and libm's tanhf/expf) still run one float at a time.
//
// The math lives in math-wasmsimd.h because the attention and softmax kernels fuse it too.
#include "kernels/checks.h"
#include "kernels/kernels-impl.h"
#include "kernels/math-wasmsimd.h"

void bl_f32_sigmoid__wasmsimd(size_t n, const float* x, float* y) {
  assert(bl_check::same_or_apart(n, x, y));
  bl_map_f32x4(n, x, y, bl_vsigmoid_f32x4);
}

void bl_f32_tanh__wasmsimd(size_t n, const float* x, float* y) {
  assert(bl_check::same_or_apart(n, x, y));
  bl_map_f32x4(n, x, y, bl_vtanh_f32x4);
}

// pmax(0, x) = 0 < x ? x : 0: the scalar kernel's rule, NaN included (f32x4.max would keep NaN).
void bl_f32_relu__wasmsimd(size_t n, const float* x, float* y) {
  assert(bl_check::same_or_apart(n, x, y));
  const v128_t zero = wasm_f32x4_splat(0.0f);
  bl_map_f32x4(n, x, y, [zero](v128_t v) { return wasm_f32x4_pmax(zero, v); });
}
