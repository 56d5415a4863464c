// The module's own functions, outside any translator: installing relaxed SIMD's int8 loop and
// its fused training product, and the heap figure behind web/lib's memory().
//
// Decision: no maxBeam constant (there was one, and nothing read it). web/lib's MAX_BEAM is a
// module-level export that the pages and the .d.ts (as the literal 16) need before any engine
// has loaded, so it cannot come from here; bl::kMaxBeam is still enforced by the core, whose
// message web/lib would pass on if the two ever disagreed.
#include <emscripten/bind.h>
#include <malloc.h>

#include <cstdint>

#include "bahdanau.h"
#include "bahdanau_train.h"

namespace {

// web/lib/relaxed.js: the table index where it put qs8-wasmrelaxed.wat's dots (a double in JS).
bool install_relaxed(double table_index) {
  if (!(table_index >= 1 && table_index < 4294967296.0)) return false;
  return bl::install_relaxed_kernels(uintptr_t(table_index));
}

// web/lib/relaxed.js: the table index where it put train-gemm-wasmrelaxed.wat's gemm.
bool install_relaxed_gemm(double table_index) {
  if (!(table_index >= 1 && table_index < 4294967296.0)) return false;
  return bl::install_relaxed_train_kernels(uintptr_t(table_index));
}

// Bytes in use on the wasm heap, for leak tests.
double heap_used() { return double(mallinfo().uordblks); }

}  // namespace

EMSCRIPTEN_BINDINGS(engine) {
  emscripten::function("installRelaxed", &install_relaxed);
  emscripten::function("installRelaxedGemm", &install_relaxed_gemm);
  emscripten::function("heapUsed", &heap_used);
}
