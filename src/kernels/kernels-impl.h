// The free functions behind the bl::Kernels table (see kernels.h for their exact semantics).
//
// XNNPACK naming: bl_<type>_<op>__<isa>. Each ISA variant lives in its own file
// (`<family>-scalar.cpp`, `<family>-wasmsimd.cpp`) so a build can leave the SIMD files out
// entirely; registry.cpp is the only place that picks between them.
#pragma once
#include <cstddef>
#include <cstdint>

// gemv-*.cpp
void bl_f32_gemv__scalar(size_t rows, size_t cols, const float* W, size_t ld, const float* x,
                         const float* bias, float* y);
void bl_qs8_gemv__scalar(size_t rows, size_t cols, const int8_t* W, size_t ld, const float* scale,
                         const int32_t* wsum, const float* x, const float* bias, float* y);
// The int8 products' helpers, shared by gemv and gemm (gemv-scalar.cpp says what they compute).
float bl_qd14_quantize__scalar(size_t n, const float* x, int16_t* xq);
int64_t bl_qs8_dot__scalar(size_t n, const int8_t* w, const int16_t* xq);
// Per-thread room for a quantized x (scratch.h), shared by every ISA's int8 gemv.
int16_t* bl_qd14_scratch(size_t n);
// gemv-qs4-*.cpp: 4-bit weights in groups of 16 (gemv-qs4-scalar.cpp), gemv and gemm.
void bl_qs4_gemv__scalar(size_t rows, size_t cols, const uint8_t* W, size_t ld,
                         const float* scale, const float* x, const float* bias, float* y);
void bl_qs4_gemm__scalar(size_t rows, size_t cols, const uint8_t* W, size_t ld,
                         const float* scale, size_t B, const float* X, size_t ldx,
                         const float* bias, float* Y, size_t ldy);
int32_t bl_qs4_group_dot__scalar(const uint8_t* w, const int16_t* xq);
const float* bl_qd14_quantize_each(size_t B, size_t cols, const float* X, size_t ldx,
                                   float (*quantize)(size_t, const float*, int16_t*),
                                   int16_t** xq);
// attention-*.cpp
void bl_f32_additive_score__scalar(size_t n, size_t dim, const float* keys, size_t ld,
                                   const float* q, const float* v, float* e);
void bl_f32_dot_score__scalar(size_t n, size_t dim, const float* keys, size_t ld, const float* q,
                              float scale, float* e);
void bl_f32_weighted_sum__scalar(size_t n, size_t dim, const float* alpha, const float* h,
                                 size_t ld, float* c);
// softmax-*.cpp
void bl_f32_softmax__scalar(size_t n, const float* x, float* y);
void bl_f32_log_softmax__scalar(size_t n, const float* x, float* y);
// topk-*.cpp
size_t bl_f32_top_k__scalar(size_t n, const float* x, size_t k, float* vals, int32_t* ids);
// activation-*.cpp
void bl_f32_sigmoid__scalar(size_t n, const float* x, float* y);
void bl_f32_tanh__scalar(size_t n, const float* x, float* y);
void bl_f32_relu__scalar(size_t n, const float* x, float* y);
// layernorm-*.cpp
void bl_f32_layer_norm__scalar(size_t n, const float* x, const float* g, const float* b,
                               float eps, float* y);
// gemm-*.cpp
void bl_f32_gemm__scalar(size_t rows, size_t cols, const float* W, size_t ld, size_t B,
                         const float* X, size_t ldx, const float* bias, float* Y, size_t ldy);
void bl_qs8_gemm__scalar(size_t rows, size_t cols, const int8_t* W, size_t ld, const float* scale,
                         const int32_t* wsum, size_t B, const float* X, size_t ldx, const float* bias, float* Y,
                         size_t ldy);

#if defined(BL_HAVE_SIMD)
void bl_f32_gemv__wasmsimd(size_t rows, size_t cols, const float* W, size_t ld, const float* x,
                           const float* bias, float* y);
void bl_qs8_gemv__wasmsimd(size_t rows, size_t cols, const int8_t* W, size_t ld, const float* scale,
                           const int32_t* wsum, const float* x, const float* bias, float* y);
float bl_qd14_quantize__wasmsimd(size_t n, const float* x, int16_t* xq);
void bl_qs4_gemv__wasmsimd(size_t rows, size_t cols, const uint8_t* W, size_t ld,
                           const float* scale, const float* x, const float* bias, float* y);
void bl_qs4_gemm__wasmsimd(size_t rows, size_t cols, const uint8_t* W, size_t ld,
                           const float* scale, size_t B, const float* X, size_t ldx,
                           const float* bias, float* Y, size_t ldy);
void bl_f32_additive_score__wasmsimd(size_t n, size_t dim, const float* keys, size_t ld,
                                     const float* q, const float* v, float* e);
void bl_f32_dot_score__wasmsimd(size_t n, size_t dim, const float* keys, size_t ld, const float* q,
                                float scale, float* e);
void bl_f32_weighted_sum__wasmsimd(size_t n, size_t dim, const float* alpha, const float* h,
                                   size_t ld, float* c);
void bl_f32_softmax__wasmsimd(size_t n, const float* x, float* y);
void bl_f32_log_softmax__wasmsimd(size_t n, const float* x, float* y);
size_t bl_f32_top_k__wasmsimd(size_t n, const float* x, size_t k, float* vals, int32_t* ids);
void bl_f32_sigmoid__wasmsimd(size_t n, const float* x, float* y);
void bl_f32_tanh__wasmsimd(size_t n, const float* x, float* y);
void bl_f32_relu__wasmsimd(size_t n, const float* x, float* y);
void bl_f32_layer_norm__wasmsimd(size_t n, const float* x, const float* g, const float* b,
                                 float eps, float* y);
void bl_f32_gemm__wasmsimd(size_t rows, size_t cols, const float* W, size_t ld, size_t B,
                           const float* X, size_t ldx, const float* bias, float* Y, size_t ldy);
void bl_qs8_gemm__wasmsimd(size_t rows, size_t cols, const int8_t* W, size_t ld,
                           const float* scale, const int32_t* wsum, size_t B, const float* X, size_t ldx,
                           const float* bias, float* Y, size_t ldy);
#endif

#if defined(BL_HAVE_RELAXED)
// gemv-wasmrelaxed.cpp (wasm SIMD builds only): the int8 products through relaxed SIMD.
void bl_qs8_gemv__wasmrelaxed(size_t rows, size_t cols, const int8_t* W, size_t ld,
                              const float* scale, const int32_t* wsum, const float* x,
                              const float* bias, float* y);
void bl_qs8_gemm__wasmrelaxed(size_t rows, size_t cols, const int8_t* W, size_t ld,
                              const float* scale, const int32_t* wsum, size_t B, const float* X,
                              size_t ldx, const float* bias, float* Y, size_t ldy);
bool bl_relaxed_install__wasmrelaxed(uintptr_t table_index);
bool bl_relaxed_installed__wasmrelaxed();
#endif
