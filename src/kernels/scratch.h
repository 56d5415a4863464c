// Scratch buffers, for the kernels and the models alike: grown to the largest request and then
// reused, never shrunk, so a decoder step allocates nothing once warmed up.
//
// They are BL_THREAD_LOCAL where they are declared: one Model runs on one thread at a time (the
// JS API is single-threaded, and the native callers decode a translator on one thread), so that
// is enough. A buffer must not be asked for again while a caller still uses what it returned.
#pragma once
#include <cstddef>
#include <vector>

// thread_local natively. A wasm instance without pthreads runs on one thread, and there it is a
// plain static: with bulk memory on (memory.copy and memory.fill for the copies and zeroing,
// which otherwise cost the trainer a call into JavaScript per copy of 512 bytes or more),
// wasm-ld refuses thread_local unless atomics are on too.
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
#define BL_THREAD_LOCAL static
#else
#define BL_THREAD_LOCAL thread_local
#endif

namespace bl {

// v grown to at least n elements; its data.
template <class T>
T* fit(std::vector<T>& v, size_t n) {
  if (v.size() < n) v.resize(n);
  return v.data();
}

}  // namespace bl
