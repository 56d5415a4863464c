// The hot kernels of one decoder step, as a table of function pointers.
//
// Every family has a scalar reference (`*-scalar.cpp`) and a wasm SIMD version
// (`*-wasmsimd.cpp`) with the identical signature; tests/cpp/kernels_test.cpp compares each pair
// on random shapes. The core calls kernels only through this table, so one binary can run either
// (the page's "force scalar" switch, and the native bench comparing the two).
//
// Layout conventions: matrices are row-major with a leading dimension `ld` (elements between
// rows, >= cols). Pointers need no particular alignment. Outputs never alias inputs unless said.
// The conditions stated here are asserted at each kernel's entry in debug and ASan builds
// (checks.h).
#pragma once
#include <cstddef>
#include <cstdint>

namespace bl {

// One Adam step's constants (train_adam_f32), made by core/adam.cpp from TrainParams and t.
struct AdamStep {
  float gscale;        // the gradient's clipping coefficient, min(1, clip / (||g|| + 1e-6))
  float b1, a1;        // beta1 and 1 - beta1
  float b2, a2;        // beta2 and 1 - beta2
  float step;          // lr / (1 - beta1^t)
  float bc2_root;      // sqrt(1 - beta2^t)
  float eps;
};

struct Kernels {
  const char* name;  // "scalar", "wasm-simd" or "wasm-relaxed"

  // y[r] = bias[r] + sum_k W[r*ld + k] * x[k]      (bias may be null: treated as 0)
  void (*gemv_f32)(size_t rows, size_t cols, const float* W, size_t ld, const float* x,
                   const float* bias, float* y);
  // y[r] = bias[r] + (scale[r] * xs) * float(sum_k W[r*ld + k] * xq[k])    (bias may be null)
  // with x quantized once per call to 14-bit integers (qd14): amax = max|x|, xs = amax / 8191,
  // xq[k] = round(x[k] / xs) in [-8191, 8191] (gemv-scalar.cpp has the exact f32 steps). The
  // sum is an exact integer (int64), so every table computes the same bits; against f32
  // activations it is off by at most scale[r] * sum_k |W[r*ld + k]| * amax / 16382.
  // wsum[r] = sum_k W[r*ld + k] (Matrix::row_sum, computed at load): only the relaxed table
  // reads it, to take back the offset that makes its activations non-negative
  // (gemv-wasmrelaxed.cpp); the others ignore it. SIMD: i32x4.dot_i16x8_s on the int8 weights
  // widened to int16 (qs8-wasmsimd.h). 14 bits rather than 16 so that the relaxed table can
  // split every activation into two 7-bit halves and get the same integers. x finite.
  void (*gemv_i8)(size_t rows, size_t cols, const int8_t* W, size_t ld, const float* scale,
                  const int32_t* wsum, const float* x, const float* bias, float* y);
  // e[j] = sum_a v[a] * tanh(keys[j*ld + a] + q[a]),  j < n, a < dim   (additive attention)
  void (*additive_score)(size_t n, size_t dim, const float* keys, size_t ld, const float* q,
                         const float* v, float* e);
  // e[j] = scale * sum_a keys[j*ld + a] * q[a]                        (scaled dot product)
  void (*dot_score)(size_t n, size_t dim, const float* keys, size_t ld, const float* q,
                    float scale, float* e);
  // c[d] = sum_j alpha[j] * h[j*ld + d],  d < dim                      (context vector)
  void (*weighted_sum)(size_t n, size_t dim, const float* alpha, const float* h, size_t ld,
                       float* c);
  // y = softmax(x); y may equal x. -inf entries get weight 0; n >= 1.
  void (*softmax)(size_t n, const float* x, float* y);
  // y = log_softmax(x); y may equal x. A NaN result (a crafted model's huge finite weights
  // can overflow to inf - inf) becomes -inf, so it ranks last in the search's strict ordering;
  // doing it here spares the decoders a second pass over the vocabulary.
  void (*log_softmax)(size_t n, const float* x, float* y);
  // Elementwise; y may equal x. Within 1e-6 relative of libm (tanhf/expf) on [-30, 30].
  void (*sigmoid)(size_t n, const float* x, float* y);
  void (*tanh)(size_t n, const float* x, float* y);

  // Batched decoding (gemm-*.cpp): the same product for B vectors at once, stored as rows of X
  // and Y (vector b at X + b*ldx, its result at Y + b*ldy):
  //   Y[b*ldy + r] = bias[r] + sum_k W[r*ld + k] * X[b*ldx + k],   r < rows, b < B
  // Every Y[b*ldy + r] is bit-identical to what this table's gemv computes for row r and
  // vector b (f32: same accumulation order, tails included; int8: each vector quantized as gemv
  // quantizes it, exact integer sums), so a batch decodes exactly the numbers of one-at-a-time
  // decoding on each engine and gives identical tokens. What batching buys: each block of 4
  // rows of W is read from memory once for all B vectors. The multiply and add per weight and
  // vector remain, so the gain is bounded (scripts/bench measures it).
  void (*gemm_f32)(size_t rows, size_t cols, const float* W, size_t ld, size_t B, const float* X,
                   size_t ldx, const float* bias, float* Y, size_t ldy);
  // Y[b*ldy + r] = gemv_i8's y[r] for x = X + b*ldx (each vector quantized with its own xs)
  void (*gemm_i8)(size_t rows, size_t cols, const int8_t* W, size_t ld, const float* scale,
                  const int32_t* wsum, size_t B, const float* X, size_t ldx, const float* bias,
                  float* Y, size_t ldy);

  // 4-bit weights (gemv-qs4-scalar.cpp has the packing): cols / 16 groups of 16 weights a row,
  // 8 bytes each (ld: bytes between rows), and one f32 scale a group (scale[r * cols/16 + g]).
  // x is quantized as for gemv_i8 (qd14); d_g, a group's dot product with it, is an exact
  // integer, and the groups add up in f32 in order:
  //   y[r] = bias[r] + xs * (... ((0 + s_0 * float(d_0)) + s_1 * float(d_1)) + ...)
  // so every table computes the same bits. cols a multiple of 16. gemm_q4 is this for each of
  // B vectors, as gemm_i8 is gemv_i8's.
  void (*gemv_q4)(size_t rows, size_t cols, const uint8_t* W, size_t ld, const float* scale,
                  const float* x, const float* bias, float* y);
  void (*gemm_q4)(size_t rows, size_t cols, const uint8_t* W, size_t ld, const float* scale,
                  size_t B, const float* X, size_t ldx, const float* bias, float* Y, size_t ldy);

  // The Transformer's own pieces (its attention reuses dot_score, softmax and weighted_sum on
  // one head's columns of a key/value cache, through their ld; its projections are gemv/gemm).
  // y[i] = (x[i] - mean) / sqrt(var + eps) * g[i] + b[i], mean and biased var over x[0..n);
  // y may equal x; n >= 1.
  void (*layer_norm)(size_t n, const float* x, const float* g, const float* b, float eps,
                     float* y);
  // y = max(x, 0) (NaN gives 0); y may equal x. The bias comes from gemv/gemm before it.
  void (*relu)(size_t n, const float* x, float* y);

  // The search's pick (topk-*.cpp): writes the min(k, n) largest x to vals, largest first, and
  // their indices to ids; returns that count. Ties go to the lower index; x has no NaN (the
  // decoder steps map NaN log-probs to -inf). Both tables give identical results. The cost is
  // one pass plus an insertion into a k-long array per new candidate, so it suits small k;
  // search.cpp's top_k() partial-sorts beyond that.
  size_t (*top_k)(size_t n, const float* x, size_t k, float* vals, int32_t* ids);

  // Training (train-gemm-*.cpp; src/core/train_ops.h): every product of the training pass,
  // forward and backward, a recurrence step's products over the pairs in lockstep (M = up to
  // the batch size) and the batch's output layer alike:
  //   C[m*ldc + j] += sum_k A[m*a_row + k*a_col] * B[k*ldb + j],   m < M, j < N, k < K
  // accumulated into C's old value one product at a time, k ascending (mul, then add; no FMA,
  // except in fused_train_kernels()).
  // The strides of A let one kernel read A or its transpose. Unlike gemv, the scalar and SIMD
  // tables compute the same bits (the SIMD lanes run over j, never over k), so both wasm
  // variants train to the same losses; fused_train_kernels() computes its scalar twin's, which
  // round once per multiply-add. C apart from A and B; ldc >= N, ldb >= N when K > 1.
  void (*train_gemm_f32)(size_t M, size_t N, size_t K, const float* A, size_t a_row,
                         size_t a_col, const float* B, size_t ldb, float* C, size_t ldc);
  // Training's elementwise math (train-math-*.cpp): y = exp(x), tanh(x), sigmoid(x); y may
  // equal x. The polynomials of math-wasmsimd.h (Cephes'), within 1e-6 relative of libm on
  // [-30, 30], as sigmoid and tanh above; but here the scalar twin computes each element with
  // the SIMD lane's own operations, so every table gives the same bits (not NaN payloads), and
  // the two wasm variants train alike. exp is 0 below -87.34 and clamped above 88.38.
  void (*train_exp_f32)(size_t n, const float* x, float* y);
  void (*train_tanh_f32)(size_t n, const float* x, float* y);
  void (*train_sigmoid_f32)(size_t n, const float* x, float* y);
  // Training's reductions (train-reduce-*.cpp): sum_i a[i] b[i], sum_i x[i], max_i x[i] (-inf
  // for n = 0; wasm's pmax, a < b ? b : a). Not in index order: element i goes to lane i % 16
  // of 16 running values, combined in one fixed tree (train-reduce.h), so that no long chain of
  // dependent adds stalls the step; every table uses that order, and gives the same bits.
  float (*train_dot_f32)(size_t n, const float* a, const float* b);
  float (*train_sum_f32)(size_t n, const float* x);
  float (*train_max_f32)(size_t n, const float* x);
  // Adam's update (train-adam-*.cpp; core/adam.cpp), elementwise for i < n, g_i = gscale g[i]:
  //   m = b1 m + a1 g_i;  v = b2 v + (a2 g_i) g_i;  w -= step (m / (sqrt(v) / bc2_root + eps))
  // each operation rounded to f32 in that order (sqrt and / are correctly rounded), so every
  // table gives the same bits. gscale is the clipping coefficient (1: none).
  void (*train_adam_f32)(size_t n, float* w, float* m, float* v, const float* g,
                         const AdamStep& s);
};

// Every kernel of the table, by name: its field above and the stem of the functions behind it
// (kernels-impl.h: bl_<stem>__<isa>). registry.cpp builds each table from this list, one
// assignment per field by name, so a table has no positional lines to swap; it also checks that
// the list names every field, so a field added above and not here does not compile.
#define BL_KERNEL_LIST(X)                  \
  X(gemv_f32, bl_f32_gemv)                 \
  X(gemv_i8, bl_qs8_gemv)                  \
  X(additive_score, bl_f32_additive_score) \
  X(dot_score, bl_f32_dot_score)           \
  X(weighted_sum, bl_f32_weighted_sum)     \
  X(softmax, bl_f32_softmax)               \
  X(log_softmax, bl_f32_log_softmax)       \
  X(sigmoid, bl_f32_sigmoid)               \
  X(tanh, bl_f32_tanh)                     \
  X(gemm_f32, bl_f32_gemm)                 \
  X(gemm_i8, bl_qs8_gemm)                  \
  X(gemv_q4, bl_qs4_gemv)                  \
  X(gemm_q4, bl_qs4_gemm)                  \
  X(layer_norm, bl_f32_layer_norm)         \
  X(relu, bl_f32_relu)                     \
  X(top_k, bl_f32_top_k)                   \
  X(train_gemm_f32, bl_f32_train_gemm)    \
  X(train_exp_f32, bl_f32_train_exp)       \
  X(train_tanh_f32, bl_f32_train_tanh)     \
  X(train_sigmoid_f32, bl_f32_train_sigmoid) \
  X(train_dot_f32, bl_f32_train_dot)       \
  X(train_sum_f32, bl_f32_train_sum)       \
  X(train_max_f32, bl_f32_train_max)       \
  X(train_adam_f32, bl_f32_train_adam)

const Kernels& scalar_kernels();
// The wasm SIMD table; when the library was built without BL_HAVE_SIMD it is the scalar one.
const Kernels& simd_kernels();
bool have_simd_kernels();
// The wasm SIMD table with relaxed-SIMD int8 products (gemv-wasmrelaxed.cpp), or null: only a
// wasm SIMD build has it, and only once its host installed the relaxed kernel module (a JS
// engine that validates relaxed SIMD; web/lib/relaxed.js). Same results as simd_kernels().
const Kernels* relaxed_kernels();
// Installs the relaxed module's `dots` function, which the host put at this index of the wasm
// function table. False (and nothing installed) where this build cannot use it.
bool install_relaxed_dots(uintptr_t table_index);
// The wasm SIMD table whose train_gemm_f32 fuses each multiply-add (train-gemm-wasmrelaxed.cpp,
// bit-identical to bl_f32_train_gemm_fused__scalar), or null: only a wasm SIMD build has it,
// once its host installed the relaxed training module and the engine's relaxed_madd proved
// fused. Trainers with TrainParams::relaxed use it; its results differ from the other tables'
// by rounding (one rounding per multiply-add instead of two).
const Kernels* fused_train_kernels();
// The scalar table with bl_f32_train_gemm_fused__scalar, the twin of that kernel: for tests.
const Kernels& fused_scalar_train_kernels();
// Installs the relaxed training module's `gemm` (at this index of the function table) after
// checking it against the fused scalar twin. False, and nothing installed, otherwise.
bool install_relaxed_gemm(uintptr_t table_index);

}  // namespace bl
