// The weights' exponential moving average (Polyak averaging, as TensorFlow's
// ExponentialMovingAverage with num_updates): what Trainer::snapshot and evaluate read with
// TrainWeights::average. A young model's latest weights carry the noise of its last batches at a
// high learning rate, so its attention rows waver between measurements; their average is a
// steadier model of the same run (docs/training-core.md, "Averaged weights").
#pragma once
#include <vector>

#include "core/train_tensors.h"

namespace bl::train {

// The decay of step t (from 1): min(decay, (1 + t) / (10 + t)), so that the first averages are
// not held near the random initial weights; 0 when decay is 0 (no averaging).
double average_decay(double decay, long t);

// After Adam's step t: a = d_t * a + (1 - d_t) * w, each tensor of avg from the same tensor of w
// (same names, shapes and order), in f32 with d_t and 1 - d_t rounded to f32 once.
void update_average(const std::vector<TensorRef>& avg, const std::vector<TensorRef>& w,
                    double decay, long t);

}  // namespace bl::train
