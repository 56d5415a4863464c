// Translator::align: forced decoding. The decoder reads the given target y_1..y_m instead of
// its own argmax, so row i shows where the model looks when it writes y_i, and p(y_i | y_<i, x)
// how likely it found that word. The rows are those of the model's decode(), as in greedy decoding.
#include <algorithm>
#include <cmath>

#include "core/translator_impl.h"

namespace bl {

bool Translator::align(std::string_view source, std::string_view target, const AlignParams& p,
                       Alignment* out, std::string* error) {
  std::string ignored;
  if (!error) error = &ignored;
  *out = Alignment{};
  const Impl& im = *impl_;
  const Config& cfg = im.data.config;
  std::vector<std::string> src_tokens, tgt_tokens;
  std::vector<int> src_ids;
  if (!im.source(source, &src_tokens, &src_ids, error)) return false;
  if (!check_text_length(target, error) || !im.tgt_tok->tokenize(target, &tgt_tokens, error)) {
    *error = "target: " + *error;
    return false;
  }
  // One row more than the target's tokens: the model must also say where the sentence ends.
  if (int(tgt_tokens.size()) + 1 > cfg.max_tgt_len) {
    *error = "target has " + std::to_string(tgt_tokens.size()) +
             " tokens; this model writes at most " + std::to_string(cfg.max_tgt_len - 1);
    return false;
  }
  if (src_tokens.empty()) return true;
  EditPlan plan;  // one row per target token, then </s>
  if (!im.plan_edits(p.edits, src_tokens.size(), int(tgt_tokens.size()) + 1, &plan, error))
    return false;

  Annotations a;
  im.net->encode(src_ids, &a);
  for (const std::string& t : tgt_tokens) {
    auto it = im.tgt_index.find(t);
    out->tgt_ids.push_back(it == im.tgt_index.end() ? kUnk : it->second);
    out->unknown += it == im.tgt_index.end();
  }
  out->tgt_ids.push_back(kEos);
  out->tgt_tokens = std::move(tgt_tokens);
  out->tgt_tokens.push_back("</s>");

  const int k = std::max(1, std::min(p.top_k, cfg.tgt_vocab));
  std::vector<float> s = a.s0;
  StepState st;
  int y_prev = kBos;
  for (size_t i = 0; i < out->tgt_ids.size(); i++) {
    const int y = out->tgt_ids[i];
    im.net->decode(a, y_prev, s, &st, plan.at(int(i)));
    Step row;
    row.index = int(i);
    row.token = y;
    row.word = im.data.tgt_vocab[y];  // "<unk>" for an unknown word: what the model reads
    row.prob = std::exp(st.logp[y]);
    out->log_prob += double(st.logp[y]);
    im.set_attention(st, &row);
    im.set_top(top_k(im.net->kernels(), st.logp, k), &row);
    row.done = y == kEos;
    out->steps.push_back(std::move(row));
    s.swap(st.s);
    y_prev = y;  // teacher forcing: the given word, not the model's choice
  }
  out->src_tokens = std::move(src_tokens);
  out->src_tokens.push_back("</s>");
  return true;
}

}  // namespace bl
