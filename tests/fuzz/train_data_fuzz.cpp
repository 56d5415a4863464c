// libFuzzer harness: the training data parser (bl::parse_train_data, docs/training-core.md), and
// what an accepted file promises: its vocabularies and names make a valid TrainConfig, and a
// model created from them evaluates and trains on its pairs. The input is the file itself.
// Findings: a crash, a sanitizer report, a leak, an escaping exception, a refusal without a
// message, or an accepted file that the trainer then refuses.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "bahdanau_train.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  bl::TrainData d;
  std::string err;
  if (!bl::parse_train_data(data, size, &d, &err)) {
    fuzz::check(!err.empty(), "a refused data file says why");
    return 0;
  }
  fuzz::check(!d.train.empty(), "an accepted file has training pairs");
  bl::TrainConfig c;
  c.src_lang = d.src_lang, c.tgt_lang = d.tgt_lang;
  c.emb = 2, c.enc_hidden = 2, c.dec_hidden = 2, c.attn = 2;
  c.max_src_len = c.max_tgt_len = 1024;  // the data's limits fit the config's
  c.src_vocab = d.src_vocab, c.tgt_vocab = d.tgt_vocab;
  c.src_names = d.src_names, c.tgt_names = d.tgt_names;
  fuzz::check(bl::check_train_config(c, &err), "an accepted file makes a valid config");
  auto t = bl::Trainer::create(c, 1, bl::TrainParams{}, &err);
  fuzz::check(t != nullptr, "a model can be created for an accepted file");
  const std::vector<bl::TrainPair> batch(d.train.begin(),
                                         d.train.begin() + std::min<size_t>(d.train.size(), 4));
  float loss = 0;
  fuzz::check(t->evaluate(batch, &loss, &err), "an accepted file's pairs evaluate");
  fuzz::check(t->step(batch, &loss, &err), "an accepted file's pairs train");
  if (!d.heldout.empty())
    fuzz::check(t->evaluate({d.heldout[0]}, &loss, &err), "held-out pairs evaluate");
  return 0;
}
