// The two kernel tables. This is the only file that knows which ISA variants were compiled in.
#include "kernels/kernels-impl.h"
#include "kernels/kernels.h"

namespace bl {

// Positional, in the field order of struct Kernels (C++17 has no designated initializers).
const Kernels& scalar_kernels() {
  static const Kernels k = {
      "scalar",
      bl_f32_gemv__scalar,
      bl_qs8_gemv__scalar,
      bl_f32_additive_score__scalar,
      bl_f32_dot_score__scalar,
      bl_f32_weighted_sum__scalar,
      bl_f32_softmax__scalar,
      bl_f32_log_softmax__scalar,
      bl_f32_sigmoid__scalar,
      bl_f32_tanh__scalar,
      bl_f32_gemm__scalar,
      bl_qs8_gemm__scalar,
      bl_f32_layer_norm__scalar,
      bl_f32_relu__scalar,
      bl_f32_top_k__scalar,
  };
  return k;
}

#if defined(BL_HAVE_SIMD)

const Kernels& simd_kernels() {
  static const Kernels k = {
      "wasm-simd",
      bl_f32_gemv__wasmsimd,
      bl_qs8_gemv__wasmsimd,
      bl_f32_additive_score__wasmsimd,
      bl_f32_dot_score__wasmsimd,
      bl_f32_weighted_sum__wasmsimd,
      bl_f32_softmax__wasmsimd,
      bl_f32_log_softmax__wasmsimd,
      bl_f32_sigmoid__wasmsimd,
      bl_f32_tanh__wasmsimd,
      bl_f32_gemm__wasmsimd,
      bl_qs8_gemm__wasmsimd,
      bl_f32_layer_norm__wasmsimd,
      bl_f32_relu__wasmsimd,
      bl_f32_top_k__wasmsimd,
  };
  return k;
}

bool have_simd_kernels() { return true; }

#else

// Callers can always ask for the SIMD table; without it they get the scalar one and can tell
// from have_simd_kernels() (or the table's name) that no SIMD path exists in this build.
const Kernels& simd_kernels() { return scalar_kernels(); }

bool have_simd_kernels() { return false; }

#endif

#if defined(BL_HAVE_RELAXED)

// The SIMD table with the relaxed int8 products: everything else is the same code.
const Kernels* relaxed_kernels() {
  static const Kernels k = [] {
    Kernels t = simd_kernels();
    t.name = "wasm-relaxed";
    t.gemv_i8 = bl_qs8_gemv__wasmrelaxed;
    t.gemm_i8 = bl_qs8_gemm__wasmrelaxed;
    return t;
  }();
  return bl_relaxed_installed__wasmrelaxed() ? &k : nullptr;
}

bool install_relaxed_dots(uintptr_t table_index) {
  return bl_relaxed_install__wasmrelaxed(table_index);
}

#else

const Kernels* relaxed_kernels() { return nullptr; }
bool install_relaxed_dots(uintptr_t) { return false; }

#endif

}  // namespace bl
