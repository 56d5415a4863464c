// The free functions behind the training kernels of the bl::Kernels table (kernels.h,
// train_gemm_f32), named as kernels-impl.h names the inference ones: bl_<type>_<op>__<isa>.
#pragma once
#include <cstddef>

// train-gemm-*.cpp
void bl_f32_train_gemm__scalar(size_t M, size_t N, size_t K, const float* A, size_t a_row,
                               size_t a_col, const float* B, size_t ldb, float* C, size_t ldc);
#if defined(BL_HAVE_SIMD)
void bl_f32_train_gemm__wasmsimd(size_t M, size_t N, size_t K, const float* A, size_t a_row,
                                 size_t a_col, const float* B, size_t ldb, float* C, size_t ldc);
#endif
