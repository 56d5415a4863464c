// One include for the wasm SIMD intrinsics. Under Emscripten with -msimd128 they are the real
// <wasm_simd128.h>; natively SIMDe implements the same intrinsics (on SSE2 here), so every SIMD
// kernel is unit-tested and sanitized natively with the code that ships in the .wasm.
#pragma once
#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#else
#define SIMDE_ENABLE_NATIVE_ALIASES
#include <simde/wasm/simd128.h>
#endif
