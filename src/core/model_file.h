// Loads a model file (docs/model-format.md, version 1) from memory and validates all of it:
// a file that passes can be run without further checks; one that fails never crashes us.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/weights.h"

namespace bl {

// Parses and validates a whole model file held in memory; copies the weights out, so the
// buffer may be freed afterwards. Returns false with a message naming the problem; *out is
// left untouched then.
bool load_model(const uint8_t* data, size_t size, ModelData* out, std::string* error);

}  // namespace bl
