// Reference matrix products for batched decoding: B vectors against one matrix.
//
// Each (row, vector) pair is gemv-scalar.cpp's loop exactly: f32, one float accumulator, k in
// order, then bias + acc; int8, the same exact integer dot and the same final f32 operations. Only the loop nest differs: a row of W is
// loaded once and used for a tile of 4 vectors, and stays in cache for the next tiles, so W
// (the bulk of a decoder step's bytes) is read from memory once per call instead of B times.
#include <vector>

#include "kernels/scratch.h"

#include "kernels/checks.h"
#include "kernels/kernels-impl.h"

namespace {

constexpr size_t kTile = 4;  // vectors sharing each load of W[r][k]

// y_j = sum_k float(w[k]) * x_j[k] for the NB vectors x_j = x + j*ldx, each summed in k order.
template <size_t NB, typename T>
inline void dot_tile(const T* w, size_t cols, const float* x, size_t ldx, float* acc) {
  float a[NB] = {};
  for (size_t k = 0; k < cols; k++) {
    const float wk = static_cast<float>(w[k]);
    for (size_t j = 0; j < NB; j++) a[j] += wk * x[j * ldx + k];
  }
  for (size_t j = 0; j < NB; j++) acc[j] = a[j];
}

// Row r of W against all B vectors; `finish` turns the row's sum for a vector into its output.
template <typename T, typename Finish>
inline void row_times_all(const T* w, size_t cols, size_t B, const float* X, size_t ldx,
                          Finish finish) {
  float acc[kTile];
  size_t b = 0;
  for (; b + kTile <= B; b += kTile) {
    dot_tile<kTile>(w, cols, X + b * ldx, ldx, acc);
    for (size_t j = 0; j < kTile; j++) finish(b + j, acc[j]);
  }
  for (; b < B; b++) {
    dot_tile<1>(w, cols, X + b * ldx, ldx, acc);
    finish(b, acc[0]);
  }
}

}  // namespace

void bl_f32_gemm__scalar(size_t rows, size_t cols, const float* W, size_t ld, size_t B,
                         const float* X, size_t ldx, const float* bias, float* Y, size_t ldy) {
  assert(bl_check::gemm(rows, cols, ld, B, X, ldx, bias, Y, ldy));
  for (size_t r = 0; r < rows; r++) {
    row_times_all(W + r * ld, cols, B, X, ldx, [&](size_t b, float acc) {
      Y[b * ldy + r] = (bias ? bias[r] : 0.0f) + acc;
    });
  }
}

// gemv-scalar.cpp's int8 product for each (row, vector): each vector quantized once, with its
// own scale, then every row's exact integer dot with it. Exact integers make the loop order
// free; rows outside, vectors inside keeps a row of W in cache for all B vectors.
void bl_qs8_gemm__scalar(size_t rows, size_t cols, const int8_t* W, size_t ld, const float* scale,
                         const int32_t* /*wsum*/, size_t B, const float* X, size_t ldx, const float* bias, float* Y,
                         size_t ldy) {
  assert(bl_check::gemm(rows, cols, ld, B, X, ldx, bias, Y, ldy));
  const size_t padded = (cols + 15) & ~size_t(15);
  BL_THREAD_LOCAL std::vector<int16_t> xq_buf;  // scratch.h
  BL_THREAD_LOCAL std::vector<float> xs_buf;
  int16_t* xq = bl::fit(xq_buf, B * padded);
  float* xs = bl::fit(xs_buf, B);
  for (size_t b = 0; b < B; b++)
    xs[b] = bl_qd14_quantize__scalar(cols, X + b * ldx, xq + b * padded);
  for (size_t r = 0; r < rows; r++) {
    const int8_t* w = W + r * ld;
    for (size_t b = 0; b < B; b++) {
      const float v = (scale[r] * xs[b]) * float(bl_qs8_dot__scalar(cols, w, xq + b * padded));
      Y[b * ldy + r] = bias ? v + bias[r] : v;
    }
  }
}
