// Vector math shared by the *-wasmsimd.cpp kernels: exp, tanh, sigmoid on f32x4, horizontal
// sums, and a helper that runs an f32x4 function over an array of any length.
//
// Header-only and `static inline` on purpose: these sit in the innermost loops, and a call
// across translation units per 4 floats would cost more than the math. Include it only from
// *-wasmsimd.cpp files, so builds without BL_SIMD contain no SIMD code.
//
// Accuracy target (tests/cpp/kernels_test.cpp checks it): within 1e-6 relative of libm on
// [-30, 30]. The polynomials are Cephes' expf/tanhf ones, which are ~1 ulp on their ranges.
#pragma once
#include <cstddef>
#include <cstring>

#include "kernels/simd128.h"

// exp(x) for x in [-87.33, 88.37]; 0 below (including -inf, so masked softmax entries vanish),
// clamped above; NaN in, NaN out.
static inline v128_t bl_vexp_f32x4(v128_t x) {
  // ln(2^-126): below this the 2^n scale would need a subnormal exponent field.
  const v128_t lo = wasm_f32x4_splat(-87.33654f);
  // Just under ln(2^127.5), so n rounds to at most 127 and 2^n stays a normal float.
  const v128_t hi = wasm_f32x4_splat(88.37626f);
  const v128_t log2e = wasm_f32x4_splat(1.44269504088896341f);
  // Adding 1.5 * 2^23 pushes the fraction bits out, so the float add itself rounds to the
  // nearest integer, and that integer sits in the low mantissa bits; no float->int conversion
  // (and no `nearest`, which SSE2 lacks) is needed.
  const v128_t magic = wasm_f32x4_splat(12582912.0f);
  // ln2 split in two (Cody-Waite): c1 has few significant bits, so n * c1 is exact and
  // x - n*ln2 loses no precision even for |n| ~ 127.
  const v128_t ln2_hi = wasm_f32x4_splat(0.693359375f);
  const v128_t ln2_lo = wasm_f32x4_splat(-2.12194440e-4f);
  const v128_t one = wasm_f32x4_splat(1.0f);

  const v128_t underflow = wasm_f32x4_lt(x, lo);
  // pmin/pmax map to single minps/maxps on x86 (min/max need NaN fix-ups); with x as the first
  // operand they also pass a NaN x through.
  v128_t xc = wasm_f32x4_pmax(x, lo);
  xc = wasm_f32x4_pmin(xc, hi);

  const v128_t nm = wasm_f32x4_add(wasm_f32x4_mul(xc, log2e), magic);
  const v128_t n = wasm_f32x4_sub(nm, magic);
  v128_t r = wasm_f32x4_sub(xc, wasm_f32x4_mul(n, ln2_hi));
  r = wasm_f32x4_sub(r, wasm_f32x4_mul(n, ln2_lo));

  // exp(r) on |r| <= ln2/2.
  v128_t p = wasm_f32x4_splat(1.9875691500e-4f);
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.3981999507e-3f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(8.3334519073e-3f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(4.1665795894e-2f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.6666665459e-1f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(5.0000001201e-1f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, wasm_f32x4_mul(r, r)), wasm_f32x4_add(r, one));

  // 2^n built directly in the exponent field: the low bits of nm hold n (two's complement), and
  // shifting by 23 drops the magic's own bits, leaving n << 23 to add to the bits of 1.0f.
  const v128_t scale = wasm_i32x4_add(wasm_i32x4_shl(nm, 23), one);
  const v128_t y = wasm_f32x4_mul(p, scale);
  return wasm_v128_andnot(y, underflow);
}

static inline v128_t bl_vtanh_f32x4(v128_t x) {
  const v128_t sign_mask = wasm_f32x4_splat(-0.0f);
  const v128_t one = wasm_f32x4_splat(1.0f);
  const v128_t two = wasm_f32x4_splat(2.0f);
  const v128_t t = wasm_f32x4_abs(x);

  // Small |x|: 1 - 2/(e^2x + 1) would cancel catastrophically near 0 (tanh(1e-8) would come
  // out 0), so use Cephes' odd polynomial, x + x^3 P(x^2), which is exact in relative terms.
  const v128_t z = wasm_f32x4_mul(x, x);
  v128_t p = wasm_f32x4_splat(-5.70498872745e-3f);
  p = wasm_f32x4_add(wasm_f32x4_mul(p, z), wasm_f32x4_splat(2.06390887954e-2f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, z), wasm_f32x4_splat(-5.37397155531e-2f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, z), wasm_f32x4_splat(1.33314422036e-1f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, z), wasm_f32x4_splat(-3.33332819422e-1f));
  const v128_t small = wasm_f32x4_add(wasm_f32x4_mul(wasm_f32x4_mul(p, z), x), x);

  // Large |x|: past |x| ~ 9.02, 2/(e^2x + 1) is under half an ulp of 1 and the result rounds to
  // exactly 1; clamping at 10 keeps e^2x far from overflow and still gives tanh(inf) = 1.
  const v128_t tc = wasm_f32x4_pmin(t, wasm_f32x4_splat(10.0f));
  const v128_t e = bl_vexp_f32x4(wasm_f32x4_add(tc, tc));
  v128_t large = wasm_f32x4_sub(one, wasm_f32x4_div(two, wasm_f32x4_add(e, one)));
  large = wasm_v128_or(large, wasm_v128_and(x, sign_mask));

  // Compare on t, not x, so the negative half takes the same branch; a NaN fails the compare
  // and comes out of the large branch as NaN.
  return wasm_v128_bitselect(small, large, wasm_f32x4_lt(t, wasm_f32x4_splat(0.625f)));
}

static inline v128_t bl_vsigmoid_f32x4(v128_t x) {
  const v128_t one = wasm_f32x4_splat(1.0f);
  // exp(-|x|) is at most 1, so nothing overflows; for x < 0 the answer is z/(1+z) rather than
  // 1 - 1/(1+z), which keeps full relative precision as sigmoid(x) heads to 0.
  const v128_t z = bl_vexp_f32x4(wasm_v128_or(x, wasm_f32x4_splat(-0.0f)));
  const v128_t num = wasm_v128_bitselect(z, one, wasm_f32x4_lt(x, wasm_f32x4_splat(0.0f)));
  return wasm_f32x4_div(num, wasm_f32x4_add(one, z));
}

// Sum of all four lanes.
static inline float bl_hsum_f32x4(v128_t a) {
  a = wasm_f32x4_add(a, wasm_i32x4_shuffle(a, a, 2, 3, 0, 1));
  a = wasm_f32x4_add(a, wasm_i32x4_shuffle(a, a, 1, 0, 3, 2));
  return wasm_f32x4_extract_lane(a, 0);
}

// {sum(a), sum(b), sum(c), sum(d)}: one transpose-and-add instead of four separate reductions,
// so four output rows finish with a single store.
static inline v128_t bl_hsum4_f32x4(v128_t a, v128_t b, v128_t c, v128_t d) {
  const v128_t ab = wasm_f32x4_add(wasm_i32x4_shuffle(a, b, 0, 4, 1, 5),   // a0 b0 a1 b1
                                   wasm_i32x4_shuffle(a, b, 2, 6, 3, 7));  // a2 b2 a3 b3
  const v128_t cd =
      wasm_f32x4_add(wasm_i32x4_shuffle(c, d, 0, 4, 1, 5), wasm_i32x4_shuffle(c, d, 2, 6, 3, 7));
  return wasm_f32x4_add(wasm_i32x4_shuffle(ab, cd, 0, 1, 4, 5),
                        wasm_i32x4_shuffle(ab, cd, 2, 3, 6, 7));
}

// y[i] = f(x[i]) four at a time; the last n % 4 go through a zero-padded stack buffer so f is
// written once and never reads or writes past the arrays. y may equal x.
template <typename F>
static inline void bl_map_f32x4(size_t n, const float* x, float* y, F f) {
  for (; n >= 4; n -= 4, x += 4, y += 4) wasm_v128_store(y, f(wasm_v128_load(x)));
  if (n != 0) {
    float buf[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    std::memcpy(buf, x, n * sizeof(float));
    wasm_v128_store(buf, f(wasm_v128_load(buf)));
    std::memcpy(y, buf, n * sizeof(float));
  }
}
