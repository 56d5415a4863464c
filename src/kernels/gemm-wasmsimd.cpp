// Batched matrix products in wasm SIMD: B vectors against one matrix, each output bit-identical
// to gemv-wasmsimd.cpp's for the same row and vector (kernels.h says why that matters).
//
// f32: to be identical, every (row, vector) pair repeats gemv's arithmetic in gemv's order:
//   - rows in blocks of 4 from row 0, then the rows % 4 left over one by one, as gemv does:
//     the two kinds finish their sums differently (bl_hsum4_f32x4 and a vector tail, or
//     bl_hsum_f32x4 and a scalar tail), so a row must be finished the way gemv finishes it;
//   - per row, 4 lane-accumulators over k in steps of 4, the same tail, then bias.
// int8: the sums are exact integers (qs8-wasmsimd.h), so only the final f32 operations must
// match, and they are one shared function.
//
// What batching saves: the loops run row block by row block, and inside a block over the
// vectors. A block's 4 rows of W (a few KB) come from memory once, then serve every vector
// from L1; in an f32 tile each load of W feeds 4 vectors. The B vectors (tens of KB) are what
// gets re-read per block, from L1/L2. At batch 1 the kernels just call gemv.
#include <algorithm>
#include <vector>

#include "kernels/checks.h"
#include "kernels/kernels-impl.h"
#include "kernels/math-wasmsimd.h"
#include "kernels/qs8-wasmsimd.h"
#include "kernels/scratch.h"

namespace {

constexpr size_t kTile = 4;  // vectors per pass over a row

// acc[i][j] += w_i[k..k+4) * x_j[k..k+4) for k = 0, 4, .. < n (a multiple of 4): gemv's
// lane-accumulator sequence for NR rows w_i = w[i] and NB vectors x_j = x + j*ldx. A register
// tile of up to 2 x 4 accumulators: each load of W feeds 4 vectors, each load of x 2 rows.
template <size_t NR, size_t NB>
inline void accumulate(const float* const* w, const float* x, size_t ldx, size_t n,
                       v128_t (*acc)[kTile]) {
  v128_t a[NR][NB];
  for (size_t i = 0; i < NR; i++)
    for (size_t j = 0; j < NB; j++) a[i][j] = acc[i][j];
  for (size_t k = 0; k < n; k += 4) {
    v128_t vw[NR];
    for (size_t i = 0; i < NR; i++) vw[i] = wasm_v128_load(w[i] + k);
    for (size_t j = 0; j < NB; j++) {
      const v128_t vx = wasm_v128_load(x + j * ldx + k);
      for (size_t i = 0; i < NR; i++) a[i][j] = wasm_f32x4_add(a[i][j], wasm_f32x4_mul(vw[i], vx));
    }
  }
  for (size_t i = 0; i < NR; i++)
    for (size_t j = 0; j < NB; j++) acc[i][j] = a[i][j];
}

// accumulate() for nr (1 or 2) rows and a tile of nb <= kTile vectors, the sizes known to the
// compiler so the accumulators stay in registers.
template <size_t NR>
inline void accumulate_rows(size_t nb, const float* const* w, const float* x, size_t ldx,
                            size_t n, v128_t (*acc)[kTile]) {
  switch (nb) {
    case 4: accumulate<NR, 4>(w, x, ldx, n, acc); break;
    case 3: accumulate<NR, 3>(w, x, ldx, n, acc); break;
    case 2: accumulate<NR, 2>(w, x, ldx, n, acc); break;
    default: accumulate<NR, 1>(w, x, ldx, n, acc); break;
  }
}

// Sums of rows w[0..nr) (nr = 4, as two pairs, or 1) against a tile of nb vectors into
// acc[row][vector]: columns [0, n) from x, then, when xt is given, one zero-padded group of 16
// (columns n .. n + 16 of the rows, against xt with ldx 16).
inline void row_sums(size_t nr, size_t nb, const float* const* w, const float* x, size_t ldx,
                     size_t n, const float* xt, v128_t (*acc)[kTile]) {
  for (size_t i = 0; i < nr; i++)
    for (size_t j = 0; j < nb; j++) acc[i][j] = wasm_f32x4_splat(0.0f);
  if (nr == 1) {
    accumulate_rows<1>(nb, w, x, ldx, n, acc);
    const float* tail = w[0] + n;
    if (xt) accumulate_rows<1>(nb, &tail, xt, 16, 16, acc);
    return;
  }
  for (size_t i = 0; i < 4; i += 2) {
    accumulate_rows<2>(nb, w + i, x, ldx, n, acc + i);
    const float* tails[2] = {w[i] + n, w[i + 1] + n};
    if (xt) accumulate_rows<2>(nb, tails, xt, 16, 16, acc + i);
  }
}

}  // namespace

void bl_f32_gemm__wasmsimd(size_t rows, size_t cols, const float* W, size_t ld, size_t B,
                           const float* X, size_t ldx, const float* bias, float* Y, size_t ldy) {
  assert(bl_check::gemm(rows, cols, ld, B, X, ldx, bias, Y, ldy));
  if (B == 1) return bl_f32_gemv__wasmsimd(rows, cols, W, ld, X, bias, Y);
  const size_t body = cols & ~size_t(3);
  size_t r = 0;
  for (; r + 4 <= rows; r += 4) {  // gemv's 4-row passes
    const float* w[4] = {W + r * ld, W + (r + 1) * ld, W + (r + 2) * ld, W + (r + 3) * ld};
    for (size_t b0 = 0; b0 < B; b0 += kTile) {
      const size_t nb = std::min(kTile, B - b0);
      v128_t acc[4][kTile];
      row_sums(4, nb, w, X + b0 * ldx, ldx, body, nullptr, acc);
      for (size_t j = 0; j < nb; j++) {
        const float* x = X + (b0 + j) * ldx;
        v128_t sum = bl_hsum4_f32x4(acc[0][j], acc[1][j], acc[2][j], acc[3][j]);
        if (body != cols) {
          float t[4] = {0.0f, 0.0f, 0.0f, 0.0f};
          for (size_t k = body; k < cols; k++) {
            t[0] += w[0][k] * x[k];
            t[1] += w[1][k] * x[k];
            t[2] += w[2][k] * x[k];
            t[3] += w[3][k] * x[k];
          }
          sum = wasm_f32x4_add(sum, wasm_v128_load(t));
        }
        if (bias) sum = wasm_f32x4_add(sum, wasm_v128_load(bias + r));
        wasm_v128_store(Y + (b0 + j) * ldy + r, sum);
      }
    }
  }
  for (; r < rows; r++) {  // gemv's single rows
    const float* w = W + r * ld;
    for (size_t b0 = 0; b0 < B; b0 += kTile) {
      const size_t nb = std::min(kTile, B - b0);
      v128_t acc[1][kTile];
      row_sums(1, nb, &w, X + b0 * ldx, ldx, body, nullptr, acc);
      for (size_t j = 0; j < nb; j++) {
        const float* x = X + (b0 + j) * ldx;
        float s = bl_hsum_f32x4(acc[0][j]);
        for (size_t k = body; k < cols; k++) s += w[k] * x[k];
        Y[(b0 + j) * ldy + r] = (bias ? bias[r] : 0.0f) + s;
      }
    }
  }
}

// int8: each vector quantized once with its own scale (as gemv does), then qs8-wasmsimd.h's
// 4-row pass for every vector while the block's 4 rows of W (4 x cols bytes) stay in L1. The
// products are exact integers, so any loop order gives gemv's bits. (Feeding each widened load
// of W to two vectors at once, 4 x 2 accumulators, measured 40% slower in V8 at B = 32.)
void bl_qs8_gemm__wasmsimd(size_t rows, size_t cols, const int8_t* W, size_t ld,
                           const float* scale, const int32_t* wsum, size_t B, const float* X, size_t ldx,
                           const float* bias, float* Y, size_t ldy) {
  assert(bl_check::gemm(rows, cols, ld, B, X, ldx, bias, Y, ldy));
  if (B == 1) return bl_qs8_gemv__wasmsimd(rows, cols, W, ld, scale, wsum, X, bias, Y);
  const size_t padded = (cols + 15) & ~size_t(15);
  BL_THREAD_LOCAL std::vector<int16_t> xq_buf;  // scratch.h: grown to the largest batch and matrix
  BL_THREAD_LOCAL std::vector<float> xs_buf;
  int16_t* xq = bl::fit(xq_buf, B * padded);
  float* xs = bl::fit(xs_buf, B);
  for (size_t b = 0; b < B; b++)
    xs[b] = bl_qd14_quantize__wasmsimd(cols, X + b * ldx, xq + b * padded);
  size_t r = 0;
  for (; r + 4 <= rows; r += 4) {
    const int8_t* w[4] = {W + r * ld, W + (r + 1) * ld, W + (r + 2) * ld, W + (r + 3) * ld};
    for (size_t b = 0; b < B; b++)
      bl_qs8::rows4(w, xq + b * padded, cols, scale + r, xs[b], bias ? bias + r : nullptr,
                    Y + b * ldy + r);
  }
  for (; r < rows; r++) {
    for (size_t b = 0; b < B; b++)
      Y[b * ldy + r] = bl_qs8::row1(W + r * ld, xq + b * padded, cols, scale[r], xs[b],
                                    bias ? bias + r : nullptr);
  }
}
