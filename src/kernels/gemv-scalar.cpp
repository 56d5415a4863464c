// Reference matrix-vector products: the plain loops every other variant is tested against.
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

// x stays f32: quantizing the activations too would save little on a decoder step and would
// move the result away from the f32 model the int8 export is checked against.
void bl_qs8_gemv__scalar(size_t rows, size_t cols, const int8_t* W, size_t ld, const float* scale,
                         const float* x, const float* bias, float* y) {
  for (size_t r = 0; r < rows; r++) {
    const int8_t* w = W + r * ld;
    float acc = 0.0f;
    for (size_t k = 0; k < cols; k++) acc += static_cast<float>(w[k]) * x[k];
    y[r] = (bias ? bias[r] : 0.0f) + scale[r] * acc;
  }
}
