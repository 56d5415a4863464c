// Adam's update in wasm SIMD (kernels.h, train_adam_f32): train-adam-scalar.cpp's operations
// four elements at a time, the tail through the scalar twin (the same operations, so the same
// bits wherever an element falls).
#include "kernels/simd128.h"
#include "kernels/train-kernels-impl.h"

void bl_f32_train_adam__wasmsimd(size_t n, float* w, float* m, float* v, const float* g,
                                 const bl::AdamStep& s) {
  const v128_t gscale = wasm_f32x4_splat(s.gscale), b1 = wasm_f32x4_splat(s.b1),
               a1 = wasm_f32x4_splat(s.a1), b2 = wasm_f32x4_splat(s.b2),
               a2 = wasm_f32x4_splat(s.a2), step = wasm_f32x4_splat(s.step),
               bc2_root = wasm_f32x4_splat(s.bc2_root), eps = wasm_f32x4_splat(s.eps);
  size_t k = 0;
  for (; k + 4 <= n; k += 4) {
    const v128_t gk = wasm_f32x4_mul(gscale, wasm_v128_load(g + k));
    const v128_t mk = wasm_f32x4_add(wasm_f32x4_mul(wasm_v128_load(m + k), b1),
                                     wasm_f32x4_mul(a1, gk));
    const v128_t vk = wasm_f32x4_add(wasm_f32x4_mul(wasm_v128_load(v + k), b2),
                                     wasm_f32x4_mul(wasm_f32x4_mul(a2, gk), gk));
    const v128_t denom = wasm_f32x4_add(wasm_f32x4_div(wasm_f32x4_sqrt(vk), bc2_root), eps);
    const v128_t wk = wasm_f32x4_sub(wasm_v128_load(w + k),
                                     wasm_f32x4_mul(step, wasm_f32x4_div(mk, denom)));
    wasm_v128_store(m + k, mk);
    wasm_v128_store(v + k, vk);
    wasm_v128_store(w + k, wk);
  }
  bl_f32_train_adam__scalar(n - k, w + k, m + k, v + k, g + k, s);
}
