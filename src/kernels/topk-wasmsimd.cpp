// SIMD top-k: the scalar kernel's rule (topk.h), with the rejection test done 16 entries at a
// time. Once the k best so far are known, almost every logit is below the k-th of them, so a
// block of 16 costs four loads, four compares against the running threshold and one any_true;
// only a block holding a candidate goes through the scalar test, in id order, which keeps
// insertions, and so the ties, exactly those of the scalar kernel.
#include "kernels/checks.h"
#include "kernels/kernels-impl.h"
#include "kernels/simd128.h"
#include "kernels/topk.h"

size_t bl_f32_top_k__wasmsimd(size_t n, const float* x, size_t k, float* vals, int32_t* ids) {
  assert(bl_check::top_k(n, x));
  const size_t m = bl_topk_fill(n, x, k, vals, ids);
  if (m == 0) return 0;
  size_t i = m;
  for (; i + 16 <= n; i += 16) {
    const v128_t t = wasm_f32x4_splat(vals[m - 1]);
    const v128_t hit = wasm_v128_or(
        wasm_v128_or(wasm_f32x4_gt(wasm_v128_load(x + i), t),
                     wasm_f32x4_gt(wasm_v128_load(x + i + 4), t)),
        wasm_v128_or(wasm_f32x4_gt(wasm_v128_load(x + i + 8), t),
                     wasm_f32x4_gt(wasm_v128_load(x + i + 12), t)));
    if (!wasm_v128_any_true(hit)) continue;
    for (size_t j = i; j < i + 16; j++)  // the threshold rises as entries go in
      if (x[j] > vals[m - 1]) bl_topk_insert(m - 1, vals, ids, x[j], int32_t(j));
  }
  for (; i < n; i++)
    if (x[i] > vals[m - 1]) bl_topk_insert(m - 1, vals, ids, x[i], int32_t(i));
  return m;
}
