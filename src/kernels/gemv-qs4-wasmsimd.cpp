// The 4-bit weight products in wasm SIMD (kernels.h: gemv_q4, gemm_q4; the scalar twin,
// gemv-qs4-scalar.cpp, says what is computed and how the weights are packed).
//
// Four rows per pass, one row per lane of the f32 accumulator, so each row adds its groups in
// the scalar order and the result is the scalar one bit for bit. Per group and row: one widening
// load of 8 bytes, a mask and a shift to split them into the group's two halves of 8 codes, two
// i32x4.dot_i16x8_s on the 14-bit activations (loaded once for the 4 rows); then the four rows'
// integer sums are gathered into one vector (exact i32 adds), converted once and scaled.

#include "kernels/checks.h"
#include "kernels/kernels-impl.h"
#include "kernels/math-wasmsimd.h"
#include "kernels/qs8-wasmsimd.h"

namespace {

// A group's 16 codes (8 bytes at w) times xq: four i32 lanes whose sum is the exact dot product.
inline v128_t group_lanes(const uint8_t* w, v128_t xlo, v128_t xhi) {
  const v128_t bytes = wasm_u16x8_load8x8(w);
  const v128_t eight = wasm_i16x8_splat(8);
  const v128_t lo = wasm_i16x8_sub(wasm_v128_and(bytes, wasm_i16x8_splat(0xF)), eight);
  const v128_t hi = wasm_i16x8_sub(wasm_u16x8_shr(bytes, 4), eight);
  return wasm_i32x4_add(wasm_i32x4_dot_i16x8(lo, xlo), wasm_i32x4_dot_i16x8(hi, xhi));
}

// Rows r..r+3 (at w, ld bytes apart; scales s, groups apart) times the quantized x: the four
// outputs, bias added, stored at y.
inline void rows4(const uint8_t* w, size_t ld, const float* s, size_t groups, const int16_t* xq,
                  float xs, const float* bias, float* y) {
  const uint8_t* w0 = w;
  const uint8_t* w1 = w0 + ld;
  const uint8_t* w2 = w1 + ld;
  const uint8_t* w3 = w2 + ld;
  const float *s0 = s, *s1 = s0 + groups, *s2 = s1 + groups, *s3 = s2 + groups;
  v128_t acc = wasm_f32x4_splat(0.0f);
  for (size_t g = 0; g < groups; g++) {
    const v128_t xlo = wasm_v128_load(xq + 16 * g), xhi = wasm_v128_load(xq + 16 * g + 8);
    const v128_t d = bl_qs8::hsum4_i32x4(
        group_lanes(w0 + 8 * g, xlo, xhi), group_lanes(w1 + 8 * g, xlo, xhi),
        group_lanes(w2 + 8 * g, xlo, xhi), group_lanes(w3 + 8 * g, xlo, xhi));
    const v128_t sg = wasm_f32x4_make(s0[g], s1[g], s2[g], s3[g]);
    acc = wasm_f32x4_add(acc, wasm_f32x4_mul(sg, wasm_f32x4_convert_i32x4(d)));
  }
  v128_t v = wasm_f32x4_mul(acc, wasm_f32x4_splat(xs));
  if (bias) v = wasm_f32x4_add(v, wasm_v128_load(bias));
  wasm_v128_store(y, v);
}

// One row, for the last rows % 4: the scalar twin's loop (its group dot is the same integer).
inline float row1(const uint8_t* w, const float* s, size_t groups, const int16_t* xq, float xs,
                  const float* bias) {
  float acc = 0.0f;
  for (size_t g = 0; g < groups; g++)
    acc += s[g] * float(bl_qs4_group_dot__scalar(w + 8 * g, xq + 16 * g));
  const float v = acc * xs;
  return bias ? v + *bias : v;
}

// All rows of W times one quantized vector, outputs at y.
inline void all_rows(size_t rows, size_t groups, const uint8_t* W, size_t ld, const float* scale,
                     const int16_t* xq, float xs, const float* bias, float* y) {
  size_t r = 0;
  for (; r + 4 <= rows; r += 4)
    rows4(W + r * ld, ld, scale + r * groups, groups, xq, xs, bias ? bias + r : nullptr, y + r);
  for (; r < rows; r++)
    y[r] = row1(W + r * ld, scale + r * groups, groups, xq, xs, bias ? bias + r : nullptr);
}

}  // namespace

void bl_qs4_gemv__wasmsimd(size_t rows, size_t cols, const uint8_t* W, size_t ld,
                           const float* scale, const float* x, const float* bias, float* y) {
  assert(bl_check::gemv_q4(rows, cols, ld, x, bias, y));
  int16_t* xq = bl_qd14_scratch(cols);
  const float xs = bl_qd14_quantize__wasmsimd(cols, x, xq);
  all_rows(rows, cols / 16, W, ld, scale, xq, xs, bias, y);
}

// Each vector quantized once; then, per block of 4 rows, every vector, so the block's bytes are
// read from memory once for all B.
void bl_qs4_gemm__wasmsimd(size_t rows, size_t cols, const uint8_t* W, size_t ld,
                           const float* scale, size_t B, const float* X, size_t ldx,
                           const float* bias, float* Y, size_t ldy) {
  assert(bl_check::gemm_q4(rows, cols, ld, B, X, ldx, bias, Y, ldy));
  const size_t groups = cols / 16;
  int16_t* xq;
  const float* xs = bl_qd14_quantize_each(B, cols, X, ldx, bl_qd14_quantize__wasmsimd, &xq);
  size_t r = 0;
  for (; r + 4 <= rows; r += 4)
    for (size_t b = 0; b < B; b++)
      rows4(W + r * ld, ld, scale + r * groups, groups, xq + b * cols, xs[b],
            bias ? bias + r : nullptr, Y + b * ldy + r);
  for (; r < rows; r++)
    for (size_t b = 0; b < B; b++)
      Y[b * ldy + r] = row1(W + r * ld, scale + r * groups, groups, xq + b * cols, xs[b],
                            bias ? bias + r : nullptr);
}
