// Writes a model file (docs/model-format.md: safetensors, f32) from a metadata object and the
// named tensors: what Trainer::snapshot() hands to Translator::load and the front ends.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "core/train_tensors.h"

namespace bl::train {

// meta: the __metadata__ object (string values); its config's dtype is set to "f32" here.
std::vector<uint8_t> write_f32_model(nlohmann::json meta, const std::vector<TensorRef>& tensors);

}  // namespace bl::train
