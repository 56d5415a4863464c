// Reference matrix-vector products: the plain loops every other variant is tested against.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "kernels/checks.h"
#include "kernels/kernels-impl.h"
#include "kernels/scratch.h"

void bl_f32_gemv__scalar(size_t rows, size_t cols, const float* W, size_t ld, const float* x,
                         const float* bias, float* y) {
  assert(bl_check::gemv(rows, cols, ld, x, bias, y));
  for (size_t r = 0; r < rows; r++) {
    const float* w = W + r * ld;
    float acc = 0.0f;
    for (size_t k = 0; k < cols; k++) acc += w[k] * x[k];
    y[r] = (bias ? bias[r] : 0.0f) + acc;
  }
}

// x quantized to 14-bit integers (stored as int16) with one scale for the vector (qd14):
//   amax = max |x[k]|,  xq[k] = round_half_even(x[k] * (8191 / amax)),  xs = amax / 8191.
// Why 14 bits (kernels.h): u = xq + 8192 is in [1, 16383], so u = 128 * hi + lo with hi and lo
// in [0, 127], which is what relaxed SIMD's 7-bit dot product takes.
// Rounding adds 1.5 * 2^23 in f32: for |v| < 2^22 the sum's low mantissa bits are v rounded to
// an integer (the FPU's round-half-even), read off its bits. That is plain f32 arithmetic, so
// the SIMD version gets the same xq with f32x4 ops and no dependence on a rounding intrinsic.
// The compiler must not fuse x * inv + magic into an FMA (wasm has none; x86-64 without -mfma
// has none either). x must be finite. xq is zero-padded to a multiple of 16 (the SIMD kernels
// read whole groups of 16; the scalar loops ignore the padding).
float bl_qd14_quantize__scalar(size_t n, const float* x, int16_t* xq) {
  float amax = 0.0f;
  for (size_t k = 0; k < n; k++) amax = amax < std::fabs(x[k]) ? std::fabs(x[k]) : amax;
  const size_t padded = (n + 15) & ~size_t(15);
  std::fill(xq, xq + padded, int16_t(0));
  if (amax == 0.0f) return 0.0f;
  const float inv = 8191.0f / amax, magic = 12582912.0f;
  int32_t magic_bits;
  std::memcpy(&magic_bits, &magic, sizeof magic_bits);
  for (size_t k = 0; k < n; k++) {
    const float v = x[k] * inv + magic;  // |x[k] * inv| <= 8191.001: rounds into [-8191, 8191]
    int32_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    xq[k] = static_cast<int16_t>(bits - magic_bits);
  }
  return amax / 8191.0f;
}

// sum_k w[k] * xq[k], exactly. |w * xq| <= 128 * 8191, so 2048 products fit an int32; longer
// rows add int32 partial sums of 2048 into an int64. Any grouping gives the same integer, which
// is why the SIMD kernels, whose lanes group the products differently, agree with this bit for
// bit.
int64_t bl_qs8_dot__scalar(size_t n, const int8_t* w, const int16_t* xq) {
  int64_t tot = 0;
  for (size_t k0 = 0; k0 < n; k0 += 2048) {
    const size_t k1 = std::min(n, k0 + 2048);
    int32_t s = 0;
    for (size_t k = k0; k < k1; k++) s += int32_t(w[k]) * int32_t(xq[k]);
    tot += s;
  }
  return tot;
}

// The quantized x of every ISA's int8 gemv, grown to the widest matrix once (scratch.h).
int16_t* bl_qd14_scratch(size_t n) {
  BL_THREAD_LOCAL std::vector<int16_t> buf;
  return bl::fit(buf, n);
}

// y[r] = (scale[r] * xs) * float(dot_r) + bias[r]: the row's exact integer dot product with the
// quantized x, converted once (correctly rounded) and scaled by the row's and the vector's
// scales. Error against the f32-activation product: at most xs / 2 per activation, i.e.
// |y - y_f32| <= scale[r] * sum_k |w[k]| * amax / 16382 (tests/cpp/qs8_test.cpp checks it).
void bl_qs8_gemv__scalar(size_t rows, size_t cols, const int8_t* W, size_t ld, const float* scale,
                         const int32_t* /*wsum*/, const float* x, const float* bias, float* y) {
  assert(bl_check::gemv(rows, cols, ld, x, bias, y));
  int16_t* xq = bl_qd14_scratch((cols + 15) & ~size_t(15));
  const float xs = bl_qd14_quantize__scalar(cols, x, xq);
  for (size_t r = 0; r < rows; r++) {
    const float v = (scale[r] * xs) * float(bl_qs8_dot__scalar(cols, W + r * ld, xq));
    y[r] = bias ? v + bias[r] : v;
  }
}
