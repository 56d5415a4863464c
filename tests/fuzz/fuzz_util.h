// Shared by the libFuzzer harnesses of tests/fuzz (scripts/fuzz builds and runs them).
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace fuzz {

// An invariant that must hold whatever the input: its failure is a finding (libFuzzer saves
// the input as a crash artifact).
inline void check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz check failed: %s\n", what);
    std::abort();
  }
}

// A file of the repository (BL_SOURCE_DIR is set by tests/fuzz/CMakeLists.txt), read once at
// start-up; a missing one stops the run with a message, not a finding.
inline std::vector<uint8_t> repo_file(const std::string& path) {
  std::ifstream f(std::string(BL_SOURCE_DIR) + "/" + path, std::ios::binary);
  if (!f) {
    std::fprintf(stderr, "fuzz: cannot read %s/%s\n", BL_SOURCE_DIR, path.c_str());
    std::exit(2);
  }
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

}  // namespace fuzz
