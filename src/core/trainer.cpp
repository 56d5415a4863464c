// Trainer (bahdanau_train.h): a model file's weights as f32 master weights, the gradients of a
// teacher-forced batch (train_model.cpp), clipping and Adam (adam.cpp), snapshots.
#include <algorithm>
#include <cmath>

#include "bahdanau_train.h"
#include "core/adam.h"
#include "core/model_file.h"
#include "core/train_model.h"
#include "core/train_snapshot.h"
#include "core/train_tensors.h"

namespace bl {

struct Trainer::Impl {
  ModelData md;         // config and the f32 master weights
  Weights grad;         // the last batch's gradients
  nlohmann::json meta;  // the source file's __metadata__, for snapshot()
  TrainParams params;
  std::vector<TensorRef> w, g;  // named views of md.weights and grad
  std::unique_ptr<train::Adam> adam;
};

Trainer::Trainer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Trainer::~Trainer() = default;

std::unique_ptr<Trainer> Trainer::from_model(const uint8_t* data, size_t size,
                                             const TrainParams& params, std::string* error) {
  std::string unused;
  if (!error) error = &unused;
  if (!train::check_params(params, error)) return nullptr;
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
  return std::unique_ptr<Trainer>(new Trainer(std::move(impl)));
}

bool Trainer::compute(const std::vector<TrainPair>& batch, float* loss, std::string* error) {
  std::string unused;
  if (!error) error = &unused;
  Impl& m = *impl_;
  if (!train::check_batch(m.md.config, batch, error)) return false;
  for (TensorRef& t : m.g) std::fill(t.data, t.data + t.size(), 0.0f);
  const double l = train::batch_loss<float>(m.md.config, m.md.weights, batch, &m.grad);
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
  std::vector<float> clipped;  // gradients() reports them before clipping
  std::vector<TensorRef> g = m.g;
  if (m.params.clip > 0 && m.params.clip / (norm + 1e-6) < 1) {
    size_t total = 0;
    for (const TensorRef& t : g) total += t.size();
    clipped.resize(total);
    size_t at = 0;
    for (TensorRef& t : g) {
      std::copy(t.data, t.data + t.size(), clipped.data() + at);
      t.data = clipped.data() + at;
      at += t.size();
    }
    train::clip_grads(g, norm, m.params.clip);
  }
  m.adam->update(m.w, g);
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

std::vector<uint8_t> Trainer::snapshot() const {
  return train::write_f32_model(impl_->meta, impl_->w);
}

}  // namespace bl
