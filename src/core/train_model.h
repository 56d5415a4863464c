// The teacher-forced training pass of the RNN model (Bahdanau et al. 2014; the cgru decoder of
// Sennrich et al. 2017): forward with saved activations, then backpropagation through the
// readout, attention, both decoders and the bidirectional encoder. The reference is
// Bahdanau.forward in scripts/nmt/model.py with F.cross_entropy(ignore_index=0), optionally with
// label smoothing and dropout (LossOptions).
#pragma once
#include <string>
#include <vector>

#include "bahdanau_train.h"
#include "core/train_dropout.h"
#include "core/weights.h"

namespace bl::train {

// False and a message for an empty batch, one over kMaxTrainBatch, an id outside 1..vocab-1,
// a source over max_src_len tokens or a target over max_tgt_len - 1.
bool check_batch(const Config& cfg, const std::vector<TrainPair>& batch, std::string* error);

// What the loss adds to plain cross-entropy; the defaults add nothing.
struct LossOptions {
  // eps of F.cross_entropy(label_smoothing=eps): each token's loss is
  // (1 - eps) (-log p(y_i)) + eps * mean over all Vt classes of (-log p(c)).
  double label_smoothing = 0;
  // One per pair of the batch (make_masks), or null: no dropout.
  const std::vector<DropoutMasks>* masks = nullptr;
};

// loss = (1/N) sum over the batch's N target tokens (</s> included) of -log p(y_i | y_<i, x).
// grad (f32 matrices, zeroed by the caller) receives dloss/dweights when not null; T = double
// computes the loss alone, for finite differences (with the same masks). w's matrices must be
// f32. The batch must have passed check_batch.
template <class T>
double batch_loss(const Config& cfg, const Weights& w, const std::vector<TrainPair>& batch,
                  Weights* grad, const LossOptions& opt = {});

}  // namespace bl::train
