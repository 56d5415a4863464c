// Training's reductions, scalar reference (kernels.h, train_dot_f32 / train_sum_f32 /
// train_max_f32). A sum in index order is one long chain of dependent adds, which a CPU (and
// a wasm engine) cannot overlap, over a softmax's 3,000 logits or a 256-wide dot product per
// source word (with these kernels the trainer went from 21.2 to 23.2 steps/s in wasm-simd,
// docs/training-core.md). So element i goes to lane i % 16
// of 16 running sums (four f32x4 accumulators in the SIMD twin), each in index order, and the
// lanes are then combined in one fixed tree (combine16 below). Both twins do exactly these
// operations, so both tables give the same bits, and the two wasm variants still train alike.
#include "kernels/train-kernels-impl.h"
#include "kernels/train-reduce.h"

float bl_f32_train_dot__scalar(size_t n, const float* a, const float* b) {
  float acc[16] = {};
  bl_train_reduce::dot_tail(0, n, a, b, acc);
  return bl_train_reduce::combine16(acc);
}

float bl_f32_train_sum__scalar(size_t n, const float* x) {
  float acc[16] = {};
  bl_train_reduce::sum_tail(0, n, x, acc);
  return bl_train_reduce::combine16(acc);
}

float bl_f32_train_max__scalar(size_t n, const float* x) {
  float acc[16];
  for (float& v : acc) v = bl_train_reduce::kMinusInf;
  bl_train_reduce::max_tail(0, n, x, acc);
  return bl_train_reduce::max16(acc);
}
