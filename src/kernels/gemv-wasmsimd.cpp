// Hand-written wasm SIMD rather than left to Eigen: Eigen 3.4 has no wasm SIMD backend, so with
// -msimd128 alone its matrix-vector products stay scalar, and it has no int8-weight gemv at all.
//
// Four rows per pass: each load of x feeds four rows (x is read rows/4 times instead of rows
// times), and the four independent accumulators hide the latency of the f32 adds. The int8
// product's inner loop is in qs8-wasmsimd.h, shared with the batched gemm.
#include <cmath>
#include <vector>

#include "kernels/checks.h"
#include "kernels/kernels-impl.h"
#include "kernels/math-wasmsimd.h"
#include "kernels/qs8-wasmsimd.h"

void bl_f32_gemv__wasmsimd(size_t rows, size_t cols, const float* W, size_t ld, const float* x,
                           const float* bias, float* y) {
  assert(bl_check::gemv(rows, cols, ld, x, bias, y));
  const size_t body = cols & ~size_t(3);
  size_t r = 0;
  for (; r + 4 <= rows; r += 4) {
    const float* w0 = W + r * ld;
    const float* w1 = w0 + ld;
    const float* w2 = w1 + ld;
    const float* w3 = w2 + ld;
    v128_t acc0 = wasm_f32x4_splat(0.0f), acc1 = acc0, acc2 = acc0, acc3 = acc0;
    for (size_t k = 0; k < body; k += 4) {
      const v128_t vx = wasm_v128_load(x + k);
      acc0 = wasm_f32x4_add(acc0, wasm_f32x4_mul(wasm_v128_load(w0 + k), vx));
      acc1 = wasm_f32x4_add(acc1, wasm_f32x4_mul(wasm_v128_load(w1 + k), vx));
      acc2 = wasm_f32x4_add(acc2, wasm_f32x4_mul(wasm_v128_load(w2 + k), vx));
      acc3 = wasm_f32x4_add(acc3, wasm_f32x4_mul(wasm_v128_load(w3 + k), vx));
    }
    v128_t sum = bl_hsum4_f32x4(acc0, acc1, acc2, acc3);
    if (body != cols) {
      float t[4] = {0.0f, 0.0f, 0.0f, 0.0f};
      for (size_t k = body; k < cols; k++) {
        t[0] += w0[k] * x[k];
        t[1] += w1[k] * x[k];
        t[2] += w2[k] * x[k];
        t[3] += w3[k] * x[k];
      }
      sum = wasm_f32x4_add(sum, wasm_v128_load(t));
    }
    if (bias) sum = wasm_f32x4_add(sum, wasm_v128_load(bias + r));
    wasm_v128_store(y + r, sum);
  }
  for (; r < rows; r++) {
    const float* w = W + r * ld;
    v128_t acc = wasm_f32x4_splat(0.0f);
    for (size_t k = 0; k < body; k += 4) {
      acc = wasm_f32x4_add(acc, wasm_f32x4_mul(wasm_v128_load(w + k), wasm_v128_load(x + k)));
    }
    float s = bl_hsum_f32x4(acc);
    for (size_t k = body; k < cols; k++) s += w[k] * x[k];
    y[r] = (bias ? bias[r] : 0.0f) + s;
  }
}

// 14-bit activations (kernels.h: qd14): what the scalar bl_qd14_quantize__scalar computes, eight
// at a time. max is taken with pmax, which is `a < b ? b : a` like the scalar loop, and the
// rounding is the same magic-number add (see gemv-scalar.cpp), so xq and the scale are bitwise
// the scalar ones.
float bl_qd14_quantize__wasmsimd(size_t n, const float* x, int16_t* xq) {
  v128_t vmax = wasm_f32x4_splat(0.0f);
  size_t k = 0;
  for (; k + 4 <= n; k += 4) vmax = wasm_f32x4_pmax(vmax, wasm_f32x4_abs(wasm_v128_load(x + k)));
  float amax = 0.0f;
  const float lanes[4] = {wasm_f32x4_extract_lane(vmax, 0), wasm_f32x4_extract_lane(vmax, 1),
                          wasm_f32x4_extract_lane(vmax, 2), wasm_f32x4_extract_lane(vmax, 3)};
  for (float v : lanes) amax = amax < v ? v : amax;
  for (; k < n; k++) amax = amax < std::fabs(x[k]) ? std::fabs(x[k]) : amax;
  const size_t padded = (n + 15) & ~size_t(15);
  if (amax == 0.0f) {
    std::memset(xq, 0, padded * sizeof(int16_t));
    return 0.0f;
  }
  const v128_t inv = wasm_f32x4_splat(8191.0f / amax);
  const v128_t magic = wasm_f32x4_splat(12582912.0f);  // 1.5 * 2^23
  auto q8 = [&](const float* p, int16_t* out) {
    const v128_t a = wasm_i32x4_sub(wasm_f32x4_add(wasm_f32x4_mul(wasm_v128_load(p), inv), magic), magic);
    const v128_t b =
        wasm_i32x4_sub(wasm_f32x4_add(wasm_f32x4_mul(wasm_v128_load(p + 4), inv), magic), magic);
    wasm_v128_store(out, wasm_i16x8_narrow_i32x4(a, b));
  };
  for (k = 0; k + 8 <= n; k += 8) q8(x + k, xq + k);
  if (k < n) {  // the last n % 8 through a zero-padded copy: 0 quantizes to 0
    float buf[8] = {0.0f};
    std::memcpy(buf, x + k, (n - k) * sizeof(float));
    q8(buf, xq + k);
    k += 8;
  }
  if (k < padded) std::memset(xq + k, 0, (padded - k) * sizeof(int16_t));
  return amax / 8191.0f;
}

void bl_qs8_gemv__wasmsimd(size_t rows, size_t cols, const int8_t* W, size_t ld, const float* scale,
                           const int32_t* /*wsum*/, const float* x, const float* bias, float* y) {
  assert(bl_check::gemv(rows, cols, ld, x, bias, y));
  int16_t* xq = bl_qd14_scratch((cols + 15) & ~size_t(15));
  const float xs = bl_qd14_quantize__wasmsimd(cols, x, xq);
  size_t r = 0;
  for (; r + 4 <= rows; r += 4) {
    const int8_t* w[4] = {W + r * ld, W + (r + 1) * ld, W + (r + 2) * ld, W + (r + 3) * ld};
    bl_qs8::rows4(w, xq, cols, scale + r, xs, bias ? bias + r : nullptr, y + r);
  }
  for (; r < rows; r++)
    y[r] = bl_qs8::row1(W + r * ld, xq, cols, scale[r], xs, bias ? bias + r : nullptr);
}
