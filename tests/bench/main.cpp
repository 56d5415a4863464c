// The one main() for core_bench; every tests/bench/*.cpp registers its benchmarks into it.
#include <benchmark/benchmark.h>

BENCHMARK_MAIN();
