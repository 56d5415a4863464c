// libFuzzer harness: the safetensors header parser alone (bl::parse_header, load_model's first
// half: the length, UTF-8, the JSON parser with its limits, and the __metadata__ checks), fast
// enough for millions of inputs. The input is the header's JSON text: the harness puts the u64
// length in front, so mutations go to the JSON and not mostly to a length that no longer
// matches. An input starting with byte 0xff is passed on whole instead (its own length bytes),
// which keeps the length checks fuzzed too.
// Findings: a crash, a sanitizer report, a leak, an escaping exception, a refusal without a
// message, or an accepted header that is not a JSON object.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/model_file.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<uint8_t> file;
  if (size > 0 && data[0] == 0xff) {
    file.assign(data + 1, data + size);
  } else {
    file.resize(8 + size);
    for (int i = 0; i < 8; i++) file[i] = uint8_t(uint64_t(size) >> (8 * i));
    if (size) std::copy(data, data + size, file.begin() + 8);
  }
  nlohmann::json header;
  bl::ModelData md;
  size_t header_size = 0;
  std::string err;
  if (bl::parse_header(file.data(), file.size(), &header, &md, &header_size, &err)) {
    fuzz::check(header.is_object(), "an accepted header is a JSON object");
    fuzz::check(8 + header_size <= file.size(), "the header fits in the file");
    fuzz::check(md.src_vocab.size() == size_t(md.config.src_vocab) &&
                    md.tgt_vocab.size() == size_t(md.config.tgt_vocab),
                "the vocabularies have the config's sizes");
  } else {
    fuzz::check(!err.empty(), "a refused header says why");
  }
  return 0;
}
