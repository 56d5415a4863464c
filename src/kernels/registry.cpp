// The two kernel tables. This is the only file that knows which ISA variants were compiled in.
#include "kernels/kernels-impl.h"
#include "kernels/kernels.h"
#include "kernels/train-kernels-impl.h"

namespace bl {

// A table: its name, then one assignment per field of BL_KERNEL_LIST (kernels.h), by name:
// t.<field> = bl_<stem>__<isa>, the isa chosen by the ENTRY macro.
#define BL_TABLE(label, ENTRY)  \
  [] {                          \
    Kernels t{};                \
    t.name = label;             \
    BL_KERNEL_LIST(ENTRY)       \
    return t;                   \
  }()
#define BL_SCALAR(field, stem) t.field = stem##__scalar;
#define BL_WASMSIMD(field, stem) t.field = stem##__wasmsimd;
#define BL_COUNT(field, stem) +1

// The list names every field of Kernels (all function pointers, after the name).
static_assert(sizeof(Kernels) ==
                  sizeof(const char*) + (0 BL_KERNEL_LIST(BL_COUNT)) * sizeof(void (*)()),
              "BL_KERNEL_LIST (kernels.h) must name every field of struct Kernels");

const Kernels& scalar_kernels() {
  static constexpr Kernels k = BL_TABLE("scalar", BL_SCALAR);
  return k;
}

// The scalar table with the fused product: the relaxed kernel's reference, through which the
// native tests check fused training against PyTorch (tests/cpp/train_test.cpp).
const Kernels& fused_scalar_train_kernels() {
  static const Kernels k = [] {
    Kernels t = scalar_kernels();
    t.name = "scalar-fused";
    t.train_gemm_f32 = bl_f32_train_gemm_fused__scalar;
    return t;
  }();
  return k;
}

#if defined(BL_HAVE_SIMD)

const Kernels& simd_kernels() {
  static constexpr Kernels k = BL_TABLE("wasm-simd", BL_WASMSIMD);
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

// The SIMD table with the training product's multiply-adds fused: everything else is the same.
const Kernels* fused_train_kernels() {
  static const Kernels k = [] {
    Kernels t = simd_kernels();
    t.name = "wasm-relaxed";
    t.train_gemm_f32 = bl_f32_train_gemm_fused__wasmrelaxed;
    return t;
  }();
  return bl_relaxed_gemm_installed__wasmrelaxed() ? &k : nullptr;
}

bool install_relaxed_gemm(uintptr_t table_index) {
  return bl_relaxed_gemm_install__wasmrelaxed(table_index);
}

#else

const Kernels* relaxed_kernels() { return nullptr; }
bool install_relaxed_dots(uintptr_t) { return false; }
const Kernels* fused_train_kernels() { return nullptr; }
bool install_relaxed_gemm(uintptr_t) { return false; }

#endif

}  // namespace bl
