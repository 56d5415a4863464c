// Reference 4-bit weight products (kernels.h: gemv_q4, gemm_q4): the plain loops the wasm SIMD
// twin (gemv-qs4-wasmsimd.cpp) is tested against.
//
// A row holds cols / 16 groups of 16 weights, each group 8 bytes and one f32 scale (the file
// stores an f16; it converts exactly). Byte i of a group holds weight i in its low nibble and
// weight i + 8 in its high nibble, each as q + 8 for q in -8..7 (docs/model-format.md). That
// order lets SIMD split a group's 8 bytes into its two halves of 8 with one mask and one shift.
//
// The activations are quantized exactly as for int8 (qd14, gemv-scalar.cpp). Per group the dot
// product is an exact integer (|q xq| <= 8 * 8191, 16 of them fit an int32 and f32's 24-bit
// mantissa), and the groups are added in f32 one after the other, in group order:
//   acc = 0;  acc = acc + s_g * float(d_g)  for g = 0, 1, ...;  y = acc * xs (+ bias)
// The SIMD kernel keeps four rows in the four lanes and follows the same order, so every table
// computes the same bits.
#include <vector>

#include "kernels/checks.h"
#include "kernels/kernels-impl.h"
#include "kernels/scratch.h"

// The exact integer dot product of group w (8 bytes, 16 codes) with xq[0..16).
int32_t bl_qs4_group_dot__scalar(const uint8_t* w, const int16_t* xq) {
  int32_t d = 0;
  for (size_t i = 0; i < 8; i++) {
    d += (int32_t(w[i] & 0xF) - 8) * int32_t(xq[i]);
    d += (int32_t(w[i] >> 4) - 8) * int32_t(xq[i + 8]);
  }
  return d;
}

// The B vectors at X + b*ldx quantized each with its own scale (the ISA's quantizer), into
// per-thread scratch (scratch.h): vector b's codes at *xq + b*cols (cols a multiple of 16, so
// no padding), its scale at [b] of what is returned.
const float* bl_qd14_quantize_each(size_t B, size_t cols, const float* X, size_t ldx,
                                   float (*quantize)(size_t, const float*, int16_t*),
                                   int16_t** xq) {
  BL_THREAD_LOCAL std::vector<int16_t> xq_buf;
  BL_THREAD_LOCAL std::vector<float> xs_buf;
  *xq = bl::fit(xq_buf, B * cols);
  float* xs = bl::fit(xs_buf, B);
  for (size_t b = 0; b < B; b++) xs[b] = quantize(cols, X + b * ldx, *xq + b * cols);
  return xs;
}

// One row's product with a quantized x (xs its scale), before the bias.
static float row_dot(const uint8_t* w, const float* scale, size_t groups, const int16_t* xq,
                     float xs) {
  float acc = 0.0f;
  for (size_t g = 0; g < groups; g++)
    acc += scale[g] * float(bl_qs4_group_dot__scalar(w + 8 * g, xq + 16 * g));
  return acc * xs;
}

void bl_qs4_gemv__scalar(size_t rows, size_t cols, const uint8_t* W, size_t ld, const float* scale,
                         const float* x, const float* bias, float* y) {
  assert(bl_check::gemv_q4(rows, cols, ld, x, bias, y));
  const size_t groups = cols / 16;
  int16_t* xq = bl_qd14_scratch(cols);
  const float xs = bl_qd14_quantize__scalar(cols, x, xq);
  for (size_t r = 0; r < rows; r++) {
    const float v = row_dot(W + r * ld, scale + r * groups, groups, xq, xs);
    y[r] = bias ? v + bias[r] : v;
  }
}

// gemv for each of B vectors, each quantized with its own scale; rows outside, vectors inside,
// so a row of W stays in cache for all B.
void bl_qs4_gemm__scalar(size_t rows, size_t cols, const uint8_t* W, size_t ld, const float* scale,
                         size_t B, const float* X, size_t ldx, const float* bias, float* Y,
                         size_t ldy) {
  assert(bl_check::gemm_q4(rows, cols, ld, B, X, ldx, bias, Y, ldy));
  const size_t groups = cols / 16;
  int16_t* xq;
  const float* xs = bl_qd14_quantize_each(B, cols, X, ldx, bl_qd14_quantize__scalar, &xq);
  for (size_t r = 0; r < rows; r++) {
    for (size_t b = 0; b < B; b++) {
      const float v = row_dot(W + r * ld, scale + r * groups, groups, xq + b * cols, xs[b]);
      Y[b * ldy + r] = bias ? v + bias[r] : v;
    }
  }
}
