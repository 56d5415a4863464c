// The free functions behind the training kernels of the bl::Kernels table (kernels.h,
// train_gemm_f32 and the rest of its training fields), named as kernels-impl.h names the inference
// ones: bl_<type>_<op>__<isa>.
#pragma once
#include <cstddef>
#include <cstdint>

#include "kernels/kernels-impl.h"  // the inference tanh and sigmoid
#include "kernels/kernels.h"  // AdamStep

// train-gemm-*.cpp
void bl_f32_train_gemm__scalar(size_t M, size_t N, size_t K, const float* A, size_t a_row,
                               size_t a_col, const float* B, size_t ldb, float* C, size_t ldc);
// fma for floats, correctly rounded on every platform (train-gemm-scalar.cpp says why not std::fma).
float bl_fma_f32(float a, float b, float c);
// Each multiply-add fused (bl_fma_f32): the relaxed kernel's twin.
void bl_f32_train_gemm_fused__scalar(size_t M, size_t N, size_t K, const float* A, size_t a_row,
                                     size_t a_col, const float* B, size_t ldb, float* C,
                                     size_t ldc);
#if defined(BL_HAVE_SIMD)
void bl_f32_train_gemm__wasmsimd(size_t M, size_t N, size_t K, const float* A, size_t a_row,
                                 size_t a_col, const float* B, size_t ldb, float* C, size_t ldc);
#endif
#if defined(BL_HAVE_RELAXED)
// train-gemm-wasmrelaxed.cpp: the fused product through relaxed SIMD (wasm SIMD builds only).
void bl_f32_train_gemm_fused__wasmrelaxed(size_t M, size_t N, size_t K, const float* A,
                                          size_t a_row, size_t a_col, const float* B, size_t ldb,
                                          float* C, size_t ldc);
bool bl_relaxed_gemm_install__wasmrelaxed(uintptr_t table_index);
bool bl_relaxed_gemm_installed__wasmrelaxed();
#endif

// train-math-*.cpp
void bl_f32_train_exp__scalar(size_t n, const float* x, float* y);
void bl_f32_train_tanh__scalar(size_t n, const float* x, float* y);
void bl_f32_train_sigmoid__scalar(size_t n, const float* x, float* y);
#if defined(BL_HAVE_SIMD)
void bl_f32_train_exp__wasmsimd(size_t n, const float* x, float* y);
// tanh and sigmoid: the inference kernels themselves (activation-wasmsimd.cpp), not copies or
// wrappers; what training adds is their scalar twin above, lane for lane.
inline constexpr auto bl_f32_train_tanh__wasmsimd = bl_f32_tanh__wasmsimd;
inline constexpr auto bl_f32_train_sigmoid__wasmsimd = bl_f32_sigmoid__wasmsimd;
#endif

// train-reduce-*.cpp
float bl_f32_train_dot__scalar(size_t n, const float* a, const float* b);
float bl_f32_train_sum__scalar(size_t n, const float* x);
float bl_f32_train_max__scalar(size_t n, const float* x);
#if defined(BL_HAVE_SIMD)
float bl_f32_train_dot__wasmsimd(size_t n, const float* a, const float* b);
float bl_f32_train_sum__wasmsimd(size_t n, const float* x);
float bl_f32_train_max__wasmsimd(size_t n, const float* x);
#endif

// train-adam-*.cpp
void bl_f32_train_adam__scalar(size_t n, float* w, float* m, float* v, const float* g,
                               const bl::AdamStep& s);
#if defined(BL_HAVE_SIMD)
void bl_f32_train_adam__wasmsimd(size_t n, float* w, float* m, float* v, const float* g,
                                 const bl::AdamStep& s);
#endif
