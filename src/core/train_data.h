// The training data file (bahdanau_train.h: parse_train_data; the format is in
// docs/training-core.md, "The training data file"): a small line-based text format that the
// browser page downloads, and its limits.
#pragma once
#include <cstddef>

namespace bl::train {

constexpr size_t kMaxTrainDataBytes = 64u << 20;  // the whole file
constexpr size_t kMaxDataPairs = 1u << 20;        // training and held-out pairs together
// Tokens in one sentence: what a config's max_src_len and max_tgt_len (<= 1024, the target's
// counting its </s>) can hold.
constexpr size_t kMaxDataSource = 1024, kMaxDataTarget = 1023;

}  // namespace bl::train
