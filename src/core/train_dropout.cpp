#include "core/train_dropout.h"

namespace bl::train {

std::vector<DropoutMasks> make_masks(const Config& cfg, const std::vector<TrainPair>& batch,
                                     float p, Rng* rng) {
  const size_t E = size_t(cfg.emb);
  const float keep_scale = float(1.0 / (1.0 - double(p)));
  // Kept with probability 1 - p, as torch.bernoulli(1 - p).
  auto draw = [&](float* v, size_t n) {
    for (size_t k = 0; k < n; k++) v[k] = rng->uniform() < double(p) ? 0.0f : keep_scale;
  };
  std::vector<DropoutMasks> out(batch.size());
  for (size_t b = 0; b < batch.size(); b++) {
    const size_t n = batch[b].src.size() + 1, m = batch[b].tgt.size() + 1;
    DropoutMasks& d = out[b];
    d.src.resize(n * E);
    d.ey.resize(m * E);
    d.t.resize(m * E);
    draw(d.src.data(), n * E);
    for (size_t i = 0; i < m; i++) {
      draw(&d.ey[i * E], E);
      draw(&d.t[i * E], E);
    }
  }
  return out;
}

}  // namespace bl::train
