// An empty <mmintrin.h> for Eigen's SSE path under Emscripten (scripts/eigen-bench, docs/eigen.md).
// Eigen's SSE headers include <mmintrin.h> (MMX), which Emscripten 3.1.6 does not emulate, so
// clang's own x86 header is found and refuses wasm32 with #error. Eigen uses no MMX type or
// intrinsic; its SSE code needs only the <xmmintrin.h>.. <smmintrin.h> that Emscripten maps to
// wasm SIMD. Only the bench's Eigen-SSE build puts this directory on its include path.
#pragma once
