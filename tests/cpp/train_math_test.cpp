// The training pass's elementwise kernels (kernels.h, train_exp_f32, train_tanh_f32,
// train_sigmoid_f32, train_adam_f32): each table against libm (or Adam's formula in double)
// within the stated bounds, and the wasm SIMD twin against the scalar one bit for bit, on every
// length up to 67 (the tails through the stack buffer), in place and apart, and on the points
// where the polynomials switch branch or clamp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "kernels/kernels.h"

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

using Fn = void (*bl::Kernels::*)(size_t, const float*, float*);

struct Op {
  const char* name;
  Fn fn;
  double (*ref)(double);
};

const Op kOps[] = {
    {"exp", &bl::Kernels::train_exp_f32, [](double x) { return std::exp(x); }},
    {"tanh", &bl::Kernels::train_tanh_f32, [](double x) { return std::tanh(x); }},
    {"sigmoid", &bl::Kernels::train_sigmoid_f32, [](double x) { return 1 / (1 + std::exp(-x)); }},
};

// [-30, 30] every 1/256, and both sides of every switch point: the exp clamps (-87.34, 88.38),
// tanh's branch (0.625) and clamp (10), zero, tiny, denormal and huge values.
std::vector<float> points() {
  std::vector<float> p;
  for (int i = -30 * 256; i <= 30 * 256; i++) p.push_back(i / 256.0f);
  for (float v : {0.0f, 1e-8f, 1e-38f, 1e-40f, 0.625f, 9.0f, 10.0f, 30.0f, 87.33654f, 88.37626f,
                  100.0f, 1e30f, kInf}) {
    for (float s : {1.0f, -1.0f}) {
      p.push_back(s * v);
      p.push_back(std::nextafter(s * v, 0.0f));
      p.push_back(std::nextafter(s * v, s * kInf));
    }
  }
  return p;
}

uint32_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

TEST(TrainMath, CloseToLibm) {
  const std::vector<float> x = points();
  for (const bl::Kernels* k : {&bl::scalar_kernels(), &bl::simd_kernels()})
    for (const Op& op : kOps) {
      std::vector<float> y(x.size());
      (k->*op.fn)(x.size(), x.data(), y.data());
      for (size_t i = 0; i < x.size(); i++) {
        const double want = op.ref(x[i]);
        if (&op == &kOps[0] && (x[i] < -87.33654f || x[i] > 88.37626f)) {
          // Outside its range exp is 0 below and clamped above: the softmax's masked entries
          // vanish, and the trainer never feeds it a positive argument (x - max).
          if (x[i] < -87.33654f) ASSERT_EQ(y[i], 0.0f) << k->name << " x=" << x[i];
          else ASSERT_GE(y[i], 2e38f) << k->name << " x=" << x[i];
          continue;
        }
        // Past 30 every answer is exact in f32 or beyond its range: exp's own values up to the
        // clamp, tanh = +-1, sigmoid = 1 or a value far below 1e-13 (0 from -88 on).
        ASSERT_NEAR(y[i], want, 1e-6 * std::fabs(want) + 1e-30)
            << op.name << " " << k->name << " x=" << x[i];
      }
      const float nan = std::numeric_limits<float>::quiet_NaN();
      float out = 0;
      (k->*op.fn)(1, &nan, &out);
      EXPECT_TRUE(std::isnan(out)) << op.name << " " << k->name;
    }
}

TEST(TrainMath, SimdMatchesScalarBitForBit) {
  if (!bl::have_simd_kernels()) GTEST_SKIP() << "built without BL_SIMD";
  std::mt19937 rng(27);
  std::uniform_real_distribution<float> u(-40.0f, 40.0f);
  const std::vector<float> special = points();
  for (const Op& op : kOps) {
    // Every special point, then random lengths 0..67 at every offset mod 4.
    std::vector<float> a(special.size()), b(special.size());
    (bl::scalar_kernels().*op.fn)(special.size(), special.data(), a.data());
    (bl::simd_kernels().*op.fn)(special.size(), special.data(), b.data());
    for (size_t i = 0; i < special.size(); i++)
      ASSERT_EQ(bits(a[i]), bits(b[i])) << op.name << " x=" << special[i];
    for (size_t n = 0; n <= 67; n++)
    for (size_t off = 0; off < 4; off++) {
      std::vector<float> x(n + 4), ys(n + 4, -1.0f), yv(n + 4, -1.0f);
      for (float& v : x) v = u(rng);
      (bl::scalar_kernels().*op.fn)(n, x.data() + off, ys.data() + off);
      (bl::simd_kernels().*op.fn)(n, x.data() + off, yv.data() + off);
      std::vector<float> inplace(x);
      (bl::simd_kernels().*op.fn)(n, inplace.data() + off, inplace.data() + off);
      for (size_t i = 0; i < n + 4; i++) {
        ASSERT_EQ(bits(ys[i]), bits(yv[i])) << op.name << " n=" << n << " at " << i;
        if (i >= off && i < off + n) {
          ASSERT_EQ(bits(inplace[i]), bits(yv[i])) << op.name;
        } else {
          ASSERT_EQ(yv[i], -1.0f) << op.name << " n=" << n << ": wrote outside at " << i;
          ASSERT_EQ(bits(inplace[i]), bits(x[i])) << op.name << " n=" << n << ": in place, outside";
        }
      }
    }
  }
}

// Adam's formula in double from the same f32 state, and the twins bit for bit, with and
// without clipping, on every length up to 67 (the SIMD twin's tail of n % 4 is the scalar
// twin itself, so below 4 the two agree by construction; the vector body is what is compared).
TEST(TrainAdam, TheFormulaAndTheTwinsAgree) {
  std::mt19937 rng(28);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (float gscale : {1.0f, 0.37f}) {
    bl::AdamStep s;
    s.gscale = gscale, s.b1 = 0.9f, s.a1 = 0.1f, s.b2 = 0.999f, s.a2 = 0.001f;
    s.step = 3e-3f / (1 - 0.9f * 0.9f * 0.9f), s.bc2_root = std::sqrt(1 - 0.999f * 0.999f * 0.999f);
    s.eps = 1e-8f;
    for (size_t n = 0; n <= 67; n++) {
      // Each buffer n long plus a guard band of 3 that must not move.
      std::vector<float> w(n + 3, 7.0f), m(n + 3, 7.0f), v(n + 3, 7.0f), g(n + 3, 7.0f);
      for (size_t i = 0; i < n; i++) w[i] = u(rng), m[i] = 0.1f * u(rng), v[i] = 0.01f * std::fabs(u(rng)), g[i] = u(rng);
      auto run = [&](const bl::Kernels& k, std::vector<float>* wo, std::vector<float>* mo,
                     std::vector<float>* vo) {
        *wo = w, *mo = m, *vo = v;
        k.train_adam_f32(n, wo->data(), mo->data(), vo->data(), g.data(), s);
        for (size_t i = n; i < n + 3; i++)
          ASSERT_TRUE((*wo)[i] == 7.0f && (*mo)[i] == 7.0f && (*vo)[i] == 7.0f) << k.name << " n=" << n;
      };
      std::vector<float> w1, m1, v1, w2, m2, v2;
      run(bl::scalar_kernels(), &w1, &m1, &v1);
      run(bl::simd_kernels(), &w2, &m2, &v2);
      for (size_t i = 0; i < n; i++) {
        // In double from the same f32 constants; each f32 result within a few roundings of
        // the terms that made it.
        const double e = 4 * std::numeric_limits<float>::epsilon();
        const double gi = double(gscale) * g[i];
        const double mt = double(s.b1) * m[i], gt = double(s.a1) * gi, mi = mt + gt;
        const double vt = double(s.b2) * v[i], ht = double(s.a2) * gi * gi, vi = vt + ht;
        const double upd = double(s.step) * (double(m1[i]) / (std::sqrt(double(v1[i])) / s.bc2_root + s.eps));
        ASSERT_NEAR(m1[i], mi, e * (std::fabs(mt) + std::fabs(gt))) << n << " " << i;
        ASSERT_NEAR(v1[i], vi, e * (vt + ht)) << n << " " << i;
        ASSERT_NEAR(w1[i], w[i] - upd, e * (std::fabs(w[i]) + std::fabs(upd))) << n << " " << i;
        ASSERT_EQ(bits(w1[i]), bits(w2[i])) << "n=" << n << " at " << i;
        ASSERT_EQ(bits(m1[i]), bits(m2[i])) << "n=" << n << " at " << i;
        ASSERT_EQ(bits(v1[i]), bits(v2[i])) << "n=" << n << " at " << i;
      }
    }
  }
}

}  // namespace
