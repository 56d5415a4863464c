// Dropout masks for the training pass (train_model.cpp), drawn ahead of it so that the f32
// backward pass and the double finite differences of the tests can share one mask.
#pragma once
#include <vector>

#include "bahdanau_train.h"
#include "core/rng.h"
#include "core/weights.h"

namespace bl::train {

// One pair's masks, each value 0 (dropped, with probability p) or 1 / (1 - p), as nn.Dropout
// scales in training mode so that the expected activation is unchanged. Where the reference
// (scripts/nmt/model.py) applies self.drop:
//   src: [n x E] the source embeddings, n = |src| + 1 (</s>), before the encoder;
//   ey:  [m x E] E y_{i-1} where it enters the decoder GRU (cgru: GRU1; paper: the E part of
//        its input), m = |tgt| + 1 steps; the readout reads E y_{i-1} undropped;
//   t:   [m x E] the maxout output t_i, before the tied output projection.
struct DropoutMasks {
  std::vector<float> src, ey, t;
};

// Masks for each pair of batch, in a fixed order (pair by pair: src, then each step's ey and t),
// so the same seed gives the same masks everywhere. p must be in (0, 1).
std::vector<DropoutMasks> make_masks(const Config& cfg, const std::vector<TrainPair>& batch,
                                     float p, Rng* rng);

}  // namespace bl::train
