// Products and lookups on a Matrix in either dtype, shared by both model kinds (model.cpp,
// transformer.cpp): the one place that picks the f32 or the int8 kernel for a weight.
#pragma once
#include <cstring>

#include "core/weights.h"
#include "kernels/kernels.h"

namespace bl {

// A 4-bit row's f32 values, (code - 8) * its group's scale, in the packing of
// kernels/gemv-qs4-scalar.cpp; n a multiple of 16.
inline void dequantize_q4_row(const uint8_t* q, const float* scale, size_t n, float* out) {
  for (size_t g = 0; g < n / 16; g++) {
    for (size_t i = 0; i < 8; i++) {
      out[16 * g + i] = float(int(q[8 * g + i] & 0xF) - 8) * scale[g];
      out[16 * g + i + 8] = float(int(q[8 * g + i] >> 4) - 8) * scale[g];
    }
  }
}

// y = W x + bias (bias may be null)
inline void matvec(const Kernels& k, const Matrix& W, const float* x, const float* bias,
                   float* y) {
  if (W.is_q4())
    k.gemv_q4(W.rows, W.cols, W.q4.data(), W.cols / 2, W.scale.data(), x, bias, y);
  else if (W.is_int8())
    k.gemv_i8(W.rows, W.cols, W.i8.data(), W.cols, W.scale.data(), W.row_sum.data(), x, bias,
              y);
  else
    k.gemv_f32(W.rows, W.cols, W.f32.data(), W.cols, x, bias, y);
}

// Y[b*ldy ..] = W X[b*ldx ..] + bias for B rows
inline void matmat(const Kernels& k, const Matrix& W, size_t B, const float* X, size_t ldx,
                   const float* bias, float* Y, size_t ldy) {
  if (W.is_q4())
    k.gemm_q4(W.rows, W.cols, W.q4.data(), W.cols / 2, W.scale.data(), B, X, ldx, bias, Y, ldy);
  else if (W.is_int8())
    k.gemm_i8(W.rows, W.cols, W.i8.data(), W.cols, W.scale.data(), W.row_sum.data(), B, X, ldx,
              bias, Y, ldy);
  else
    k.gemm_f32(W.rows, W.cols, W.f32.data(), W.cols, B, X, ldx, bias, Y, ldy);
}

// out = row id of an embedding table, dequantized (q * scale, as the reference does) if int8
// or 4-bit.
inline void embedding_row(const Matrix& table, int id, float* out) {
  const size_t E = table.cols;
  if (table.is_q4()) {
    dequantize_q4_row(table.q4.data() + size_t(id) * (E / 2),
                      table.scale.data() + size_t(id) * (E / 16), E, out);
  } else if (table.is_int8()) {
    const int8_t* q = table.i8.data() + size_t(id) * E;
    const float scale = table.scale[id];
    for (size_t k = 0; k < E; k++) out[k] = float(q[k]) * scale;
  } else {
    std::memcpy(out, table.f32.data() + size_t(id) * E, E * sizeof(float));
  }
}

}  // namespace bl
