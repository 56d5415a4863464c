// bahdanau-live training API (issue 25, part 1): backpropagation and Adam for the RNN models,
// beside Translator and in its style (bahdanau.h).
//
//   std::string err;
//   auto tr = bl::Trainer::from_model(bytes, size, bl::TrainParams{}, &err);
//   float loss;
//   if (!tr->step({{{7, 8, 9}, {12, 13}}}, &loss, &err)) ...   // one teacher-forced batch
//   std::vector<uint8_t> file = tr->snapshot();                // what Translator::load reads
//
// Both decoders (paper, cgru) and the three scorings (additive, scaled_dot, none). Plain scalar
// C++ loops in f32 (src/core/train_model.cpp); the wasm SIMD twins of the training kernels are
// not written yet (docs/training-core.md). Nothing here throws or aborts on bad input.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace bl {

// One sentence pair as ids of the model's vocabularies: src without </s> (appended, as
// Translator does), tgt without <s> or </s> (the decoder reads <s> y_1..y_m and must predict
// y_1..y_m </s>). Ids are 1 .. vocab-1: 0 is <pad>, which a pair never holds.
struct TrainPair {
  std::vector<int> src, tgt;
};

constexpr size_t kMaxTrainBatch = 4096;  // pairs per batch

struct TrainParams {
  // Adam (Kingma & Ba 2015) as torch.optim.Adam computes it; lr finite and > 0, betas in
  // [0, 1), eps finite and > 0.
  float lr = 1e-3f, beta1 = 0.9f, beta2 = 0.999f, eps = 1e-8f;
  // Gradient-norm clipping as torch.nn.utils.clip_grad_norm_ (the 2-norm over all parameters);
  // 0 turns it off.
  float clip = 1.0f;
};

// One parameter's gradient, by its tensor name in the model file (docs/model-format.md).
struct TensorGrad {
  std::string name;
  std::vector<size_t> shape;
  const float* data = nullptr;  // rows x cols (or n), row-major; valid until the next call
  size_t size = 0;
};

class Trainer {
 public:
  // Starts from the weights of a model file (f32, or int8 dequantized as the engines read
  // it). The Transformer is refused, as are bad params.
  static std::unique_ptr<Trainer> from_model(const uint8_t* data, size_t size,
                                             const TrainParams& params, std::string* error);
  ~Trainer();

  // The batch's loss, the mean over its target tokens (</s> included) of -log p(y_i | y_<i, x),
  // and its gradients (gradients()); the weights do not change. False on a bad batch.
  bool compute(const std::vector<TrainPair>& batch, float* loss, std::string* error);
  // compute(), then clipping and one Adam update. A loss or gradient that is not finite stops
  // with a message and leaves the weights (and Adam's moments) as they were.
  bool step(const std::vector<TrainPair>& batch, float* loss, std::string* error);
  // The last compute()'s gradients (step(): before clipping), in the file's tensor order.
  std::vector<TensorGrad> gradients() const;
  long steps() const;  // Adam updates made
  // The current weights as an f32 model file with the source file's metadata (vocabularies,
  // names, config with dtype "f32"): Translator::load and every front end read it.
  std::vector<uint8_t> snapshot() const;

  struct Impl;

 private:
  explicit Trainer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace bl
