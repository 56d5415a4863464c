// Training's elementwise math in wasm SIMD (kernels.h, train_exp_f32 / train_tanh_f32 /
// train_sigmoid_f32): exp here, math-wasmsimd.h's over the array; tanh and sigmoid are the
// inference kernels themselves (train-kernels-impl.h names them). What training adds is the
// scalar twin, train-math-scalar.cpp, which does each lane's operations one element at a time
// for the same bits (the inference scalar twin calls libm instead).
#include "kernels/checks.h"
#include "kernels/math-wasmsimd.h"
#include "kernels/train-kernels-impl.h"

void bl_f32_train_exp__wasmsimd(size_t n, const float* x, float* y) {
  assert(bl_check::same_or_apart(n, x, y));
  bl_map_f32x4(n, x, y, bl_vexp_f32x4);
}
