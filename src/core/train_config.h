// TrainConfig (bahdanau_train.h): its limits, its JSON form, and the model file metadata and
// Config it stands for, so that Trainer::create's model is an ordinary model file.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bahdanau_train.h"
#include "core/weights.h"

namespace bl::train {

// Limits of a trainable model. Widths and lengths as docs/training-core.md states them; the
// parameter cap keeps the trainer's four f32 copies (weights, gradients, Adam's two moments)
// within 1 GiB of a wasm32 heap.
constexpr int kMaxTrainWidth = 1024;       // emb, enc_hidden, dec_hidden, attn
constexpr int kMinTrainVocab = 4, kMaxTrainVocab = 65536;
constexpr int kMaxTrainLength = 1024;      // max_src_len, max_tgt_len
constexpr size_t kMaxTokenBytes = 256;     // one vocabulary token or name
constexpr size_t kMaxNames = 65536;        // per language
constexpr int64_t kMaxTrainParams = 64 << 20;

// The number of weights and biases cfg's model has (vocabulary sizes from the token lists).
int64_t count_params(const TrainConfig& cfg);
// A vocabulary token or a name: non-empty, at most kMaxTokenBytes, valid UTF-8, no ASCII
// space or control character (the data file separates them by whitespace). False and why.
bool check_token(const std::string& s, std::string* why);

// A vocabulary (vocab: kMinTrainVocab..kMaxTrainVocab tokens, ids 0..3 the special tokens,
// no repeats) or a list of names (at most kMaxNames), each entry passing check_token. False and
// a message starting with key.
bool check_strings(const char* key, const std::vector<std::string>& list, bool vocab,
                   std::string* error);

// The core Config and the __metadata__ of the model file that cfg describes (check it first).
Config to_config(const TrainConfig& cfg);
nlohmann::json to_metadata(const TrainConfig& cfg, uint64_t seed);

}  // namespace bl::train
