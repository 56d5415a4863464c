#include "core/adam.h"

#include <cmath>
#include <string>

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
  return true;
}

double grad_norm(const std::vector<TensorRef>& grads) {
  double sq = 0;
  for (const TensorRef& g : grads)
    for (size_t k = 0; k < g.size(); k++) sq += double(g.data[k]) * double(g.data[k]);
  return std::sqrt(sq);
}

void clip_grads(const std::vector<TensorRef>& grads, double norm, float max_norm) {
  if (max_norm <= 0) return;
  const float coef = float(double(max_norm) / (norm + 1e-6));  // clip_coef, clamped to 1
  if (coef >= 1.0f) return;
  for (const TensorRef& g : grads)
    for (size_t k = 0; k < g.size(); k++) g.data[k] *= coef;
}

Adam::Adam(const TrainParams& p, const std::vector<TensorRef>& params) : p_(p) {
  for (const TensorRef& t : params) {
    m_.emplace_back(t.size(), 0.0f);
    v_.emplace_back(t.size(), 0.0f);
  }
}

void Adam::update(const std::vector<TensorRef>& params, const std::vector<TensorRef>& grads) {
  t_++;
  const double bc1 = 1 - std::pow(double(p_.beta1), double(t_));  // bias corrections
  const double bc2 = 1 - std::pow(double(p_.beta2), double(t_));
  const float step = float(double(p_.lr) / bc1), bc2_root = float(std::sqrt(bc2));
  const float b1 = p_.beta1, b2 = p_.beta2, a1 = float(1 - double(b1)), a2 = float(1 - double(b2));
  for (size_t i = 0; i < params.size(); i++) {
    float *w = params[i].data, *m = m_[i].data(), *v = v_[i].data();
    const float* g = grads[i].data;
    for (size_t k = 0; k < params[i].size(); k++) {
      m[k] = m[k] * b1 + a1 * g[k];         // m = b1 m + (1 - b1) g
      v[k] = v[k] * b2 + a2 * g[k] * g[k];  // v = b2 v + (1 - b2) g^2
      const float denom = std::sqrt(v[k]) / bc2_root + p_.eps;
      w[k] -= step * (m[k] / denom);  // w -= lr/bc1 * m / (sqrt(v/bc2) + eps)
    }
  }
}

}  // namespace bl::train
