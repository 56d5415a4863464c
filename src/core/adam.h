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

// The learning rate of step t (from 1): p.lr, decayed as TrainParams::lr_decay_steps says.
double lr_at(const TrainParams& p, long t);
// ||g|| = sqrt(sum over every tensor of g^2) (accumulated in double).
double grad_norm(const std::vector<TensorRef>& grads);
// clip_grad_norm_'s coefficient min(1, max_norm / (||g|| + 1e-6)), given ||g||, as f32; 1 for
// max_norm 0 (no clipping). Adam::update applies it as it reads g, so g itself stays as computed.
float clip_coef(double norm, float max_norm);

class Adam {
 public:
  Adam(const TrainParams& p, const std::vector<TensorRef>& params);
  // One update of params (same tensors, same order as at construction) from gscale * grads
  // (gscale: clip_coef), through the kernel table's train_adam_f32.
  void update(const std::vector<TensorRef>& params, const std::vector<TensorRef>& grads,
              float gscale = 1.0f);
  long steps() const { return t_; }

 private:
  TrainParams p_;
  long t_ = 0;
  std::vector<std::vector<float>> m_, v_;  // first and second moments, one per tensor
};

}  // namespace bl::train
