// The int8 products with relaxed SIMD: the same integers as gemv-scalar.cpp, faster where the JS
// engine runs i32x4.relaxed_dot_i8x16_i7x16_add_s well (16 multiply-adds, which a CPU with a
// byte dot product, x86 VNNI or ARM's sdot, does in one instruction; scripts/bench --browser
// measures it).
//
// That instruction multiplies signed bytes by bytes in [0, 127]. The activations are 14-bit
// (kernels.h, qd14), so each becomes two such bytes:
//   u = xq + 8192 in [1, 16383],  hi = u >> 7,  lo = u & 127,
//   sum_k w[k] xq[k] = 128 * sum_k w[k] hi[k] + sum_k w[k] lo[k] - 8192 * sum_k w[k],
// the last sum being the row's wsum (Matrix::row_sum). Every term is an exact integer, so the
// result is gemv-scalar.cpp's bit for bit, and the engines still give identical tokens.
//
// The loop itself is qs8-wasmrelaxed.wat (this toolchain's clang cannot emit the instruction);
// the host installs it (install_relaxed_dots) and it is called through a function pointer. Rows
// past the last multiple of 4 are summed here, exactly; rows whose length is not a multiple of
// 16 go to the wasm-simd kernel, which gives the same bits.
#include <cstring>
#include <vector>

#include "kernels/checks.h"
#include "kernels/kernels-impl.h"
#include "kernels/math-wasmsimd.h"
#include "kernels/qs8-wasmsimd.h"
#include "kernels/scratch.h"

namespace {

// qs8-wasmrelaxed.wat's dots(W, ld, rows, cols, uh, ul, out).
using Dots = void (*)(const int8_t* W, size_t ld, size_t rows, size_t cols, const uint8_t* uh,
                      const uint8_t* ul, int32_t* out);
Dots g_dots = nullptr;

// Rows up to qs8-wasmsimd.h's kI32Cols (2048, more than any model here has): there every sum
// and the exact result fit i32. Wider rows go to the wasm-simd kernel, which gives the same bits.
constexpr size_t kMaxCols = bl_qs8::kI32Cols;

// x's two 7-bit halves and the loop's sums, grown to the widest matrix once (scratch.h).
struct Scratch {
  std::vector<uint8_t> uh, ul;
  std::vector<int32_t> sums;
};
BL_THREAD_LOCAL Scratch g_scratch;

// xq -> hi, lo bytes, 16 at a time (n a multiple of 16).
void split(size_t n, const int16_t* xq, uint8_t* uh, uint8_t* ul) {
  assert(n % 16 == 0);
  const v128_t offset = wasm_i16x8_splat(8192), low7 = wasm_i16x8_splat(127);
  for (size_t k = 0; k < n; k += 16) {
    const v128_t u0 = wasm_i16x8_add(wasm_v128_load(xq + k), offset);
    const v128_t u1 = wasm_i16x8_add(wasm_v128_load(xq + k + 8), offset);
    wasm_v128_store(uh + k, wasm_u8x16_narrow_i16x8(wasm_u16x8_shr(u0, 7), wasm_u16x8_shr(u1, 7)));
    wasm_v128_store(ul + k, wasm_u8x16_narrow_i16x8(wasm_v128_and(u0, low7), wasm_v128_and(u1, low7)));
  }
}

// The exact dot products of 4 rows with xq, as f32. With cols <= kMaxCols the exact result
// fits i32 (|w xq| <= 128 * 8191 per column), so i32 arithmetic that wraps in its intermediate
// steps (128 hi alone may not fit) still ends on the exact integer, and f32x4.convert_i32x4_s
// rounds it once, as the scalar twin's float(int64) does.
v128_t dots4(v128_t hi, v128_t lo, v128_t wsum) {
  const v128_t dot =
      wasm_i32x4_sub(wasm_i32x4_add(wasm_i32x4_shl(hi, 7), lo), wasm_i32x4_shl(wsum, 13));
  return wasm_f32x4_convert_i32x4(dot);
}

}  // namespace

void bl_qs8_gemv__wasmrelaxed(size_t rows, size_t cols, const int8_t* W, size_t ld,
                              const float* scale, const int32_t* wsum, const float* x,
                              const float* bias, float* y) {
  assert(bl_check::gemv(rows, cols, ld, x, bias, y));
  const size_t rows4 = rows & ~size_t(3);
  // Rows that are not whole groups of 16 columns (no shipped matrix has them) go to wasm-simd.
  if (!g_dots || !wsum || cols % 16 != 0 || cols > kMaxCols || rows4 == 0)
    return bl_qs8_gemv__wasmsimd(rows, cols, W, ld, scale, wsum, x, bias, y);
  int16_t* xq = bl_qd14_scratch(cols);
  const float xs = bl_qd14_quantize__wasmsimd(cols, x, xq);
  uint8_t* uh = bl::fit(g_scratch.uh, cols);
  uint8_t* ul = bl::fit(g_scratch.ul, cols);
  int32_t* all_sums = bl::fit(g_scratch.sums, 2 * rows4);
  split(cols, xq, uh, ul);
  g_dots(W, ld, rows4, cols, uh, ul, all_sums);
  for (size_t r = 0; r < rows4; r += 4) {
    const int32_t* sums = all_sums + 2 * r;
    const v128_t dots =
        dots4(wasm_v128_load(sums), wasm_v128_load(sums + 4), wasm_v128_load(wsum + r));
    bl_qs8::store4(dots, scale + r, xs, bias ? bias + r : nullptr, y + r);
  }
  for (size_t r = rows4; r < rows; r++) {  // the last rows % 4: the scalar twin's formula
    const float v = (scale[r] * xs) * float(bl_qs8_dot__scalar(cols, W + r * ld, xq));
    y[r] = bias ? v + bias[r] : v;
  }
}

// Each vector as gemv does it: the relaxed loop's cost is its multiply-adds, not the weight
// reads a batch would share (README, "Batched translation").
void bl_qs8_gemm__wasmrelaxed(size_t rows, size_t cols, const int8_t* W, size_t ld,
                              const float* scale, const int32_t* wsum, size_t B, const float* X,
                              size_t ldx, const float* bias, float* Y, size_t ldy) {
  assert(bl_check::gemm(rows, cols, ld, B, X, ldx, bias, Y, ldy));
  for (size_t b = 0; b < B; b++)
    bl_qs8_gemv__wasmrelaxed(rows, cols, W, ld, scale, wsum, X + b * ldx, bias, Y + b * ldy);
}

// Checks the installed loop on a fixed problem against the exact sums before trusting it: an
// engine that validates relaxed SIMD but computes the instruction differently (Node 20's
// baseline compiler doubles some accumulators) is refused, and wasm-simd is used instead. The
// check runs the loop's first calls, i.e. the engine's baseline code; the code its optimizing
// compiler makes later is not checked here (tests/browser/relaxed.test.mjs checks Chromium's
// on 1,000 sentences).
bool bl_relaxed_install__wasmrelaxed(uintptr_t table_index) {
  if (table_index == 0) return false;
  const Dots dots = reinterpret_cast<Dots>(table_index);
  constexpr size_t kRows = 8, kCols = 48, kLd = 50;
  std::vector<int8_t> W(kRows * kLd);
  std::vector<uint8_t> uh(kCols), ul(kCols);
  for (size_t i = 0; i < W.size(); i++) W[i] = int8_t(i % 7 == 0 ? -128 : int(i * 37 % 256) - 128);
  for (size_t k = 0; k < kCols; k++) {
    uh[k] = uint8_t(k * 13 % 128);
    ul[k] = uint8_t(k % 3 ? 127 : k * 5 % 128);
  }
  for (int round = 0; round < 2; round++) {  // twice: a second call must not see the first's sums
    std::vector<int32_t> out(2 * kRows, 12345);
    dots(W.data(), kLd, kRows, kCols, uh.data(), ul.data(), out.data());
    for (size_t r = 0; r < kRows; r++) {
      int32_t hi = 0, lo = 0;
      for (size_t k = 0; k < kCols; k++) {
        hi += int32_t(W[r * kLd + k]) * uh[k];
        lo += int32_t(W[r * kLd + k]) * ul[k];
      }
      if (out[8 * (r / 4) + r % 4] != hi || out[8 * (r / 4) + 4 + r % 4] != lo) return false;
    }
  }
  g_dots = dots;
  return true;
}

bool bl_relaxed_installed__wasmrelaxed() { return g_dots != nullptr; }
