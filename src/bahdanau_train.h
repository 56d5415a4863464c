// bahdanau-live training API (issue 25, part 1): backpropagation and Adam for the RNN models,
// beside Translator and in its style (bahdanau.h).
//
//   std::string err;
//   auto tr = bl::Trainer::from_model(bytes, size, bl::TrainParams{}, &err);
//   float loss;
//   if (!tr->step({{{7, 8, 9}, {12, 13}}}, &loss, &err)) ...   // one teacher-forced batch
//   std::vector<uint8_t> file = tr->snapshot();                // what Translator::load reads
//
// Trainer::create starts a fresh model from a TrainConfig and a seed instead; parse_train_data
// reads the training data file that the browser page downloads (docs/training-core.md).
//
// Both decoders (paper, cgru) and the three scorings (additive, scaled_dot, none), in f32. Every
// product goes through the kernel table's train_gemm_f32, whose scalar and wasm SIMD twins give
// the same bits, so both wasm variants train to the same losses (docs/training-core.md). Nothing
// here throws or aborts on bad input.
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
constexpr double kMaxTrainDecaySteps = 1e9;

struct TrainParams {
  // Adam (Kingma & Ba 2015) as torch.optim.Adam computes it; lr finite and > 0, betas in
  // [0, 1), eps finite and > 0.
  float lr = 1e-3f, beta1 = 0.9f, beta2 = 0.999f, eps = 1e-8f;
  // The learning rate's inverse-square-root decay: step t (from 1) uses
  // lr * min(1, sqrt(lr_decay_steps / t)), so lr holds for the first lr_decay_steps steps and
  // then falls as 1/sqrt(t) (PyTorch: LambdaLR with that factor of the step index + 1). 0, the
  // default, keeps lr constant; at most kMaxTrainDecaySteps.
  double lr_decay_steps = 0;
  // Gradient-norm clipping as torch.nn.utils.clip_grad_norm_ (the 2-norm over all parameters);
  // 0 turns it off.
  float clip = 1.0f;
  // Optional regularisation, both off by default. label_smoothing in [0, 1): PyTorch's
  // F.cross_entropy(label_smoothing=eps, ignore_index=0). dropout in [0, 1): the reference's
  // nn.Dropout (scripts/nmt/model.py) on the source embeddings, on E y_{i-1} where it enters the
  // decoder GRU, and on the maxout output t_i, with masks drawn from `seed`.
  float label_smoothing = 0.0f, dropout = 0.0f;
  // The weights' exponential moving average, read through TrainWeights::average: after step t,
  // a_t = d_t a_{t-1} + (1 - d_t) w_t with d_t = min(average, (1 + t) / (10 + t)) and a_0 the
  // starting weights (TensorFlow's ExponentialMovingAverage with num_updates). In [0, 1); 0, the
  // default, keeps no average (it is then the latest weights). Training reads only the latest.
  double average = 0;
  uint64_t seed = 1;
  // Every product with fused multiply-adds through relaxed SIMD (fused_train_kernels(),
  // kernels.h) where the host installed them; elsewhere, and by default, the plain tables. The
  // losses then differ from the plain tables' by rounding, and are the same bits on every
  // engine that installs it.
  bool relaxed = false;
};

// Which weights Trainer::evaluate and snapshot read: those of the latest Adam step, or their
// moving average (TrainParams::average; the latest ones when that is 0).
enum class TrainWeights { latest, average };

// What Trainer::create builds (limits in docs/training-core.md; check_train_config says which
// field is wrong). The vocabularies are token lists, index = id, ids 0..3 <pad> <unk> <s> </s>.
struct TrainConfig {
  std::string src_lang = "en", tgt_lang = "fr";
  std::string decoder = "cgru";      // "paper" | "cgru"
  std::string scoring = "additive";  // "additive" | "scaled_dot" | "none"
  int emb = 64, enc_hidden = 128, dec_hidden = 128, attn = 64;  // attn 0 with "none"
  int maxout = 2;                                               // the format allows 2 only
  int max_src_len = 64, max_tgt_len = 80;
  std::vector<std::string> src_vocab, tgt_vocab;
  std::vector<std::string> src_names, tgt_names;  // truecasing names (may be empty)
};

// The JSON form of a TrainConfig's sizes and kinds, e.g. {"scoring": "none", "emb": 32}: keys
// as the fields above, each optional (an absent one keeps *out's value; attn becomes 0 for
// "none"). Vocabularies and names are not in it: they come from the data file. Unknown keys,
// wrong types and values outside the limits are refused. False with a message; *out untouched
// then.
bool parse_train_config(const std::string& json, TrainConfig* out, std::string* error);
// False with a message naming the first field outside its limits.
bool check_train_config(const TrainConfig& cfg, std::string* error);

// The training data file (format "bahdanau-train 1", docs/training-core.md): vocabularies,
// names, and the training and held-out pairs as ids of those vocabularies.
struct TrainData {
  std::string src_lang, tgt_lang;
  std::vector<std::string> src_vocab, tgt_vocab, src_names, tgt_names;
  std::vector<TrainPair> train, heldout;
};
// Validates all of it (see the doc for every limit); false with a message, never a crash or
// an allocation beyond a small multiple of `size`. *out untouched on failure.
bool parse_train_data(const uint8_t* data, size_t size, TrainData* out, std::string* error);

// One parameter's gradient, by its tensor name in the model file (docs/model-format.md).
struct TensorGrad {
  std::string name;
  std::vector<size_t> shape;
  const float* data = nullptr;  // rows x cols (or n), row-major; valid until the next call
  size_t size = 0;
};

// The training pairs in batches for Trainer::step(batches, n): each epoch is one seeded
// shuffle (Fisher-Yates) cut into batches of batch_size pairs, the last one smaller. The same
// pairs, size and seed give the same batches everywhere, wasm included.
class BatchSampler {
 public:
  // batch_size 1..kMaxTrainBatch; at least one pair. Null with a message otherwise.
  static std::unique_ptr<BatchSampler> create(std::vector<TrainPair> pairs, size_t batch_size,
                                              uint64_t seed, std::string* error);
  ~BatchSampler();
  // The next batch (valid until the next call); a new epoch starts with a new shuffle.
  const std::vector<TrainPair>& next();
  long epochs() const;  // epochs completed
  size_t batches_per_epoch() const;

  struct Impl;

 private:
  explicit BatchSampler(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

class Trainer {
 public:
  // Starts from the weights of a model file (f32, or int8 or q4 dequantized as the engines
  // read it). The Transformer is refused, as are bad params.
  static std::unique_ptr<Trainer> from_model(const uint8_t* data, size_t size,
                                             const TrainParams& params, std::string* error);
  // A fresh model, initialised as PyTorch initialises the reference (docs/training-core.md)
  // from a PRNG seeded with `seed`: the same config and seed give the same weights everywhere.
  static std::unique_ptr<Trainer> create(const TrainConfig& config, uint64_t seed,
                                         const TrainParams& params, std::string* error);
  ~Trainer();

  // The batch's loss, the mean over its target tokens (</s> included) of -log p(y_i | y_<i, x)
  // (smoothed when label_smoothing > 0), and its gradients (gradients()); the weights do not
  // change. With dropout, each call draws new masks. False on a bad batch.
  bool compute(const std::vector<TrainPair>& batch, float* loss, std::string* error);
  // compute(), then clipping and one Adam update. A loss or gradient that is not finite stops
  // with a message and leaves the weights (and Adam's moments) as they were.
  bool step(const std::vector<TrainPair>& batch, float* loss, std::string* error);
  // n steps (1..10,000) on the sampler's next n batches, their losses appended to *losses:
  // what a worker runs between two progress reports. Stops at the first step that fails,
  // with its message; the steps before it stay made.
  bool step(BatchSampler& batches, int n, std::vector<float>* losses, std::string* error);
  // The mean over the pairs' target tokens of -log p(y_i | y_<i, x), as the model would be
  // judged: no dropout, no label smoothing, any number of pairs. Changes nothing (gradients()
  // included). False on a bad pair.
  bool evaluate(const std::vector<TrainPair>& pairs, float* loss, std::string* error,
                TrainWeights which = TrainWeights::latest) const;
  // The last compute()'s gradients (step(): before clipping), in the file's tensor order.
  std::vector<TensorGrad> gradients() const;
  long steps() const;  // Adam updates made
  // The kernel table its products run on: "wasm-relaxed" (TrainParams::relaxed, installed),
  // "wasm-simd" or "scalar".
  std::string kernels() const;
  // The weights (latest or averaged) as an f32 model file with the source file's metadata
  // (vocabularies, names, config with dtype "f32"): Translator::load and every front end read it.
  std::vector<uint8_t> snapshot(TrainWeights which = TrainWeights::latest) const;

  struct Impl;

 private:
  explicit Trainer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// wasm SIMD builds: takes relaxed SIMD's fused training product
// (src/kernels/train-gemm-wasmrelaxed.wat), which the host put at this index of the function
// table (web/lib/relaxed.js), once it gives the fused scalar twin's bits; TrainParams::relaxed
// then uses it. False, and nothing installed, in other builds or when the check fails.
bool install_relaxed_train_kernels(uintptr_t table_index);

}  // namespace bl
