// bl::BatchSampler (bahdanau_train.h): the training pairs, shuffled once per epoch and cut into
// batches, so a worker can ask the trainer for n steps without handing it batches each time.
#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bahdanau_train.h"
#include "core/rng.h"

namespace bl {

struct BatchSampler::Impl {
  std::vector<TrainPair> pairs;
  size_t batch_size;
  train::Rng rng;
  std::vector<size_t> order;  // this epoch's permutation of pairs
  size_t at = 0;              // the next position in order
  long epochs = -1;           // the first next() starts epoch 0
  std::vector<TrainPair> batch;

  Impl(std::vector<TrainPair> p, size_t size, uint64_t seed)
      : pairs(std::move(p)), batch_size(size), rng(seed), order(pairs.size()) {
    at = order.size();  // so that the first next() shuffles
  }

  void shuffle() {  // Fisher-Yates, from the end, on the seeded stream
    for (size_t i = 0; i < order.size(); i++) order[i] = i;
    for (size_t i = order.size(); i > 1; i--) std::swap(order[i - 1], order[rng.below(i)]);
    at = 0;
    epochs++;
  }
};

BatchSampler::BatchSampler(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
BatchSampler::~BatchSampler() = default;

std::unique_ptr<BatchSampler> BatchSampler::create(std::vector<TrainPair> pairs, size_t batch_size,
                                                   uint64_t seed, std::string* error) {
  std::string unused;
  if (!error) error = &unused;
  if (pairs.empty()) {
    *error = "batches: there are no training pairs";
    return nullptr;
  }
  if (batch_size < 1 || batch_size > kMaxTrainBatch) {
    *error = "batches: batch size " + std::to_string(batch_size) + " is outside 1.." +
             std::to_string(kMaxTrainBatch);
    return nullptr;
  }
  return std::unique_ptr<BatchSampler>(
      new BatchSampler(std::make_unique<Impl>(std::move(pairs), batch_size, seed)));
}

const std::vector<TrainPair>& BatchSampler::next() {
  Impl& m = *impl_;
  if (m.at == m.order.size()) m.shuffle();
  const size_t end = std::min(m.order.size(), m.at + m.batch_size);
  m.batch.clear();
  for (; m.at < end; m.at++) m.batch.push_back(m.pairs[m.order[m.at]]);
  return m.batch;
}

long BatchSampler::epochs() const {
  const Impl& m = *impl_;
  // An epoch counts as done once its last batch was handed out.
  return m.epochs < 0 ? 0 : m.epochs + (m.at == m.order.size() ? 1 : 0);
}

size_t BatchSampler::batches_per_epoch() const {
  return (impl_->pairs.size() + impl_->batch_size - 1) / impl_->batch_size;
}

}  // namespace bl
