// Loads a model file (docs/model-format.md, version 1) from memory and validates all of it:
// a file that passes can be run without further checks; one that fails never crashes us.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "core/weights.h"

namespace bl {

// Parses and validates a whole model file held in memory; copies the weights out, so the
// buffer may be freed afterwards. Returns false with a message naming the problem; *out is
// left untouched then.
bool load_model(const uint8_t* data, size_t size, ModelData* out, std::string* error);

// load_model's first half, on its own for tests/fuzz: the safetensors header (a u64
// little-endian length, then that much JSON text: valid UTF-8, an object, within the header
// limits) into *header, and its __metadata__ (format, config, vocabularies, names) into *md;
// the tensors are not looked at. *header_size is the header's length in bytes: the data buffer
// starts at data + 8 + *header_size. False with a message otherwise (error must not be null).
bool parse_header(const uint8_t* data, size_t size, nlohmann::json* header, ModelData* md,
                  size_t* header_size, std::string* error);

}  // namespace bl
