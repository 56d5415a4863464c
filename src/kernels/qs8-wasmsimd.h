// The int8-weight product in wasm SIMD on 14-bit activations, stored as int16
// (gemv-wasmsimd.cpp's bl_qs8_gemv__wasmsimd and gemm-wasmsimd.cpp's bl_qs8_gemm__wasmsimd share
// it).
//
// What is computed (kernels.h): x is quantized once to 14-bit integers with one scale (qd14),
// every row's dot product with it is an exact integer, and that integer becomes f32 once, scaled by
// (row scale * vector scale). Exact integers make the result independent of the order of the
// sums, so the scalar twin (gemv-scalar.cpp), this 4-row loop and the batched loop all give the
// same bits without copying each other's accumulation order.
//
// Per 16 weights and row: two widening loads (i16x8.load8x8_s), two i32x4.dot_i16x8_s and two
// i32x4 adds (x's two int16 loads shared by 4 rows), against ~20 instructions for widening to
// f32 and a multiply-add per weight.
//
// Overflow: |w| <= 128 and |xq| <= 8191 (qd14), so one product is at most 1,048,448 in size.
//   - An i32 lane takes a quarter of a row's products: it holds 2048 of them (2,147,221,504 <
//     2^31), i.e. 8192 columns; longer rows flush their lanes into i64 every kChunkCols.
//   - The sum of a row's 4 lanes fits i32 only up to 2048 columns (kI32Cols): there the 4-row
//     pass adds the lanes in i32 and converts with f32x4.convert_i32x4_s; wider rows add them in
//     i64 and convert per row. Either way the float is the correctly rounded value of the exact
//     integer.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/math-wasmsimd.h"

namespace bl_qs8 {

constexpr size_t kI32Cols = 2048;
constexpr size_t kChunkCols = 8192;

// acc += 16 int8 weights at w times 16 int16 activations (xlo: the first 8, xhi: the last 8);
// lane l gets columns 2l, 2l+1, 2l+8, 2l+9. The weights are widened by the loads themselves
// (i16x8.load8x8_s: one sign-extending load per 8 on x86), which is cheaper than a v128.load
// and two i16x8.extend_*_i8x16_s: the high-half extend costs V8 a shuffle.
static inline v128_t dot16(v128_t acc, const int8_t* w, v128_t xlo, v128_t xhi) {
  acc = wasm_i32x4_add(acc, wasm_i32x4_dot_i16x8(wasm_i16x8_load8x8(w), xlo));
  return wasm_i32x4_add(acc, wasm_i32x4_dot_i16x8(wasm_i16x8_load8x8(w + 8), xhi));
}

// acc += the row's last cols % 16 weights (n), zero-padded, times xlo/xhi (xq is zero-padded
// too; reading past the row could run past the matrix on its last row).
static inline v128_t dot_tail(v128_t acc, const int8_t* w, size_t n, v128_t xlo, v128_t xhi) {
  int8_t buf[16] = {0};
  std::memcpy(buf, w, n);
  return dot16(acc, buf, xlo, xhi);
}

// acc[i] += lanes of row w[i] . xq over columns [k0, k1), multiples of 16; columns from `body`
// (cols rounded down to 16) on are the zero-padded tail.
template <size_t NR>
static inline void accumulate(const int8_t* const* w, const int16_t* xq, size_t k0, size_t k1,
                              size_t body, size_t cols, v128_t* acc) {
  v128_t a[NR];
  for (size_t i = 0; i < NR; i++) a[i] = acc[i];
  const size_t kb = k1 < body ? k1 : body;
  for (size_t k = k0; k < kb; k += 16) {
    const v128_t xlo = wasm_v128_load(xq + k), xhi = wasm_v128_load(xq + k + 8);
    for (size_t i = 0; i < NR; i++) a[i] = dot16(a[i], w[i] + k, xlo, xhi);
  }
  if (k1 > body) {
    const v128_t xlo = wasm_v128_load(xq + body), xhi = wasm_v128_load(xq + body + 8);
    for (size_t i = 0; i < NR; i++) a[i] = dot_tail(a[i], w[i] + body, cols - body, xlo, xhi);
  }
  for (size_t i = 0; i < NR; i++) acc[i] = a[i];
}

// Exact dot products of NR rows with xq, any length: i32 lanes per kChunkCols, flushed into
// i64 pairs, then the lanes added in i64.
template <size_t NR>
static inline void totals_i64(const int8_t* const* w, const int16_t* xq, size_t cols,
                              int64_t* tot) {
  const size_t body = cols & ~size_t(15);
  const size_t padded = body + (cols != body ? 16 : 0);
  v128_t t[NR];
  for (size_t i = 0; i < NR; i++) t[i] = wasm_i64x2_splat(0);
  for (size_t k0 = 0; k0 < padded; k0 += kChunkCols) {
    const size_t k1 = k0 + kChunkCols < padded ? k0 + kChunkCols : padded;
    v128_t acc[NR];
    for (size_t i = 0; i < NR; i++) acc[i] = wasm_i32x4_splat(0);
    accumulate<NR>(w, xq, k0, k1, body, cols, acc);
    for (size_t i = 0; i < NR; i++) {
      t[i] = wasm_i64x2_add(t[i], wasm_i64x2_extend_low_i32x4(acc[i]));
      t[i] = wasm_i64x2_add(t[i], wasm_i64x2_extend_high_i32x4(acc[i]));
    }
  }
  for (size_t i = 0; i < NR; i++)
    tot[i] = wasm_i64x2_extract_lane(t[i], 0) + wasm_i64x2_extract_lane(t[i], 1);
}

// {sum(a), sum(b), sum(c), sum(d)} of i32 lanes (exact when each sum fits, i.e. cols <= kI32Cols).
static inline v128_t hsum4_i32x4(v128_t a, v128_t b, v128_t c, v128_t d) {
  const v128_t ab = wasm_i32x4_add(wasm_i32x4_shuffle(a, b, 0, 4, 1, 5),
                                   wasm_i32x4_shuffle(a, b, 2, 6, 3, 7));
  const v128_t cd = wasm_i32x4_add(wasm_i32x4_shuffle(c, d, 0, 4, 1, 5),
                                   wasm_i32x4_shuffle(c, d, 2, 6, 3, 7));
  return wasm_i32x4_add(wasm_i32x4_shuffle(ab, cd, 0, 1, 4, 5),
                        wasm_i32x4_shuffle(ab, cd, 2, 3, 6, 7));
}

// y[0..4) = (scale[i] * xs) * dots[i] + bias[i] (bias may be null), dots the 4 rows' exact
// integer products already converted to f32: the scalar twin's formula, operation for
// operation. rows4 and the relaxed kernel (gemv-wasmrelaxed.cpp) both end here.
static inline void store4(v128_t dots, const float* scale, float xs, const float* bias,
                          float* y) {
  v128_t sum = wasm_f32x4_mul(wasm_f32x4_mul(wasm_v128_load(scale), wasm_f32x4_splat(xs)), dots);
  if (bias) sum = wasm_f32x4_add(sum, wasm_v128_load(bias));
  wasm_v128_store(y, sum);
}

// y[0..4) = (scale[i] * xs) * float(dot_i) + bias[i] for rows w[0..4).
static inline void rows4(const int8_t* const* w, const int16_t* xq, size_t cols,
                         const float* scale, float xs, const float* bias, float* y) {
  v128_t dots;
  if (cols <= kI32Cols) {
    const size_t body = cols & ~size_t(15);
    v128_t acc[4] = {wasm_i32x4_splat(0), wasm_i32x4_splat(0), wasm_i32x4_splat(0),
                     wasm_i32x4_splat(0)};
    accumulate<4>(w, xq, 0, body + (cols != body ? 16 : 0), body, cols, acc);
    dots = wasm_f32x4_convert_i32x4(hsum4_i32x4(acc[0], acc[1], acc[2], acc[3]));
  } else {
    int64_t tot[4];
    totals_i64<4>(w, xq, cols, tot);
    dots = wasm_f32x4_make(float(tot[0]), float(tot[1]), float(tot[2]), float(tot[3]));
  }
  store4(dots, scale, xs, bias, y);
}

// One row, as rows4 computes each of its four.
static inline float row1(const int8_t* w, const int16_t* xq, size_t cols, float scale, float xs,
                         const float* bias) {
  int64_t tot;
  totals_i64<1>(&w, xq, cols, &tot);
  const float v = (scale * xs) * float(tot);
  return bias ? v + *bias : v;
}

}  // namespace bl_qs8
