// What the kernel tests share: every kernel table this build has, and bitwise equality.
#pragma once
#include <cstring>
#include <vector>

#include "kernels/kernels.h"

namespace kernel_tests {

inline bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// The scalar table, and the wasm SIMD one where this build has it.
inline std::vector<const bl::Kernels*> all_tables() {
  std::vector<const bl::Kernels*> t = {&bl::scalar_kernels()};
  if (bl::have_simd_kernels()) t.push_back(&bl::simd_kernels());
  return t;
}

}  // namespace kernel_tests
