// Fresh weights for Trainer::create, drawn as PyTorch 1.13 initialises the reference model
// (scripts/nmt/model.py) in distribution, not bit for bit (torch's own generator is not ours):
//   src_emb, tgt_emb       nn.Embedding: N(0, 1), row 0 (<pad>, padding_idx) zero
//   enc.*, dec.gru*.*      nn.GRU / nn.GRUCell: every weight and bias U(-1/sqrt(hidden), +)
//   dec.init.*, att.W/U,   nn.Linear: weight (kaiming_uniform_, a = sqrt(5)) and bias both
//   dec.readout.*            U(-1/sqrt(fan_in), +), fan_in = the input width
//   att.v                  U(-0.1, 0.1), as the reference draws it
//   dec.out.b              zeros
#pragma once
#include <string>

#include "core/rng.h"
#include "core/weights.h"

namespace bl::train {

// w sized for cfg (an RNN config) and filled in named_tensors' order, row by row, from rng.
void init_weights(const Config& cfg, Rng* rng, Weights* w);

// The distribution of one tensor, for init_weights and its tests: normal (N(0, 1), row 0
// zero) when *normal is set, else U(-bound, bound) (bound 0: zeros).
void init_distribution(const Config& cfg, const std::string& name, bool* normal, double* bound);

}  // namespace bl::train
