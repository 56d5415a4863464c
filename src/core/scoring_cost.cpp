#include "core/scoring_cost.h"

#include <algorithm>
#include <chrono>
#include <vector>

namespace bl {

namespace {

using Clock = std::chrono::steady_clock;

template <class F>
double batch_ms(F& call, long calls) {
  const auto t0 = Clock::now();
  for (long k = 0; k < calls; k++) call();
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// Median µs per call over p.batches batches of equal size. Every batch must last min_batch_ms:
// in a browser performance.now() is rounded to 5-100 µs, far coarser than one call (a few µs),
// so only long batches resolve it. The size doubles until the calibration batch is long
// enough, and again whenever a timed batch comes out shorter (the engine may speed up under
// way, e.g. V8 tiering the wasm up from its baseline compiler); then the batches start over.
template <class F>
double median_us(F call, const ScoringCostParams& p, long* calls_out) {
  constexpr long kMaxCalls = 1L << 24;
  long calls = 1;
  std::vector<double> us;
  while (us.size() < size_t(p.batches)) {
    while (calls < kMaxCalls && batch_ms(call, calls) < p.min_batch_ms) calls *= 2;
    us.clear();
    for (int b = 0; b < p.batches; b++) {
      const double ms = batch_ms(call, calls);
      if (ms < p.min_batch_ms && calls < kMaxCalls) {
        calls *= 2;
        break;
      }
      us.push_back(ms * 1000.0 / double(calls));
    }
  }
  std::sort(us.begin(), us.end());
  const size_t m = us.size() / 2;
  if (calls_out) *calls_out = calls;
  return us.size() % 2 ? us[m] : (us[m - 1] + us[m]) / 2;
}

}  // namespace

ScoringCost measure_scoring(const Model& m, const Annotations& a, const ScoringCostParams& p) {
  const size_t A = m.config().attn;
  std::vector<float> q(A), e(a.n), keys(a.keys.size());
  ScoringCost out;
  out.n = a.n;
  out.batches = p.batches;
  // Results land in vectors that outlive the loops and the kernels are reached through
  // function pointers, so none of the timed work can be optimised away.
  out.step_us = median_us([&] { m.score(a, a.s0.data(), q.data(), e.data()); }, p,
                          &out.calls_per_batch);
  out.score_us = median_us([&] { m.score_keys(a, q.data(), e.data()); }, p, nullptr);
  out.keys_us = median_us([&] { m.project_keys(a.h.data(), a.n, keys.data()); }, p, nullptr);
  return out;
}

}  // namespace bl
