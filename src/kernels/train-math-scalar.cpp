// Training's elementwise math, scalar twin (kernels.h, train_exp_f32 / train_tanh_f32 /
// train_sigmoid_f32): each element goes through the operations that one lane of
// math-wasmsimd.h's bl_vexp_f32x4, bl_vtanh_f32x4 and bl_vsigmoid_f32x4 does, in the same
// order and with the same rounding, so this table and the SIMD one give the same bits. Not
// libm: the scalar wasm variant must train exactly as the SIMD one does.
//
// The lane operations spelled out: pmin/pmax are wasm's (b < a ? b : a and a < b ? b : a, which
// pass a NaN first operand through), the bit tricks go through memcpy, and every product and
// sum is its own rounded f32 operation (no FMA: CMakeLists.txt builds with -ffp-contract=off).
#include <cstdint>
#include <cstring>

#include "kernels/checks.h"
#include "kernels/train-kernels-impl.h"

namespace {

inline uint32_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

inline float from_bits(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

inline float pmin(float a, float b) { return b < a ? b : a; }
inline float pmax(float a, float b) { return a < b ? b : a; }

// bl_vexp_f32x4's lane: the constants and the steps are its own (their reasons are there).
inline float exp_lane(float x) {
  const float lo = -87.33654f, hi = 88.37626f, log2e = 1.44269504088896341f;
  const float magic = 12582912.0f, ln2_hi = 0.693359375f, ln2_lo = -2.12194440e-4f;
  const bool underflow = x < lo;
  const float xc = pmin(pmax(x, lo), hi);
  const float t = xc * log2e;
  const float nm = t + magic;
  const float n = nm - magic;
  const float nh = n * ln2_hi;
  float r = xc - nh;
  const float nl = n * ln2_lo;
  r = r - nl;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  const float rr = r * r;
  const float pr = p * rr;
  const float r1 = r + 1.0f;
  p = pr + r1;
  const float scale = from_bits((bits(nm) << 23) + bits(1.0f));  // i32x4 shl, add
  const float y = p * scale;
  return underflow ? 0.0f : y;  // andnot: +0
}

inline float tanh_lane(float x) {
  const float t = from_bits(bits(x) & 0x7fffffffu);  // f32x4.abs
  const float z = x * x;
  float p = -5.70498872745e-3f;
  p = p * z + 2.06390887954e-2f;
  p = p * z + -5.37397155531e-2f;
  p = p * z + 1.33314422036e-1f;
  p = p * z + -3.33332819422e-1f;
  const float pz = p * z;
  const float small = pz * x + x;
  const float tc = pmin(t, 10.0f);
  const float e = exp_lane(tc + tc);
  const float q = 2.0f / (e + 1.0f);
  const float large = from_bits(bits(1.0f - q) | (bits(x) & 0x80000000u));
  return t < 0.625f ? small : large;
}

inline float sigmoid_lane(float x) {
  const float z = exp_lane(from_bits(bits(x) | 0x80000000u));  // exp(-|x|)
  const float num = x < 0.0f ? z : 1.0f;
  return num / (1.0f + z);
}

template <float (*F)(float)>
void map(size_t n, const float* x, float* y) {
  assert(bl_check::same_or_apart(n, x, y));
  for (size_t i = 0; i < n; i++) y[i] = F(x[i]);
}

}  // namespace

void bl_f32_train_exp__scalar(size_t n, const float* x, float* y) { map<exp_lane>(n, x, y); }
void bl_f32_train_tanh__scalar(size_t n, const float* x, float* y) { map<tanh_lane>(n, x, y); }
void bl_f32_train_sigmoid__scalar(size_t n, const float* x, float* y) {
  map<sigmoid_lane>(n, x, y);
}
