// Scratch buffers, for the kernels and the models alike: grown to the largest request and then
// reused, never shrunk, so a decoder step allocates nothing once warmed up.
//
// They are thread_local where they are declared: one Model runs on one thread at a time (the JS
// API is single-threaded, and the native callers decode a translator on one thread), so that is
// enough. A buffer must not be asked for again while a caller still uses what it returned.
#pragma once
#include <cstddef>
#include <vector>

namespace bl {

// v grown to at least n elements; its data.
template <class T>
T* fit(std::vector<T>& v, size_t n) {
  if (v.size() < n) v.resize(n);
  return v.data();
}

}  // namespace bl
