// The kernel tables: scalar against double-precision references and libm, and every SIMD kernel
// against its scalar twin on all lengths 1..67 (every tail mod 4 and mod 16), unaligned starts,
// ld > cols and null bias. Tolerances scale with sum |terms| (the error bound of a float sum),
// so a dropped, doubled or misplaced term fails by orders of magnitude.
#include "kernels/kernels.h"

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <random>
#include <vector>
#if defined(BL_HAVE_SIMD)
#include "kernels/math-wasmsimd.h"
#endif

namespace {

using bl::Kernels;
constexpr double kEps = FLT_EPSILON;
const float kInf = INFINITY;

#define REQUIRE_SIMD() \
  if (!bl::have_simd_kernels()) GTEST_SKIP() << "built without BL_SIMD"

// A buffer whose data starts `off` elements into its storage, so SIMD loads see every
// misalignment; one spare element at the end for ASan to guard.
template <typename T>
struct Buf {
  std::vector<T> mem;
  T* p;
  Buf(size_t n, size_t off) : mem(n + off + 1), p(mem.data() + off) {}
  T& operator[](size_t i) { return p[i]; }
};

Buf<float> randf(std::mt19937& rng, size_t n, size_t off, float lo = -1.0f, float hi = 1.0f) {
  Buf<float> b(n, off);
  std::uniform_real_distribution<float> u(lo, hi);
  for (size_t i = 0; i < n; i++) b[i] = u(rng);
  return b;
}

// The scalar table, and the SIMD one when this build has it.
std::vector<const Kernels*> all_tables() {
  std::vector<const Kernels*> t = {&bl::scalar_kernels()};
  if (bl::have_simd_kernels()) t.push_back(&bl::simd_kernels());
  return t;
}

// Rows of row-major matrices tested against: 1..9 covers every rows % 4 twice, the rest mix
// full 4-row passes with remainders.
const size_t kRows[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 16, 17, 33};

struct Gemv {
  size_t rows, cols, ld, off;
  bool bias;
};

std::vector<Gemv> gemv_shapes() {
  std::vector<Gemv> v;
  for (size_t rows : kRows)
    for (size_t cols = 1; cols <= 67; cols++)
      v.push_back(
          {rows, cols, cols + (rows + cols) % 3, (rows + cols) % 4, (rows + cols) % 5 != 0});
  return v;
}

// Double reference for y = bias + scale * W x; `mag` gets |bias| + |scale| * sum |W x| per row.
template <typename T>
std::vector<double> ref_gemv(const Gemv& s, const T* W, const float* scale, const float* x,
                             const float* bias, std::vector<double>* mag) {
  std::vector<double> y(s.rows);
  mag->assign(s.rows, 0.0);
  for (size_t r = 0; r < s.rows; r++) {
    double acc = 0.0, m = 0.0;
    for (size_t k = 0; k < s.cols; k++) {
      acc += double(W[r * s.ld + k]) * x[k];
      m += std::fabs(double(W[r * s.ld + k]) * x[k]);
    }
    const double sc = scale ? scale[r] : 1.0;
    y[r] = (bias ? bias[r] : 0.0) + sc * acc;
    (*mag)[r] = (bias ? std::fabs(bias[r]) : 0.0) + std::fabs(sc) * m;
  }
  return y;
}

// Runs one table's f32 gemv on `s`; checks it against double with the float-sum error bound.
void check_gemv_f32(const Kernels& k, const Gemv& s, std::mt19937& rng) {
  SCOPED_TRACE(::testing::Message() << k.name << " " << s.rows << "x" << s.cols << " ld=" << s.ld
                                    << " off=" << s.off << " bias=" << s.bias);
  auto W = randf(rng, s.rows * s.ld, s.off), x = randf(rng, s.cols, (s.off + 1) % 4);
  auto b = randf(rng, s.rows, (s.off + 2) % 4);
  Buf<float> y(s.rows, (s.off + 3) % 4);
  const float* bias = s.bias ? b.p : nullptr;
  k.gemv_f32(s.rows, s.cols, W.p, s.ld, x.p, bias, y.p);
  std::vector<double> mag;
  auto want = ref_gemv(s, W.p, nullptr, x.p, bias, &mag);
  for (size_t r = 0; r < s.rows; r++)
    ASSERT_NEAR(y[r], want[r], (s.cols + 2) * kEps * mag[r]) << "row " << r;
}

TEST(Kernels, Registry) {
  const Kernels* tables[] = {&bl::scalar_kernels(), &bl::simd_kernels()};
  for (const Kernels* k : tables) {
    ASSERT_NE(k->name, nullptr);
    EXPECT_TRUE(k->gemv_f32 && k->gemv_i8 && k->additive_score && k->dot_score && k->weighted_sum &&
                k->softmax && k->log_softmax && k->sigmoid && k->tanh && k->gemm_f32 &&
                k->gemm_i8 && k->layer_norm && k->relu && k->top_k && k->train_gemm_f32 &&
                k->train_exp_f32 && k->train_tanh_f32 && k->train_sigmoid_f32 && k->train_adam_f32);
  }
  EXPECT_STREQ(bl::scalar_kernels().name, "scalar");
  if (bl::have_simd_kernels()) {
    EXPECT_STREQ(bl::simd_kernels().name, "wasm-simd");
    EXPECT_NE(bl::simd_kernels().gemv_f32, bl::scalar_kernels().gemv_f32);
    EXPECT_NE(bl::simd_kernels().train_gemm_f32, bl::scalar_kernels().train_gemm_f32);
    EXPECT_NE(bl::simd_kernels().train_tanh_f32, bl::scalar_kernels().train_tanh_f32);
    EXPECT_NE(bl::simd_kernels().train_adam_f32, bl::scalar_kernels().train_adam_f32);
  } else {
    EXPECT_EQ(&bl::simd_kernels(), &bl::scalar_kernels());
  }
}

TEST(Kernels, GemvF32ScalarMatchesDouble) {
  std::mt19937 rng(1);
  for (const Gemv& s : gemv_shapes()) check_gemv_f32(bl::scalar_kernels(), s, rng);
}

TEST(Kernels, GemvF32SimdMatchesScalar) {
  REQUIRE_SIMD();
  std::mt19937 rng(2);
  const Kernels& sc = bl::scalar_kernels();
  const Kernels& simd = bl::simd_kernels();
  std::vector<Gemv> shapes = gemv_shapes();
  shapes.push_back({768, 640, 640, 1, true});
  shapes.push_back({8000, 128, 130, 3, false});
  for (const Gemv& s : shapes) {
    check_gemv_f32(simd, s, rng);
    if (HasFatalFailure()) return;
    // And directly against the scalar kernel on identical inputs.
    auto W = randf(rng, s.rows * s.ld, s.off), x = randf(rng, s.cols, s.off);
    Buf<float> y0(s.rows, 0), y1(s.rows, s.off);
    sc.gemv_f32(s.rows, s.cols, W.p, s.ld, x.p, nullptr, y0.p);
    simd.gemv_f32(s.rows, s.cols, W.p, s.ld, x.p, nullptr, y1.p);
    std::vector<double> mag;
    ref_gemv(s, W.p, nullptr, x.p, nullptr, &mag);
    for (size_t r = 0; r < s.rows; r++)
      ASSERT_NEAR(y1[r], y0[r], 2 * (s.cols + 2) * kEps * mag[r]) << s.rows << "x" << s.cols;
  }
}

// The int8 gemv (14-bit activations, exact integer sums) is tested in qs8_test.cpp.

struct Att {
  size_t n, dim, ld, off;
};

std::vector<Att> att_shapes() {
  std::vector<Att> v;
  for (size_t n : {1, 2, 3, 5, 10, 20})
    for (size_t dim = 1; dim <= 67; dim++)
      v.push_back({n, dim, dim + (n + dim) % 3, (n + dim) % 4});
  return v;
}

TEST(Kernels, AdditiveAndDotScore) {
  std::mt19937 rng(4);
  const std::vector<const Kernels*> tables = all_tables();
  for (const Att& s : att_shapes()) {
    auto keys = randf(rng, s.n * s.ld, s.off, -2.0f, 2.0f);
    auto q = randf(rng, s.dim, (s.off + 1) % 4, -2.0f, 2.0f), v = randf(rng, s.dim, 3);
    const float scale = 1.0f / std::sqrt(float(s.dim));
    std::vector<double> add(s.n), add_mag(s.n), dot(s.n), dot_mag(s.n);
    for (size_t j = 0; j < s.n; j++) {
      for (size_t a = 0; a < s.dim; a++) {
        const double t = double(v[a]) * std::tanh(double(keys[j * s.ld + a]) + q[a]);
        const double d = double(keys[j * s.ld + a]) * q[a];
        add[j] += t, add_mag[j] += std::fabs(t), dot[j] += d, dot_mag[j] += std::fabs(d);
      }
      dot[j] *= scale, dot_mag[j] *= scale;
    }
    std::vector<std::vector<float>> got;
    for (const Kernels* k : tables) {
      Buf<float> e(s.n, s.off), f(s.n, (s.off + 2) % 4);
      k->additive_score(s.n, s.dim, keys.p, s.ld, q.p, v.p, e.p);
      k->dot_score(s.n, s.dim, keys.p, s.ld, q.p, scale, f.p);
      for (size_t j = 0; j < s.n; j++) {
        // tanh in float (keys + q is rounded first, then ~1 ulp of tanh) plus the sum's bound.
        ASSERT_NEAR(e[j], add[j], ((s.dim + 2) * kEps + 1e-6) * add_mag[j] + 1e-30)
            << k->name << " n=" << s.n << " dim=" << s.dim;
        ASSERT_NEAR(f[j], dot[j], (s.dim + 2) * kEps * dot_mag[j] + 1e-30)
            << k->name << " n=" << s.n << " dim=" << s.dim;
      }
      got.emplace_back(e.p, e.p + s.n);
    }
    if (got.size() == 2) {
      for (size_t j = 0; j < s.n; j++)
        ASSERT_NEAR(got[1][j], got[0][j], (2 * (s.dim + 2) * kEps + 2e-6) * add_mag[j] + 1e-30);
    }
  }
}

TEST(Kernels, WeightedSum) {
  std::mt19937 rng(5);
  const std::vector<const Kernels*> tables = all_tables();
  for (const Att& s : att_shapes()) {
    auto alpha = randf(rng, s.n, (s.off + 3) % 4, 0.0f, 1.0f);
    auto h = randf(rng, s.n * s.ld, s.off, -3.0f, 3.0f);
    for (const Kernels* k : tables) {
      Buf<float> c(s.dim, (s.off + 1) % 4);
      k->weighted_sum(s.n, s.dim, alpha.p, h.p, s.ld, c.p);
      for (size_t d = 0; d < s.dim; d++) {
        double want = 0.0, mag = 0.0;
        for (size_t j = 0; j < s.n; j++) {
          want += double(alpha[j]) * h[j * s.ld + d];
          mag += std::fabs(double(alpha[j]) * h[j * s.ld + d]);
        }
        ASSERT_NEAR(c[d], want, (s.n + 2) * kEps * mag) << k->name << " n=" << s.n << " d=" << d;
      }
    }
  }
}

// Softmax inputs of length n: random logits, some masked with -inf (never all), and shifted
// by `base` (1e4 checks that nothing overflows).
Buf<float> logits(std::mt19937& rng, size_t n, size_t off, float base) {
  Buf<float> x = randf(rng, n, off, base - 20.0f, base + 20.0f);
  for (size_t i = 1; i < n; i += 3) x[i] = -kInf;
  return x;
}

TEST(Kernels, SoftmaxAndLogSoftmax) {
  std::mt19937 rng(6);
  const std::vector<const Kernels*> tables = all_tables();
  std::vector<size_t> lengths;
  for (size_t n = 1; n <= 67; n++) lengths.push_back(n);
  lengths.push_back(8000);
  for (size_t n : lengths) {
    for (float base : {0.0f, 1e4f, -1e4f}) {
      auto x = logits(rng, n, n % 4, base);
      double m = -INFINITY, sum = 0.0;
      for (size_t i = 0; i < n; i++) m = std::max(m, double(x[i]));
      for (size_t i = 0; i < n; i++) sum += std::exp(double(x[i]) - m);
      std::vector<std::vector<float>> got;
      for (const Kernels* k : tables) {
        SCOPED_TRACE(::testing::Message() << k->name << " n=" << n << " base=" << base);
        Buf<float> y(n, (n + 1) % 4), ls(n, 0);
        k->softmax(n, x.p, y.p);
        k->log_softmax(n, x.p, ls.p);
        double total = 0.0;
        for (size_t i = 0; i < n; i++) {
          total += y[i];
          const double want = std::exp(double(x[i]) - m) / sum;
          ASSERT_NEAR(y[i], want, 1e-5 * want + 1e-30) << i;
          if (std::isinf(x[i])) {
            ASSERT_EQ(y[i], 0.0f);
            ASSERT_EQ(ls[i], -kInf);
            continue;
          }
          const double want_ls = double(x[i]) - m - std::log(sum);
          ASSERT_NEAR(ls[i], want_ls, 1e-5 * std::max(1.0, std::fabs(want_ls))) << i;
          if (y[i] > 1e-30f) {
            ASSERT_NEAR(ls[i], std::log(y[i]), 1e-5 * std::max(1.0f, -ls[i]));
          }
        }
        ASSERT_NEAR(total, 1.0, 1e-5);
        // In place (y == x) gives the same answer.
        std::vector<float> inplace(x.p, x.p + n);
        k->softmax(n, inplace.data(), inplace.data());
        for (size_t i = 0; i < n; i++) ASSERT_EQ(inplace[i], y[i]);
        got.emplace_back(y.p, y.p + n);
      }
      if (got.size() == 2) {
        for (size_t i = 0; i < n; i++) ASSERT_NEAR(got[1][i], got[0][i], 1e-5 * got[0][i] + 1e-30);
      }
    }
  }
}

// A crafted model's huge finite weights can make a logit +inf or NaN; log_softmax must then give
// -inf, never NaN, so the search's strict ordering holds (kernels.h). Every length through 67,
// the bad entry in the SIMD body and in the tail, in place and not.
TEST(Kernels, LogSoftmaxMapsNanToMinusInf) {
  for (const Kernels* k : all_tables()) {
    for (size_t n = 1; n <= 67; n++) {
      for (float bad : {NAN, kInf}) {
        SCOPED_TRACE(::testing::Message() << k->name << " n=" << n << " bad=" << bad);
        std::vector<float> x(n), y(n, 0.0f);
        for (size_t i = 0; i < n; i++) x[i] = float(i % 7) - 3.0f;
        x[(n * 5) / 7] = bad;
        if (n > 3) x[n - 2] = bad;
        k->log_softmax(n, x.data(), y.data());
        for (size_t i = 0; i < n; i++) ASSERT_EQ(y[i], -kInf) << i;
        k->log_softmax(n, x.data(), x.data());
        for (size_t i = 0; i < n; i++) ASSERT_EQ(x[i], -kInf) << i;
      }
    }
  }
}

// Activation inputs: [-30, 30] every 1/1024, zero, tiny and denormal values, both sides of the
// tanh branch point (0.625) and of 9 (where tanh rounds to 1), and large values.
std::vector<float> activation_points() {
  std::vector<float> p;
  for (int i = -30 * 1024; i <= 30 * 1024; i++) p.push_back(i / 1024.0f);
  for (float v :
       {0.0f, 1e-8f, 3e-5f, 1e-20f, 1e-38f, 1e-40f, 0.625f, 9.0f, 30.0f, 88.0f, 100.0f, 1e30f}) {
    for (float s : {1.0f, -1.0f}) {
      p.push_back(s * v);
      p.push_back(std::nextafter(s * v, 0.0f));
      p.push_back(std::nextafter(s * v, s * kInf));
    }
  }
  return p;
}

void check_activation(const char* what, const Kernels& k, void (*fn)(size_t, const float*, float*),
                      double (*ref)(double)) {
  const std::vector<float> x = activation_points();
  std::vector<float> y(x.size());
  fn(x.size(), x.data(), y.data());
  for (size_t i = 0; i < x.size(); i++) {
    const double want = ref(x[i]);
    // Relative 1e-6; the absolute floor only matters where the answer is itself below 1e-30
    // (sigmoid far left), which f32 cannot hold to relative precision anyway.
    ASSERT_NEAR(y[i], want, 1e-6 * std::fabs(want) + 1e-30)
        << what << " " << k.name << " x=" << x[i];
  }
  const float special[4] = {kInf, -kInf, NAN, 0.0f};
  float out[4];
  fn(4, special, out);
  EXPECT_EQ(out[0], ref(kInf)) << what << " " << k.name;
  EXPECT_EQ(out[1], ref(-kInf)) << what << " " << k.name;
  EXPECT_TRUE(std::isnan(out[2])) << what << " " << k.name;
}

double ref_tanh(double x) { return std::tanh(x); }
double ref_sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

TEST(Kernels, ActivationsMatchLibm) {
  const std::vector<const Kernels*> tables = all_tables();
  for (const Kernels* k : tables) {
    check_activation("tanh", *k, k->tanh, ref_tanh);
    check_activation("sigmoid", *k, k->sigmoid, ref_sigmoid);
  }
}

TEST(Kernels, ActivationsSimdMatchScalarOnEveryLength) {
  REQUIRE_SIMD();
  std::mt19937 rng(7);
  const Kernels& sc = bl::scalar_kernels();
  const Kernels& simd = bl::simd_kernels();
  for (size_t n = 1; n <= 67; n++) {
    auto x = randf(rng, n, n % 4, -12.0f, 12.0f);
    for (auto fn : {&Kernels::tanh, &Kernels::sigmoid}) {
      std::vector<float> want(n);
      (sc.*fn)(n, x.p, want.data());
      Buf<float> y(n, (n + 3) % 4);
      (simd.*fn)(n, x.p, y.p);
      std::vector<float> inplace(x.p, x.p + n);
      (simd.*fn)(n, inplace.data(), inplace.data());
      for (size_t i = 0; i < n; i++) {
        ASSERT_NEAR(y[i], want[i], 2e-6 * std::fabs(want[i])) << "n=" << n << " x=" << x[i];
        ASSERT_EQ(inplace[i], y[i]);
      }
      // Nothing past the n outputs is touched (the tail goes through a stack buffer).
      ASSERT_EQ(y.mem.back(), 0.0f);
    }
  }
}

#if defined(BL_HAVE_SIMD)
// The vectorised exp under softmax, sigmoid and tanh, on its whole documented range.
TEST(Kernels, VectorExpMatchesLibm) {
  for (float x = -87.3f; x <= 88.3f; x += 0.001f) {
    float out[4];
    wasm_v128_store(out, bl_vexp_f32x4(wasm_f32x4_make(x, -x * 0.5f, x * 1e-3f, x * 1e-7f)));
    const float in[4] = {x, -x * 0.5f, x * 1e-3f, x * 1e-7f};
    for (int l = 0; l < 4; l++) {
      const double want = std::exp(double(in[l]));
      ASSERT_NEAR(out[l], want, 1e-6 * want) << "x=" << in[l];
    }
  }
  float out[4];
  wasm_v128_store(out, bl_vexp_f32x4(wasm_f32x4_make(-kInf, -100.0f, NAN, 0.0f)));
  EXPECT_EQ(out[0], 0.0f);
  EXPECT_EQ(out[1], 0.0f);
  EXPECT_TRUE(std::isnan(out[2]));
  EXPECT_EQ(out[3], 1.0f);
}
#endif

}  // namespace
