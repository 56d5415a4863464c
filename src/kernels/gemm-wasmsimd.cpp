// Batched matrix products in wasm SIMD: B vectors against one matrix, each output bit-identical
// to gemv-wasmsimd.cpp's for the same row and vector (kernels.h says why that matters).
//
// To be identical, every (row, vector) pair repeats gemv's arithmetic in gemv's order:
//   - rows in blocks of 4 from row 0, then the rows % 4 left over one by one, as gemv does:
//     the two kinds finish their sums differently (bl_hsum4_f32x4 and a vector tail, or
//     bl_hsum_f32x4 and a scalar tail), so a row must be finished the way gemv finishes it;
//   - per row, 4 lane-accumulators over k in steps of 4 (int8: 16, which is the same sequence
//     of 4-wide adds), the same tail, then scale and bias in gemv's order.
//
// What batching saves: the loops run row block by row block, and inside a block over the
// vectors in tiles of 4. A block's 4 rows of W (a few KB) come from memory once, then serve
// every tile from L1; in a tile each load of W feeds 4 vectors, and int8 rows are widened to
// f32 once per call instead of once per vector. The B vectors (B x cols floats, tens of KB)
// are what gets re-read per block, from L1/L2. The multiply and add per weight and vector stay:
// they are gemv's arithmetic. At batch 1 the kernels just call gemv.
#include <algorithm>
#include <vector>

#include "kernels/kernels-impl.h"
#include "kernels/math-wasmsimd.h"

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

namespace {

// Row w of an int8 matrix as floats (exactly), zero-padded from cols to `padded` (cols rounded
// up to 16): gemv_i8 runs its last cols % 16 weights as a zero-padded group of 16, and the
// padding's 0 * 0 products are part of its sum. Widened once per call, then read for all B
// vectors, so the int8 -> f32 work is shared by the batch.
void widen_row(const int8_t* w, size_t cols, size_t padded, float* out) {
  v128_t wf[4];
  for (size_t k = 0; k < padded; k += 16) {
    v128_t v;
    if (k + 16 <= cols) {
      v = wasm_v128_load(w + k);
    } else {  // the tail, as gemv's load_w_tail pads it
      int8_t buf[16] = {0};
      std::memcpy(buf, w + k, cols - k);
      v = wasm_v128_load(buf);
    }
    bl_widen_i8x16_f32(v, wf);
    for (size_t i = 0; i < 4; i++) wasm_v128_store(out + k + 4 * i, wf[i]);
  }
}

// The zero-padded tails of a tile's vectors, as gemv_i8 builds its xt.
void load_tails(const float* X, size_t ldx, size_t b0, size_t nb, size_t body, size_t tail,
                float (*xt)[16]) {
  for (size_t j = 0; j < nb; j++) {
    std::fill(xt[j], xt[j] + 16, 0.0f);
    std::memcpy(xt[j], X + (b0 + j) * ldx + body, tail * sizeof(float));
  }
}

}  // namespace

void bl_qs8_gemm__wasmsimd(size_t rows, size_t cols, const int8_t* W, size_t ld,
                           const float* scale, size_t B, const float* X, size_t ldx,
                           const float* bias, float* Y, size_t ldy) {
  if (B == 1) return bl_qs8_gemv__wasmsimd(rows, cols, W, ld, scale, X, bias, Y);
  const size_t body = cols & ~size_t(15);
  const size_t tail = cols - body;
  const size_t padded = body + (tail ? 16 : 0);
  // One Model runs on one thread at a time (model.cpp's scratch is thread_local for the same
  // reason); grown once to 4 rows of the widest matrix, then reused.
  thread_local std::vector<float> widened;
  if (widened.size() < 4 * padded) widened.resize(4 * padded);
  float* wf[4] = {widened.data(), widened.data() + padded, widened.data() + 2 * padded,
                  widened.data() + 3 * padded};
  float xt[kTile][16];
  size_t r = 0;
  for (; r + 4 <= rows; r += 4) {
    for (size_t i = 0; i < 4; i++) widen_row(W + (r + i) * ld, cols, padded, wf[i]);
    for (size_t b0 = 0; b0 < B; b0 += kTile) {
      const size_t nb = std::min(kTile, B - b0);
      if (tail) load_tails(X, ldx, b0, nb, body, tail, xt);
      v128_t acc[4][kTile];
      row_sums(4, nb, wf, X + b0 * ldx, ldx, body, tail ? xt[0] : nullptr, acc);
      for (size_t j = 0; j < nb; j++) {
        v128_t sum = wasm_f32x4_mul(wasm_v128_load(scale + r),
                                    bl_hsum4_f32x4(acc[0][j], acc[1][j], acc[2][j], acc[3][j]));
        if (bias) sum = wasm_f32x4_add(sum, wasm_v128_load(bias + r));
        wasm_v128_store(Y + (b0 + j) * ldy + r, sum);
      }
    }
  }
  for (; r < rows; r++) {
    widen_row(W + r * ld, cols, padded, wf[0]);
    for (size_t b0 = 0; b0 < B; b0 += kTile) {
      const size_t nb = std::min(kTile, B - b0);
      if (tail) load_tails(X, ldx, b0, nb, body, tail, xt);
      v128_t acc[1][kTile];
      row_sums(1, nb, wf, X + b0 * ldx, ldx, body, tail ? xt[0] : nullptr, acc);
      for (size_t j = 0; j < nb; j++)
        Y[(b0 + j) * ldy + r] = (bias ? bias[r] : 0.0f) + scale[r] * bl_hsum_f32x4(acc[0][j]);
    }
  }
}
