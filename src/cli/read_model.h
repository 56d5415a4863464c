// Reading a --model file for the native CLI: a regular file of at most bl::kMaxModelBytes.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

// The whole file into *out; false and the whole message in *error (a directory, /dev/zero, a
// FIFO or an oversized file is refused before it is read).
bool read_model_file(const std::string& path, std::vector<uint8_t>* out, std::string* error);
