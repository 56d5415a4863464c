// What the model-file tests share (model_file_test.cpp, model_file_broken_test.cpp,
// model_file_tokenizer_test.cpp): the tiny fixtures, a file taken apart into header JSON and
// data buffer to be edited and put back together, and load_model's result in one struct.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/model_file.h"

namespace model_file_parts {

using nlohmann::json;
using Bytes = std::vector<uint8_t>;
using bl::ModelData;

// The fixtures the tests edit most (tests/fixtures/<stem>.safetensors).
inline const char* const kF32 = "tiny-additive-f32";
inline const char* const kI8 = "tiny-additive-int8";
inline const char* const kNone = "tiny-none-f32";
inline const char* const kQ4 = "tiny16-additive-cgru-q4";
inline const char* const kTf = "tiny-transformer-f32";
inline const char* const kTfI8 = "tiny-transformer-int8";

inline Bytes read_fixture(const std::string& name) {
  std::ifstream f(std::string(BL_SOURCE_DIR) + "/tests/fixtures/" + name, std::ios::binary);
  EXPECT_TRUE(f.good()) << name;
  return Bytes(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

inline const Bytes& fixture(const std::string& stem) {
  static std::map<std::string, Bytes> cache;
  auto it = cache.find(stem);
  if (it == cache.end()) it = cache.emplace(stem, read_fixture(stem + ".safetensors")).first;
  return it->second;
}

// A model file taken apart into header JSON and data buffer, to be edited and put back together.
// Read on its own (host is little-endian here, as is every target) to check the loader against.
struct Parts {
  json header;
  Bytes data;
};

inline Parts split(const Bytes& file) {
  uint64_t n = 0;
  std::memcpy(&n, file.data(), 8);
  Parts p;
  p.header = json::parse(file.begin() + 8, file.begin() + 8 + long(n));
  p.data.assign(file.begin() + 8 + long(n), file.end());
  return p;
}

inline Bytes with_length(Bytes file, uint64_t n) {
  std::memcpy(file.data(), &n, 8);
  return file;
}

inline Bytes join_text(std::string text, const Bytes& data) {
  text.append((8 - text.size() % 8) % 8, ' ');
  Bytes out(8);
  out.insert(out.end(), text.begin(), text.end());
  out.insert(out.end(), data.begin(), data.end());
  return with_length(out, text.size());
}

inline Bytes join(const Parts& p) { return join_text(p.header.dump(), p.data); }

inline Bytes edit(const std::string& stem, const std::function<void(Parts&)>& change) {
  Parts p = split(fixture(stem));
  change(p);
  return join(p);
}

// Metadata values such as config and vocabularies are JSON texts inside the header.
inline Bytes edit_meta(const std::string& stem, const std::string& key,
                       const std::function<void(json&)>& change) {
  return edit(stem, [&](Parts& p) {
    json value = json::parse(p.header["__metadata__"][key].get<std::string>());
    change(value);
    p.header["__metadata__"][key] = value.dump();
  });
}

// Overwrites one f32 element of a tensor in the data buffer.
inline Bytes put_f32(const std::string& stem, const std::string& name, size_t element, float value) {
  return edit(stem, [&](Parts& p) {
    const size_t at = p.header[name]["data_offsets"][0].get<size_t>() + 4 * element;
    std::memcpy(p.data.data() + at, &value, 4);
  });
}

inline Bytes truncated(const std::string& stem, size_t size) {
  const Bytes& f = fixture(stem);
  return Bytes(f.begin(), f.begin() + long(size));
}

inline uint64_t stored_header_length(const std::string& stem) {
  uint64_t n = 0;
  if (fixture(stem).size() >= 8) std::memcpy(&n, fixture(stem).data(), 8);
  return n;
}

struct Result {
  bool ok = false;
  ModelData md;
  std::string error;
};

inline Result load(const Bytes& file) {
  Result r;
  r.ok = bl::load_model(file.data(), file.size(), &r.md, &r.error);
  return r;
}

// The q4 fixture with the two bytes of tensor name's first scale (an f16) set to lo, hi.
inline Bytes q4_scale(const char* name, uint8_t lo, uint8_t hi) {
  return edit(kQ4, [&](Parts& p) {
    const uint64_t at = p.header[name]["data_offsets"][0].get<uint64_t>();
    p.data[at] = lo;
    p.data[at + 1] = hi;
  });
}

}  // namespace model_file_parts
