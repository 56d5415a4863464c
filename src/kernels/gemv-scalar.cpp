// Reference matrix-vector products: the plain loops every other variant is tested against.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "kernels/kernels-impl.h"

void bl_f32_gemv__scalar(size_t rows, size_t cols, const float* W, size_t ld, const float* x,
                         const float* bias, float* y) {
  for (size_t r = 0; r < rows; r++) {
    const float* w = W + r * ld;
    float acc = 0.0f;
    for (size_t k = 0; k < cols; k++) acc += w[k] * x[k];
    y[r] = (bias ? bias[r] : 0.0f) + acc;
  }
}

// x quantized to int16 with one scale for the vector (qd16):
//   amax = max |x[k]|,  xq[k] = round_half_even(x[k] * (32767 / amax)),  xs = amax / 32767.
// Rounding adds 1.5 * 2^23 in f32: for |v| < 2^22 the sum's low mantissa bits are v rounded to
// an integer (the FPU's round-half-even), read off its bits. That is plain f32 arithmetic, so
// the SIMD version gets the same xq with f32x4 ops and no dependence on a rounding intrinsic.
// The compiler must not fuse x * inv + magic into an FMA (wasm has none; x86-64 without -mfma
// has none either). x must be finite. xq is zero-padded to a multiple of 16 (the SIMD kernels
// read whole groups of 16; the scalar loops ignore the padding).
float bl_qd16_quantize__scalar(size_t n, const float* x, int16_t* xq) {
  float amax = 0.0f;
  for (size_t k = 0; k < n; k++) amax = amax < std::fabs(x[k]) ? std::fabs(x[k]) : amax;
  const size_t padded = (n + 15) & ~size_t(15);
  std::fill(xq, xq + padded, int16_t(0));
  if (amax == 0.0f) return 0.0f;
  const float inv = 32767.0f / amax, magic = 12582912.0f;
  int32_t magic_bits;
  std::memcpy(&magic_bits, &magic, sizeof magic_bits);
  for (size_t k = 0; k < n; k++) {
    const float v = x[k] * inv + magic;  // |x[k] * inv| <= 32767.004: rounds into [-32767, 32767]
    int32_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    xq[k] = static_cast<int16_t>(bits - magic_bits);
  }
  return amax / 32767.0f;
}

// sum_k w[k] * xq[k], exactly. |w * xq| <= 128 * 32767, so 512 products fit an int32; longer
// rows add int32 partial sums of 512 into an int64. Any grouping gives the same integer, which
// is why the SIMD kernels, whose lanes group the products differently, agree with this bit for
// bit.
int64_t bl_qs8_dot__scalar(size_t n, const int8_t* w, const int16_t* xq) {
  int64_t tot = 0;
  for (size_t k0 = 0; k0 < n; k0 += 512) {
    const size_t k1 = std::min(n, k0 + 512);
    int32_t s = 0;
    for (size_t k = k0; k < k1; k++) s += int32_t(w[k]) * int32_t(xq[k]);
    tot += s;
  }
  return tot;
}

int16_t* bl_qd16_scratch__scalar(size_t n) {
  thread_local std::vector<int16_t> buf;  // one Model per thread at a time, as model.cpp says
  if (buf.size() < n) buf.resize(n);
  return buf.data();
}

// y[r] = (scale[r] * xs) * float(dot_r) + bias[r]: the row's exact integer dot product with the
// quantized x, converted once (correctly rounded) and scaled by the row's and the vector's
// scales. Error against the f32-activation product: at most xs / 2 per activation, i.e.
// |y - y_f32| <= scale[r] * sum_k |w[k]| * amax / 65534 (tests/cpp/qs8_test.cpp checks it).
void bl_qs8_gemv__scalar(size_t rows, size_t cols, const int8_t* W, size_t ld, const float* scale,
                         const float* x, const float* bias, float* y) {
  int16_t* xq = bl_qd16_scratch__scalar((cols + 15) & ~size_t(15));
  const float xs = bl_qd16_quantize__scalar(cols, x, xq);
  for (size_t r = 0; r < rows; r++) {
    const float v = (scale[r] * xs) * float(bl_qs8_dot__scalar(cols, W + r * ld, xq));
    y[r] = bias ? v + bias[r] : v;
  }
}
