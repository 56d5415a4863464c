// Training's reductions in wasm SIMD (kernels.h, train_dot_f32 / train_sum_f32 /
// train_max_f32): whole blocks of 16 elements in four f32x4 accumulators, whose lanes are
// train-reduce.h's 16 running values; the tail and the final tree are the scalar twin's own
// code, so every element meets the same operations in the same order and the bits agree.
#include "kernels/simd128.h"
#include "kernels/train-kernels-impl.h"
#include "kernels/train-reduce.h"

namespace {

// body(v, k): accumulator v with elements k .. k+3; tail(i, acc): elements i .. n-1 into the
// 16 stored lanes; tree(acc): the result.
template <class Body, class Tail, class Tree>
float blocks16(size_t n, v128_t init, Body body, Tail tail, Tree tree) {
  v128_t v[4] = {init, init, init, init};
  size_t i = 0;
  for (; i + 16 <= n; i += 16)
    for (size_t q = 0; q < 4; q++) v[q] = body(v[q], i + 4 * q);
  float acc[16];
  for (size_t q = 0; q < 4; q++) wasm_v128_store(acc + 4 * q, v[q]);
  tail(i, acc);
  return tree(acc);
}

}  // namespace

float bl_f32_train_dot__wasmsimd(size_t n, const float* a, const float* b) {
  return blocks16(
      n, wasm_f32x4_splat(0.0f),
      [&](v128_t v, size_t k) {
        return wasm_f32x4_add(v, wasm_f32x4_mul(wasm_v128_load(a + k), wasm_v128_load(b + k)));
      },
      [&](size_t i, float* acc) { bl_train_reduce::dot_tail(i, n, a, b, acc); },
      bl_train_reduce::combine16);
}

float bl_f32_train_sum__wasmsimd(size_t n, const float* x) {
  return blocks16(
      n, wasm_f32x4_splat(0.0f),
      [&](v128_t v, size_t k) { return wasm_f32x4_add(v, wasm_v128_load(x + k)); },
      [&](size_t i, float* acc) { bl_train_reduce::sum_tail(i, n, x, acc); },
      bl_train_reduce::combine16);
}

float bl_f32_train_max__wasmsimd(size_t n, const float* x) {
  return blocks16(
      n, wasm_f32x4_splat(bl_train_reduce::kMinusInf),
      [&](v128_t v, size_t k) { return wasm_f32x4_pmax(v, wasm_v128_load(x + k)); },
      [&](size_t i, float* acc) { bl_train_reduce::max_tail(i, n, x, acc); },
      bl_train_reduce::max16);
}
