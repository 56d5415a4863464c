// The tensor half of the model file loader: checks the header's tensor table against the
// shapes the config implies and against the data buffer, then copies the weights out.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "core/weights.h"

namespace bl {
namespace model_file {

// header: the whole header object (its "__metadata__" entry is skipped); cfg: already validated.
// data/data_size: the data buffer that follows the header. Fills *weights and *num_params
// (weights and biases, scales excluded) only on success.
bool load_tensors(const nlohmann::json& header, const Config& cfg, const uint8_t* data,
                  size_t data_size, Weights* weights, size_t* num_params, std::string* error);

}  // namespace model_file
}  // namespace bl
