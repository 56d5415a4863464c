// Hand-written wasm SIMD rather than left to Eigen: Eigen 3.4 has no wasm SIMD backend, so with
// -msimd128 alone its matrix-vector products stay scalar, and it has no int8-weight gemv at all.
//
// Four rows per pass: each load of x feeds four rows (x is read rows/4 times instead of rows
// times), and the four independent accumulators hide the latency of the f32 adds.
#include "kernels/kernels-impl.h"
#include "kernels/math-wasmsimd.h"

void bl_f32_gemv__wasmsimd(size_t rows, size_t cols, const float* W, size_t ld, const float* x,
                           const float* bias, float* y) {
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

// acc + float(w) * x for 16 int8 weights, widened exactly by bl_widen_i8x16_f32.
// x stays f32 (only the weights are quantized), so the result matches the f32 gemv on
// dequantized weights to rounding; the per-row scale is applied once, after the sum.
static inline v128_t dot16(v128_t acc, v128_t w, const v128_t x[4]) {
  v128_t wf[4];
  bl_widen_i8x16_f32(w, wf);
  acc = wasm_f32x4_add(acc, wasm_f32x4_mul(wf[0], x[0]));
  acc = wasm_f32x4_add(acc, wasm_f32x4_mul(wf[1], x[1]));
  acc = wasm_f32x4_add(acc, wasm_f32x4_mul(wf[2], x[2]));
  return wasm_f32x4_add(acc, wasm_f32x4_mul(wf[3], x[3]));
}

static inline void load_x16(const float* x, v128_t vx[4]) {
  for (int i = 0; i < 4; i++) vx[i] = wasm_v128_load(x + 4 * i);
}

// The last cols % 16 weights of a row, zero-padded: zeros times the padded x add nothing, and
// the tail runs through the same dot16 as the body.
static inline v128_t load_w_tail(const int8_t* w, size_t n) {
  int8_t buf[16] = {0};
  std::memcpy(buf, w, n);
  return wasm_v128_load(buf);
}

void bl_qs8_gemv__wasmsimd(size_t rows, size_t cols, const int8_t* W, size_t ld, const float* scale,
                           const float* x, const float* bias, float* y) {
  const size_t body = cols & ~size_t(15);
  const size_t tail = cols - body;
  float xt[16] = {0.0f};
  std::memcpy(xt, x + body, tail * sizeof(float));
  v128_t vx[4], vxt[4];
  load_x16(xt, vxt);

  size_t r = 0;
  for (; r + 4 <= rows; r += 4) {
    const int8_t* w0 = W + r * ld;
    const int8_t* w1 = w0 + ld;
    const int8_t* w2 = w1 + ld;
    const int8_t* w3 = w2 + ld;
    v128_t acc0 = wasm_f32x4_splat(0.0f), acc1 = acc0, acc2 = acc0, acc3 = acc0;
    for (size_t k = 0; k < body; k += 16) {
      load_x16(x + k, vx);
      acc0 = dot16(acc0, wasm_v128_load(w0 + k), vx);
      acc1 = dot16(acc1, wasm_v128_load(w1 + k), vx);
      acc2 = dot16(acc2, wasm_v128_load(w2 + k), vx);
      acc3 = dot16(acc3, wasm_v128_load(w3 + k), vx);
    }
    if (tail != 0) {
      acc0 = dot16(acc0, load_w_tail(w0 + body, tail), vxt);
      acc1 = dot16(acc1, load_w_tail(w1 + body, tail), vxt);
      acc2 = dot16(acc2, load_w_tail(w2 + body, tail), vxt);
      acc3 = dot16(acc3, load_w_tail(w3 + body, tail), vxt);
    }
    v128_t sum = wasm_f32x4_mul(wasm_v128_load(scale + r), bl_hsum4_f32x4(acc0, acc1, acc2, acc3));
    if (bias) sum = wasm_f32x4_add(sum, wasm_v128_load(bias + r));
    wasm_v128_store(y + r, sum);
  }
  for (; r < rows; r++) {
    const int8_t* w = W + r * ld;
    v128_t acc = wasm_f32x4_splat(0.0f);
    for (size_t k = 0; k < body; k += 16) {
      load_x16(x + k, vx);
      acc = dot16(acc, wasm_v128_load(w + k), vx);
    }
    if (tail != 0) acc = dot16(acc, load_w_tail(w + body, tail), vxt);
    y[r] = (bias ? bias[r] : 0.0f) + scale[r] * bl_hsum_f32x4(acc);
  }
}
