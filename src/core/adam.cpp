#include "core/adam.h"

#include <cmath>
#include <string>

#include "core/train_ops.h"  // train_kernels()

namespace bl::train {

bool check_params(const TrainParams& p, std::string* error) {
  auto bad = [&](const char* what, float v) {
    *error = std::string("train params: ") + what + " " + std::to_string(v) + " is out of range";
    return false;
  };
  if (!std::isfinite(p.lr) || p.lr <= 0) return bad("lr (finite, > 0)", p.lr);
  if (!(p.beta1 >= 0 && p.beta1 < 1)) return bad("beta1 (0 <= beta1 < 1)", p.beta1);
  if (!(p.beta2 >= 0 && p.beta2 < 1)) return bad("beta2 (0 <= beta2 < 1)", p.beta2);
  if (!std::isfinite(p.eps) || p.eps <= 0) return bad("eps (finite, > 0)", p.eps);
  if (!std::isfinite(p.clip) || p.clip < 0) return bad("clip (finite, >= 0)", p.clip);
  if (!(p.lr_decay_steps >= 0 && p.lr_decay_steps <= kMaxTrainDecaySteps)) {
    *error = "train params: lr_decay_steps " + std::to_string(p.lr_decay_steps) +
             " is out of range (0 .. 1e9)";
    return false;
  }
  return true;
}

double lr_at(const TrainParams& p, long t) {
  const double lr = p.lr;  // as PyTorch holds it: the f32 value, widened
  if (p.lr_decay_steps <= 0 || double(t) <= p.lr_decay_steps) return lr;
  return lr * std::sqrt(p.lr_decay_steps / double(t));
}

double grad_norm(const std::vector<TensorRef>& grads) {
  double sq = 0;
  for (const TensorRef& g : grads)
    for (size_t k = 0; k < g.size(); k++) sq += double(g.data[k]) * double(g.data[k]);
  return std::sqrt(sq);
}

float clip_coef(double norm, float max_norm) {
  if (max_norm <= 0) return 1.0f;
  const float coef = float(double(max_norm) / (norm + 1e-6));  // clip_coef, clamped to 1
  return coef < 1.0f ? coef : 1.0f;
}

Adam::Adam(const TrainParams& p, const std::vector<TensorRef>& params) : p_(p) {
  for (const TensorRef& t : params) {
    m_.emplace_back(t.size(), 0.0f);
    v_.emplace_back(t.size(), 0.0f);
  }
}

void Adam::update(const std::vector<TensorRef>& params, const std::vector<TensorRef>& grads,
                  float gscale) {
  t_++;
  const double bc1 = 1 - std::pow(double(p_.beta1), double(t_));  // bias corrections
  const double bc2 = 1 - std::pow(double(p_.beta2), double(t_));
  AdamStep s;
  s.gscale = gscale;
  s.b1 = p_.beta1, s.b2 = p_.beta2;
  s.a1 = float(1 - double(s.b1)), s.a2 = float(1 - double(s.b2));
  s.step = float(lr_at(p_, t_) / bc1), s.bc2_root = float(std::sqrt(bc2));
  s.eps = p_.eps;
  const Kernels& k = train_kernels();
  for (size_t i = 0; i < params.size(); i++)
    k.train_adam_f32(params[i].size(), params[i].data, m_[i].data(), v_[i].data(), grads[i].data,
                     s);
}

}  // namespace bl::train
