#include "core/weight_average.h"

#include <algorithm>

namespace bl::train {

double average_decay(double decay, long t) {
  if (decay <= 0) return 0;
  return std::min(decay, (1.0 + double(t)) / (10.0 + double(t)));
}

void update_average(const std::vector<TensorRef>& avg, const std::vector<TensorRef>& w,
                    double decay, long t) {
  const double d = average_decay(decay, t);
  const float keep = float(d), take = float(1.0 - d);  // a_t = d a_{t-1} + (1 - d) w_t
  for (size_t i = 0; i < avg.size() && i < w.size(); i++) {
    float* a = avg[i].data;
    const float* x = w[i].data;
    const size_t n = std::min(avg[i].size(), w[i].size());
    // Plain f32 products and one add, never contracted (-ffp-contract=off): the scalar and SIMD
    // builds, autovectorised or not, give the same bits.
    for (size_t k = 0; k < n; k++) a[k] = keep * a[k] + take * x[k];
  }
}

}  // namespace bl::train
