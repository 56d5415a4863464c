// The trainable tensors of an RNN model, by their file names (docs/model-format.md): one list
// that the gradients, Adam, clipping, the fixtures and snapshot() all walk in the same order.
#pragma once
#include <string>
#include <vector>

#include "core/weights.h"

namespace bl {

struct TensorRef {
  std::string name;
  size_t rows = 0, cols = 0;  // cols 0: a 1-D tensor of `rows` values
  float* data = nullptr;
  size_t size() const { return cols ? rows * cols : rows; }
};

// Every parameter of w that the config's model has, in the table order of docs/model-format.md.
// w's matrices must be f32 (to_f32).
std::vector<TensorRef> named_tensors(const Config& cfg, Weights* w);
// Int8 and q4 matrices dequantized in place (int8: W[r][k] = q[r][k] * scale[r]; q4: code *
// its group's scale; as the reference reads them); f32 ones untouched. Afterwards every matrix
// is f32.
void to_f32(Weights* w);
// A copy of w's shapes, every value 0: the gradient buffers.
Weights zeros_like(const Config& cfg, const Weights& w);

}  // namespace bl
