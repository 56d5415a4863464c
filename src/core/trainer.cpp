// Trainer (bahdanau_train.h): a model file's weights as f32 master weights, the gradients of a
// teacher-forced batch (train_model.cpp), clipping and Adam (adam.cpp), snapshots. create()
// writes a freshly initialised model (train_init.cpp) as a model file and starts from that,
// so a created model is validated by the loader and snapshots as any other.
#include <algorithm>
#include <cmath>

#include "bahdanau_train.h"
#include "core/adam.h"
#include "core/model_file.h"
#include "core/train_config.h"
#include "core/train_init.h"
#include "core/train_model.h"
#include "core/train_ops.h"
#include "core/train_snapshot.h"
#include "core/train_tensors.h"
#include "core/weight_average.h"

namespace bl {

struct Trainer::Impl {
  ModelData md;         // config and the f32 master weights
  Weights grad;         // the last batch's gradients
  nlohmann::json meta;  // the source file's __metadata__, for snapshot()
  TrainParams params;
  std::vector<TensorRef> w, g;  // named views of md.weights and grad
  Weights avg;                  // the weights' moving average (params.average > 0 only)
  std::vector<TensorRef> a;     // its named views
  std::unique_ptr<train::Adam> adam;
  train::Rng dropout_rng{1};  // seeded from params.seed
};

namespace {

// The options that adam.cpp's check_params does not know.
bool check_options(const TrainParams& p, std::string* error) {
  if (!(p.average >= 0 && p.average < 1)) {
    *error = "train params: average " + std::to_string(p.average) +
             " is out of range (0 <= average < 1)";
    return false;
  }
  for (const auto& [what, v] : {std::pair{"label_smoothing", p.label_smoothing},
                                std::pair{"dropout", p.dropout}})
    if (!(v >= 0 && v < 1)) {
      *error = std::string("train params: ") + what + " " + std::to_string(v) +
               " is out of range (0 <= " + what + " < 1)";
      return false;
    }
  return true;
}

// The kernel table for this trainer's calls: the fused one where asked for and installed.
const Kernels* kernels_for(const TrainParams& p) {
  return p.relaxed ? fused_train_kernels() : nullptr;
}

// Whether `which` reads the average: without averaging it is the latest weights.
bool averaged(const Trainer::Impl& m, TrainWeights which) {
  return which == TrainWeights::average && !m.a.empty();
}

}  // namespace

Trainer::Trainer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Trainer::~Trainer() = default;

std::unique_ptr<Trainer> Trainer::from_model(const uint8_t* data, size_t size,
                                             const TrainParams& params, std::string* error) {
  std::string unused;
  if (!error) error = &unused;
  if (!train::check_params(params, error) || !check_options(params, error)) return nullptr;
  auto impl = std::make_unique<Impl>();
  if (!load_model(data, size, &impl->md, error)) return nullptr;
  if (impl->md.config.arch != Arch::Rnn) {
    *error = "training supports the RNN models only, not the Transformer";
    return nullptr;
  }
  nlohmann::json header;
  ModelData unused_md;
  size_t header_size = 0;
  parse_header(data, size, &header, &unused_md, &header_size, error);  // passed in load_model
  impl->meta = header["__metadata__"];
  const Config& cfg = impl->md.config;
  impl->md.config.dtype = DType::F32;
  to_f32(&impl->md.weights);
  impl->grad = zeros_like(cfg, impl->md.weights);
  impl->params = params;
  impl->w = named_tensors(cfg, &impl->md.weights);
  impl->g = named_tensors(cfg, &impl->grad);
  impl->adam = std::make_unique<train::Adam>(params, impl->w);
  if (params.average > 0) {  // a_0: the starting weights
    impl->avg = impl->md.weights;
    impl->a = named_tensors(cfg, &impl->avg);
  }
  impl->dropout_rng = train::Rng(params.seed);
  return std::unique_ptr<Trainer>(new Trainer(std::move(impl)));
}

std::unique_ptr<Trainer> Trainer::create(const TrainConfig& config, uint64_t seed,
                                         const TrainParams& params, std::string* error) {
  std::string unused;
  if (!error) error = &unused;
  if (!check_train_config(config, error)) return nullptr;
  if (!train::check_params(params, error) || !check_options(params, error)) return nullptr;
  const Config cfg = train::to_config(config);
  Weights w;
  train::Rng rng(seed);
  train::init_weights(cfg, &rng, &w);
  const std::vector<uint8_t> file =
      train::write_f32_model(train::to_metadata(config, seed), named_tensors(cfg, &w));
  w = Weights();  // the file holds them now: do not keep a second copy through from_model
  return from_model(file.data(), file.size(), params, error);
}

bool Trainer::compute(const std::vector<TrainPair>& batch, float* loss, std::string* error) {
  std::string unused;
  if (!error) error = &unused;
  Impl& m = *impl_;
  const train::UseTrainKernels use(kernels_for(m.params));
  if (!train::check_batch(m.md.config, batch, error)) return false;
  for (TensorRef& t : m.g) std::fill(t.data, t.data + t.size(), 0.0f);
  train::LossOptions opt;
  opt.label_smoothing = m.params.label_smoothing;
  std::vector<train::DropoutMasks> masks;
  if (m.params.dropout > 0) {  // new masks for every batch, as nn.Dropout draws them
    masks = train::make_masks(m.md.config, batch, m.params.dropout, &m.dropout_rng);
    opt.masks = &masks;
  }
  const double l = train::batch_loss<float>(m.md.config, m.md.weights, batch, &m.grad, opt);
  if (loss) *loss = float(l);
  return true;
}

bool Trainer::step(const std::vector<TrainPair>& batch, float* loss, std::string* error) {
  std::string unused;
  if (!error) error = &unused;
  float l = 0;
  if (!compute(batch, &l, error)) return false;
  if (loss) *loss = l;
  Impl& m = *impl_;
  const double norm = train::grad_norm(m.g);
  if (!std::isfinite(l) || !std::isfinite(norm)) {
    *error = "stopped at step " + std::to_string(m.adam->steps() + 1) + ": the loss (" +
             std::to_string(l) + ") or the gradient norm (" + std::to_string(norm) +
             ") is not finite; the weights are unchanged (lower the learning rate)";
    return false;
  }
  // Clipping scales the gradient as Adam reads it: gradients() still reports it unclipped.
  m.adam->update(m.w, m.g, train::clip_coef(norm, m.params.clip));
  if (!m.a.empty()) train::update_average(m.a, m.w, m.params.average, m.adam->steps());
  return true;
}

bool Trainer::step(BatchSampler& batches, int n, std::vector<float>* losses, std::string* error) {
  std::string unused;
  if (!error) error = &unused;
  if (n < 1 || n > 10000) {
    *error = "step: n = " + std::to_string(n) + " is outside 1..10000";
    return false;
  }
  for (int k = 0; k < n; k++) {
    float loss = 0;
    if (!step(batches.next(), &loss, error)) return false;
    if (losses) losses->push_back(loss);
  }
  return true;
}

bool Trainer::evaluate(const std::vector<TrainPair>& pairs, float* loss, std::string* error,
                       TrainWeights which) const {
  std::string unused;
  if (!error) error = &unused;
  const Config& cfg = impl_->md.config;
  const Weights& w = averaged(*impl_, which) ? impl_->avg : impl_->md.weights;
  const train::UseTrainKernels use(kernels_for(impl_->params));
  if (pairs.empty()) {
    *error = "evaluate: no pairs";
    return false;
  }
  // check_batch's cap is per batch: go through any number of pairs in batches of that size,
  // weighting each batch's mean by its tokens.
  double sum = 0, last = 0;
  size_t tokens = 0;
  for (size_t at = 0; at < pairs.size(); at += kMaxTrainBatch) {
    const std::vector<TrainPair> part(pairs.begin() + at,
                                      pairs.begin() + std::min(pairs.size(), at + kMaxTrainBatch));
    if (!train::check_batch(cfg, part, error)) {
      if (at > 0) *error = "evaluate: from pair " + std::to_string(at) + ", " + *error;
      return false;
    }
    size_t n = 0;
    for (const TrainPair& p : part) n += p.tgt.size() + 1;
    last = train::batch_loss<float>(cfg, w, part, nullptr);
    sum += last * double(n);
    tokens += n;
  }
  // One batch: exactly what compute() reports for it, with no reweighting rounding.
  if (loss) *loss = float(pairs.size() <= kMaxTrainBatch ? last : sum / double(tokens));
  return true;
}

std::vector<TensorGrad> Trainer::gradients() const {
  std::vector<TensorGrad> out;
  for (const TensorRef& t : impl_->g) {
    TensorGrad tg{t.name, {t.rows}, t.data, t.size()};
    if (t.cols) tg.shape.push_back(t.cols);
    out.push_back(std::move(tg));
  }
  return out;
}

long Trainer::steps() const { return impl_->adam->steps(); }

std::string Trainer::kernels() const {
  const train::UseTrainKernels use(kernels_for(impl_->params));
  return train::train_kernels().name;
}

bool install_relaxed_train_kernels(uintptr_t table_index) {
  return install_relaxed_gemm(table_index);
}

std::vector<uint8_t> Trainer::snapshot(TrainWeights which) const {
  return train::write_f32_model(impl_->meta, averaged(*impl_, which) ? impl_->a : impl_->w);
}

}  // namespace bl
