// Adam (Kingma & Ba 2015) with f32 master weights and moments, as torch.optim.Adam (1.13)
// computes it without weight decay or amsgrad, and gradient-norm clipping as
// torch.nn.utils.clip_grad_norm_.
#pragma once
#include <vector>

#include "bahdanau_train.h"
#include "core/train_tensors.h"

namespace bl::train {

// False and a message when params are outside what TrainParams allows.
bool check_params(const TrainParams& p, std::string* error);

// ||g|| = sqrt(sum over every tensor of g^2) (accumulated in double).
double grad_norm(const std::vector<TensorRef>& grads);
// g *= min(1, max_norm / (||g|| + 1e-6)), given ||g||; max_norm 0 leaves g alone.
void clip_grads(const std::vector<TensorRef>& grads, double norm, float max_norm);

class Adam {
 public:
  Adam(const TrainParams& p, const std::vector<TensorRef>& params);
  // One update of params (same tensors, same order as at construction) from grads.
  void update(const std::vector<TensorRef>& params, const std::vector<TensorRef>& grads);
  long steps() const { return t_; }

 private:
  TrainParams p_;
  long t_ = 0;
  std::vector<std::vector<float>> m_, v_;  // first and second moments, one per tensor
};

}  // namespace bl::train
