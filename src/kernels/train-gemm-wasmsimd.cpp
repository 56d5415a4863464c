// The training pass's matrix product in wasm SIMD (kernels.h, train_gemm_f32), bit-identical to
// train-gemm-scalar.cpp: the lanes run over j (columns of B and C), and each lane does the
// scalar loop's operations for its element, mul then add, k ascending, starting from C's old
// value. No lane sums over k, so no horizontal add and no reassociation.
//
// Register tiles: 4 rows of C x 8 columns (8 accumulators; each load of B feeds 4 rows, each
// splat of A two vectors), then 4 x 4, then the columns left over one by one. Rows left over
// (M % 4, and M = 1, the matrix-vector products of one sentence) go 1 x 16, 1 x 4, then single
// columns: four independent accumulators keep the adds' latency hidden. Columns go in panels
// of kPanel, so that the panel of B (K x kPanel) stays in cache across the row blocks.
#include <algorithm>

#include "kernels/simd128.h"
#include "kernels/train-checks.h"
#include "kernels/train-kernels-impl.h"

#include <cassert>

namespace {

constexpr size_t kPanel = 256;  // columns of B per pass over the rows of A

// C[i][j0 + 4v + lane] for NR rows, NV vectors of columns from j0, over all K. The rows of A
// and B advance by pointer, not by index: V8's TurboFan computed each k * a_col and k * ldb
// with a multiply, and this loop ran 1.2-1.5x slower for it (scripts/bench, train rows).
template <size_t NR, size_t NV>
inline void tile(size_t K, const float* A, size_t a_row, size_t a_col, const float* B,
                 size_t ldb, float* C, size_t ldc) {
  v128_t acc[NR][NV];
  const float* a[NR];
  for (size_t i = 0; i < NR; i++) {
    a[i] = A + i * a_row;
    for (size_t v = 0; v < NV; v++) acc[i][v] = wasm_v128_load(C + i * ldc + 4 * v);
  }
  for (size_t k = 0; k < K; k++, B += ldb) {
    v128_t b[NV];
    for (size_t v = 0; v < NV; v++) b[v] = wasm_v128_load(B + 4 * v);
    for (size_t i = 0; i < NR; i++) {
      const v128_t ai = wasm_v128_load32_splat(a[i]);
      a[i] += a_col;
      for (size_t v = 0; v < NV; v++) acc[i][v] = wasm_f32x4_add(acc[i][v], wasm_f32x4_mul(ai, b[v]));
    }
  }
  for (size_t i = 0; i < NR; i++)
    for (size_t v = 0; v < NV; v++) wasm_v128_store(C + i * ldc + 4 * v, acc[i][v]);
}

// The scalar loop for single columns [j0, j1) of NR rows (the tail mod 4).
template <size_t NR>
inline void columns(size_t j0, size_t j1, size_t K, const float* A, size_t a_row, size_t a_col,
                    const float* B, size_t ldb, float* C, size_t ldc) {
  for (size_t i = 0; i < NR; i++)
    for (size_t j = j0; j < j1; j++) {
      float c = C[i * ldc + j];
      for (size_t k = 0; k < K; k++) c += A[i * a_row + k * a_col] * B[k * ldb + j];
      C[i * ldc + j] = c;
    }
}

}  // namespace

void bl_f32_train_gemm__wasmsimd(size_t M, size_t N, size_t K, const float* A, size_t a_row,
                                 size_t a_col, const float* B, size_t ldb, float* C, size_t ldc) {
  assert(bl_check::train_gemm(M, N, K, A, a_row, a_col, B, ldb, C, ldc));
  for (size_t p0 = 0; p0 < N; p0 += kPanel) {
    const size_t p1 = std::min(N, p0 + kPanel);
    size_t m = 0;
    for (; m + 4 <= M; m += 4) {
      const float* a = A + m * a_row;
      float* c = C + m * ldc;
      size_t j = p0;
      for (; j + 8 <= p1; j += 8) tile<4, 2>(K, a, a_row, a_col, B + j, ldb, c + j, ldc);
      for (; j + 4 <= p1; j += 4) tile<4, 1>(K, a, a_row, a_col, B + j, ldb, c + j, ldc);
      columns<4>(j, p1, K, a, a_row, a_col, B, ldb, c, ldc);
    }
    for (; m < M; m++) {
      const float* a = A + m * a_row;
      float* c = C + m * ldc;
      size_t j = p0;
      for (; j + 16 <= p1; j += 16) tile<1, 4>(K, a, a_row, a_col, B + j, ldb, c + j, ldc);
      for (; j + 4 <= p1; j += 4) tile<1, 1>(K, a, a_row, a_col, B + j, ldb, c + j, ldc);
      columns<1>(j, p1, K, a, a_row, a_col, B, ldb, c, ldc);
    }
  }
}
