// What a bl::Translator holds, shared by the files that implement its methods.
#pragma once
#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "bahdanau.h"
#include "core/attention_edit.h"
#include "core/model.h"
#include "core/search.h"
#include "core/tokenizer.h"
#include "core/transformer.h"
#include "core/weights.h"

namespace bl {

inline double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

struct Translator::Impl {
  ModelData data;
  std::unique_ptr<Seq2Seq> net;  // the model, either kind: what encoding and search drive
  // The same object, by kind (the other is null): the RNN's batched decoding, scoring timing
  // and self-attention illustration, and the Transformer's real encoder self-attention.
  const Model* model = nullptr;
  const Transformer* transformer = nullptr;
  std::unique_ptr<Tokenizer> src_tok, tgt_tok;
  std::unordered_map<std::string, int> src_index, tgt_index;
  ModelInfo info;

  // Tokens and ids of a source sentence; false on invalid UTF-8 or too many tokens.
  bool source(std::string_view text, std::vector<std::string>* toks, std::vector<int>* ids,
              std::string* error) const {
    if (!check_text_length(text, error) || !src_tok->tokenize(text, toks, error)) return false;
    if (int(toks->size()) > data.config.max_src_len) {
      *error = "input has " + std::to_string(toks->size()) + " tokens; this model reads at most " +
               std::to_string(data.config.max_src_len) + " (split the text into sentences)";
      return false;
    }
    ids->clear();
    for (const std::string& t : *toks) {
      auto it = src_index.find(t);
      ids->push_back(it == src_index.end() ? kUnk : it->second);
    }
    return true;
  }

  // Which source tokens <unk> replacement may copy: names, numbers, and words the target
  // vocabulary has ("certain" is French too). Never a lower-case English word ("runs").
  void mark_copyable(const std::vector<std::string>& toks, Annotations* a) const {
    a->copyable.clear();
    for (const std::string& t : toks)
      a->copyable.push_back(tgt_index.count(t) > 0 || looks_like_name_or_number(t));
  }

  // A step's attention rows into *row: the summary (e, alpha), c, and a Transformer's every
  // layer and head of cross-attention.
  void set_attention(const StepState& st, Step* row) const {
    row->e = st.e;
    row->alpha = st.alpha;
    row->c = st.c;
    row->edited = !st.own_alpha.empty();
    row->own_alpha = st.own_alpha;
    if (!transformer) return;
    const size_t L = data.config.dec_layers, H = data.config.heads, n = st.e.size();
    row->cross_e = layered(st.cross_e, L, H, n);
    row->cross_alpha = layered(st.cross_alpha, L, H, n);
    if (row->edited) row->own_cross_alpha = layered(st.own_cross_alpha, L, H, n);
  }

  // [layers][heads][n] from a packed array of that shape.
  static std::vector<std::vector<std::vector<float>>> layered(const std::vector<float>& v,
                                                              size_t L, size_t H, size_t n) {
    std::vector<std::vector<std::vector<float>>> out(L, std::vector<std::vector<float>>(H));
    for (size_t l = 0; l < L; l++)
      for (size_t h = 0; h < H; h++)
        out[l][h].assign(v.begin() + (l * H + h) * n, v.begin() + (l * H + h + 1) * n);
    return out;
  }

  // Checks params.edits for a sentence of n_src tokens decoded in at most steps steps.
  bool plan_edits(const std::vector<AttentionEdit>& edits, size_t n_src, int steps,
                  EditPlan* plan, std::string* error) const {
    return plan->build(edits, data.config, int(n_src) + 1, steps, error);
  }

  // A step's top-k candidates, with their words, into *row.
  void set_top(const std::vector<std::pair<int, float>>& top, Step* row) const {
    for (auto [id, lp] : top) {
      row->top_ids.push_back(id);
      row->top_logp.push_back(lp);
      row->top_words.push_back(data.tgt_vocab[id]);
    }
  }

  void fill(const Hyp& best, const std::vector<std::string>& src_tokens, Translation* out) const {
    out->tgt_tokens = target_words(best.ids, best.alphas, src_tokens, data.tgt_vocab);
    out->tgt_ids.assign(best.ids.begin(), best.ids.begin() + out->tgt_tokens.size());
    out->attention.assign(best.alphas.begin(), best.alphas.begin() + out->tgt_tokens.size());
    out->truncated = !best.finished;
    for (size_t k = 0; k < best.edited.size(); k++) {
      if (best.edited[k] >= int(out->tgt_tokens.size())) break;  // the </s> row is not shown
      out->edited.push_back(best.edited[k]);
      out->own_attention.push_back(best.own_alphas[k]);
    }
    out->text = tgt_tok->detokenize(out->tgt_tokens);
  }

  // A greedy result: fill() and each output token's probability.
  void fill_greedy(const Hyp& best, const std::vector<std::string>& src_tokens,
                   Translation* out) const {
    fill(best, src_tokens, out);
    out->probs.assign(best.probs.begin(), best.probs.begin() + out->tgt_tokens.size());
  }
};

}  // namespace bl
