// The training product with fused multiply-adds (kernels.h, train_gemm_f32; the table of
// fused_train_kernels()), bit-identical to bl_f32_train_gemm_fused__scalar: each C element is
// c = fma(A(m, k), B[k*ldb + j], c), k ascending, rounded once per step.
//
// The tiles are train-gemm-wasmrelaxed.wat (this toolchain's clang cannot emit relaxed SIMD;
// the .wat says why), which the host installs (install_relaxed_gemm) and this file calls
// through a function pointer, panel by panel as train-gemm-wasmsimd.cpp goes. Columns past the
// last multiple of 4 (none in the shipped presets) go to the scalar twin.
#include <algorithm>
#include <cassert>
#include <cstring>
#include <utility>
#include <vector>

#include "kernels/train-checks.h"
#include "kernels/train-kernels-impl.h"

namespace {

// train-gemm-wasmrelaxed.wat's gemm(M, N, K, A, a_row, a_col, B, ldb, C, ldc), N % 4 == 0.
using Gemm = void (*)(size_t M, size_t N, size_t K, const float* A, size_t a_row, size_t a_col,
                      const float* B, size_t ldb, float* C, size_t ldc);
Gemm g_gemm = nullptr;

constexpr size_t kPanel = 256;  // as train-gemm-wasmsimd.cpp: a panel of B stays in cache

}  // namespace

void bl_f32_train_gemm_fused__wasmrelaxed(size_t M, size_t N, size_t K, const float* A,
                                          size_t a_row, size_t a_col, const float* B, size_t ldb,
                                          float* C, size_t ldc) {
  assert(bl_check::train_gemm(M, N, K, A, a_row, a_col, B, ldb, C, ldc));
  if (!g_gemm) return bl_f32_train_gemm_fused__scalar(M, N, K, A, a_row, a_col, B, ldb, C, ldc);
  const size_t n4 = N & ~size_t(3);
  for (size_t p0 = 0; p0 < n4; p0 += kPanel)
    g_gemm(M, std::min(n4, p0 + kPanel) - p0, K, A, a_row, a_col, B + p0, ldb, C + p0, ldc);
  if (n4 < N)
    bl_f32_train_gemm_fused__scalar(M, N - n4, K, A, a_row, a_col, B + n4, ldb, C + n4, ldc);
}

namespace {

// C0 + A B (A: M x K, B: K x N, both packed) through `gemm` and through the scalar twin, the
// same bits? twin: the twin's result, where the caller checks it too.
bool same_as_twin(Gemm gemm, size_t M, size_t N, size_t K, const float* A, const float* B,
                  const std::vector<float>& C0, std::vector<float>* twin = nullptr) {
  std::vector<float> got = C0, want = C0;
  gemm(M, N, K, A, K, 1, B, N, got.data(), N);
  bl_f32_train_gemm_fused__scalar(M, N, K, A, K, 1, B, N, want.data(), N);
  const bool same = std::memcmp(got.data(), want.data(), got.size() * sizeof(float)) == 0;
  if (twin) *twin = std::move(want);
  return same;
}

}  // namespace

// Checks the installed tiles against the scalar twin before trusting them: relaxed_madd may
// round twice (an engine, or a CPU without FMA), and then this kernel would not give the
// twin's bits; wasm-simd's mul then add stays in use there. First four midpoint cases, then a
// problem that takes every tile (rows 4 + 1, columns 8 + 4 and 16 + 4) with values whose fused
// and unfused results differ, twice. These calls run in the engine's first tier (V8's
// Liftoff): where an engine's optimizing tier rounds otherwise, this check cannot see it, and
// tests/node/relaxed-gemm.test.mjs (two runs of 30 steps, the same bits) is what would.
bool bl_relaxed_gemm_install__wasmrelaxed(uintptr_t table_index) {
  if (table_index == 0) return false;
  const Gemm gemm = reinterpret_cast<Gemm>(table_index);
  // Midpoints: each c + a b, exact, lies just off the midpoint of two floats, on which the
  // double sum lands, so that one more rounding decides. Rounded once, each gives c back. A
  // rounding of the double sum to the even float gets all four wrong, musl's fmaf in
  // Emscripten (which rounds it up in magnitude) the first two, and mul then add the first
  // two as well.
  const float a = 1.0f + 0x1p-23f, b = 0x1p-24f * (1.0f - 0x1p-23f);  // a b = 2^-24 - 2^-70
  const float odd = 1.0f + 0x1p-23f, odd3 = 1.0f + 3 * 0x1p-23f;
  const float mid_a[1] = {a}, mid_b[4] = {b, -b, -b, b};
  const std::vector<float> mid_c = {odd, -odd, odd3, -odd3};
  std::vector<float> twin;
  // ... and the twin must give c back too, or it is no reference to trust
  if (!same_as_twin(gemm, 1, 4, 1, mid_a, mid_b, mid_c, &twin) || twin != mid_c) return false;
  // Every tile.
  constexpr size_t kM = 5, kN = 20, kK = 7;
  std::vector<float> A(kM * kK), B(kK * kN), C0(kM * kN);
  for (size_t i = 0; i < A.size(); i++) A[i] = 1.0f + float(i % 11) / 1024.0f + 1e-7f * float(i);
  for (size_t i = 0; i < B.size(); i++) B[i] = 1.0f - float(i % 13) / 2048.0f - 3e-7f * float(i);
  for (size_t i = 0; i < C0.size(); i++) C0[i] = -float(i % 5) - 0.3f;
  for (int round = 0; round < 2; round++) {
    if (!same_as_twin(gemm, kM, kN, kK, A.data(), B.data(), C0)) return false;
  }
  g_gemm = gemm;
  return true;
}

bool bl_relaxed_gemm_installed__wasmrelaxed() { return g_gemm != nullptr; }
