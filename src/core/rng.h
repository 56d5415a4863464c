// A small seeded PRNG for training (initialisation and dropout masks) whose stream is the same
// on every platform, wasm32 included: xoshiro256** (Blackman & Vigna 2018) seeded through
// splitmix64, with uniform floats and our own Box-Muller normals. std::normal_distribution and
// the other <random> distributions are implementation-defined, so they would give another
// model in the browser than in the native tests.
#pragma once
#include <cmath>
#include <cstdint>

namespace bl::train {

class Rng {
 public:
  explicit Rng(uint64_t seed) {
    uint64_t x = seed;
    for (uint64_t& v : s_) v = splitmix64(&x);
  }

  uint64_t next() {
    const uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  // [0, 1) with 53 random bits: exact in double, no platform-dependent step.
  double uniform() { return double(next() >> 11) * 0x1.0p-53; }
  // (0, 1]: safe for log().
  double uniform_open0() { return double((next() >> 11) + 1) * 0x1.0p-53; }

  // Uniform in [0, n), n >= 1, without modulo bias (rejection of the top partial range).
  uint64_t below(uint64_t n) {
    const uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do x = next(); while (x >= limit);
    return x % n;
  }

  // N(0, 1) by Box-Muller; both values of a pair are used. log, sqrt and cos run in double and
  // the caller rounds to f32, so libm's last-ulp differences (glibc vs Emscripten's musl) do not
  // reach the f32 weights except on a double that lies within an ulp of an f32 rounding boundary.
  double normal() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    const double r = std::sqrt(-2.0 * std::log(uniform_open0()));
    const double theta = 6.283185307179586 * uniform();
    spare_ = r * std::sin(theta);
    has_spare_ = true;
    return r * std::cos(theta);
  }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  static uint64_t splitmix64(uint64_t* x) {
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }

  uint64_t s_[4];
  bool has_spare_ = false;
  double spare_ = 0;
};

}  // namespace bl::train
