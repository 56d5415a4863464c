// libFuzzer harness: the trainer's config parser (bl::parse_train_config: JSON through the
// model file's JSON parser and its limits, then every field's type and range). The input is the
// JSON text. An accepted config, given small vocabularies, passes check_train_config, and when
// it is small enough to build quickly, Trainer::create makes a model that evaluates a pair.
// Findings: a crash, a sanitizer report, a leak, an escaping exception, a refusal without a
// message, a refusal that changed *out, or an accepted config the trainer refuses.
#include <cstddef>
#include <cstdint>
#include <string>

#include "bahdanau_train.h"
#include "core/train_config.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  bl::TrainConfig c;
  c.src_vocab = {"<pad>", "<unk>", "<s>", "</s>", "a"};
  c.tgt_vocab = {"<pad>", "<unk>", "<s>", "</s>", "b", "c"};
  std::string err;
  if (!bl::parse_train_config(text, &c, &err)) {
    fuzz::check(!err.empty(), "a refused config says why");
    fuzz::check(c.emb == 64 && c.decoder == "cgru" && c.src_vocab.size() == 5,
                "a refused config leaves *out as it was");
    return 0;
  }
  fuzz::check(bl::check_train_config(c, &err), "an accepted config passes check_train_config");
  if (bl::train::count_params(c) > 20000) return 0;  // building big ones is too slow to fuzz
  auto t = bl::Trainer::create(c, 2, bl::TrainParams{}, &err);
  fuzz::check(t != nullptr, "an accepted config creates a model");
  float loss = 0;
  fuzz::check(t->evaluate({{{4}, {4, 5}}}, &loss, &err) || c.max_tgt_len < 3,
              "a created model evaluates a short pair");
  return 0;
}
