// Full-sentence latency of the shipped model, scalar vs SIMD kernels, greedy and beam 4.
#include <benchmark/benchmark.h>

#include <fstream>
#include <iterator>
#include <memory>

#include "bahdanau.h"

namespace {

std::unique_ptr<bl::Translator> load_shipped(bool simd) {
  std::ifstream f(std::string(BL_SOURCE_DIR) + "/models/en-fr.safetensors", std::ios::binary);
  std::vector<uint8_t> bytes{std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
  std::string err;
  return bl::Translator::load(bytes.data(), bytes.size(), bl::LoadParams{simd}, &err);
}

void BM_sentence(benchmark::State& state, bool simd, int beam) {
  auto tr = load_shipped(simd);
  if (!tr) {
    state.SkipWithError("models/en-fr.safetensors did not load");
    return;
  }
  bl::TranslateParams p;
  p.beam = beam;
  bl::Translation t;
  std::string err;
  size_t tokens = 0;
  for (auto _ : state) {
    tr->translate("The black cat is sleeping on the red chair in the kitchen.", p, &t, &err);
    tokens += t.tgt_tokens.size() + 1;  // + </s>
  }
  state.counters["tokens/s"] = benchmark::Counter(double(tokens), benchmark::Counter::kIsRate);
}

BENCHMARK_CAPTURE(BM_sentence, greedy / scalar, false, 1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_sentence, greedy / wasm - simd, true, 1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_sentence, beam4 / scalar, false, 4)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_sentence, beam4 / wasm - simd, true, 4)->Unit(benchmark::kMillisecond);

}  // namespace
