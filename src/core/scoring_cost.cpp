#include "core/scoring_cost.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

namespace bl {

namespace {

// Monotonic: a wall-clock step cannot stretch or cut the budget. In wasm this is
// performance.now().
using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

template <class F>
double batch_ms(F& call, long calls) {
  const auto t0 = Clock::now();
  for (long k = 0; k < calls; k++) call();
  return ms_since(t0);
}

struct Timed {
  double us = 0;  // median µs per call
  double min_us = 0, max_us = 0;  // the fastest and the slowest batch's µs per call
  long calls = 0;  // per batch
  int batches = 0;  // timed
};

// One kernel's time per call: the median over up to `batches` batches, done by `deadline`.
// Every batch must last min_ms: in a browser performance.now() is rounded to 5-100 µs, far
// coarser than one call (a few µs), so only long batches resolve it. A calibration doubles the
// batch from one call until it lasts min_ms / 4 (under min_ms / 2 in all), then the batches get
// the size for 1.2 min_ms. One that comes out shorter than min_ms means the engine sped up under
// way (V8 tiering the wasm up from its baseline compiler): the batches so far are dropped and
// the size set again from it. Before each batch, if the last batch's length no longer fits
// before the deadline, it stops with the batches it has; with none, it times one more batch,
// its only overrun.
template <class F>
Timed median_us(F call, double min_ms, int batches, Clock::time_point deadline) {
  constexpr long kMaxCalls = 1L << 24;
  const auto left_ms = [&] {
    return std::chrono::duration<double, std::milli>(deadline - Clock::now()).count();
  };
  long calls = 1;
  double took = batch_ms(call, calls);
  while (took < min_ms / 4 && calls < kMaxCalls) {
    calls *= 2;
    took = batch_ms(call, calls);
  }
  double forecast = 0;  // ms the next batch will take
  // The batch size for 1.2 min_ms at the last batch's rate, growing at most kMaxGrowth-fold at
  // once. A browser's clock reads a batch shorter than its resolution (100 µs in Chrome) as 0
  // ms, which happens when V8 tiers the wasm up under way; sizing from that 0 asked for 2^24
  // calls at once, seconds to minutes of work, and the page's analysis never came back.
  constexpr double kMaxGrowth = 64;
  const auto resize = [&] {
    const double rate_ms = took > 0 ? took / double(calls) : 0;  // 0: below the clock's resolution
    const double want = rate_ms > 0 ? std::ceil(1.2 * min_ms / rate_ms) : double(calls) * kMaxGrowth;
    const long next = long(std::clamp(std::min(want, double(calls) * kMaxGrowth), 1.0, double(kMaxCalls)));
    forecast = rate_ms > 0 ? rate_ms * double(next) : 1.2 * min_ms;
    calls = next;
  };
  resize();
  std::vector<double> us;
  bool last_chance = false;  // out of time with nothing kept: the next batch is kept, whatever
  while (int(us.size()) < batches) {
    if (!us.empty() && forecast > left_ms()) break;
    took = batch_ms(call, calls);
    if (took < min_ms && calls < kMaxCalls && !last_chance) {
      us.clear();
      resize();
      last_chance = forecast > left_ms();
      continue;
    }
    forecast = took;
    us.push_back(took * 1000.0 / double(calls));
    if (last_chance) break;  // the one batch kept out of time: no more, or short ones would follow
  }
  std::sort(us.begin(), us.end());
  const size_t m = us.size() / 2;
  return {us.size() % 2 ? us[m] : (us[m - 1] + us[m]) / 2, us.front(), us.back(), calls, int(us.size())};
}

}  // namespace

ScoringCost measure_scoring(const Model& m, const Annotations& a, const ScoringCostParams& p) {
  const size_t A = m.config().attn;
  std::vector<float> q(A), e(a.n), keys(a.keys.size());
  // The three timings share the bound scoring_cost_bound_ms states: the k-th must be done by
  // k thirds of it, so time one leaves unused goes to the next.
  const auto t0 = Clock::now();
  const auto by = [&](int k) {
    return t0 + std::chrono::duration_cast<Clock::duration>(
                    std::chrono::duration<double, std::milli>(k * scoring_cost_bound_ms(p) / 3));
  };
  const double ms = p.min_batch_ms;
  // Results land in vectors that outlive the loops and the kernels are reached through
  // function pointers, so none of the timed work can be optimised away.
  const Timed step =
      median_us([&] { m.score(a, a.s0.data(), q.data(), e.data()); }, ms, p.batches, by(1));
  const Timed scores =
      median_us([&] { m.score_keys(a, q.data(), e.data()); }, ms, p.batches, by(2));
  const Timed projection =
      median_us([&] { m.project_keys(a.h.data(), a.n, keys.data()); }, ms, p.batches, by(3));
  ScoringCost out;
  out.n = a.n;
  out.step_us = step.us;
  out.score_us = scores.us;
  out.keys_us = projection.us;
  out.step_us_min = step.min_us;
  out.step_us_max = step.max_us;
  out.score_us_min = scores.min_us;
  out.score_us_max = scores.max_us;
  out.keys_us_min = projection.min_us;
  out.keys_us_max = projection.max_us;
  out.batches = step.batches;
  out.calls_per_batch = step.calls;
  return out;
}

}  // namespace bl
