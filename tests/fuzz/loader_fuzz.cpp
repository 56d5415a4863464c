// libFuzzer harness: the model loader from bytes, bl::Translator::load, and nothing else. A
// model that loads is not then used to translate (that made an earlier harness run 27 inputs a
// second); translate_fuzz.cpp covers translation with the shipped model.
// Findings: a crash, a sanitizer report (ASan, UBSan), a leak, an exception escaping the core,
// or a refusal without a message.
#include <cstddef>
#include <cstdint>
#include <string>

#include "bahdanau.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string err;
  auto tr = bl::Translator::load(data, size, bl::LoadParams{}, &err);
  fuzz::check(tr || !err.empty(), "a refused model says why");
  if (tr) fuzz::check(tr->info().file_bytes == size, "info().file_bytes is the input's size");
  return 0;
}
