// Greedy and beam search over either model kind (Seq2Seq), and <unk> replacement. The exact
// rules (tie-breaking, double-precision scores, length normalisation) are those of
// scripts/nmt/search.py, which the golden fixtures pin; docs/model-format.md states them.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "core/attention_edit.h"
#include "core/seq2seq.h"

namespace bl {

struct Hyp {
  std::vector<int> ids;                     // </s> included when finished
  std::vector<std::vector<float>> alphas;   // one row per id
  std::vector<float> probs;                 // p of each id
  // Rows decoded under an attention edit, and the model's own row at each (alphas holds the
  // given one).
  std::vector<int> edited;
  std::vector<std::vector<float>> own_alphas;
  double score = 0, norm = 0;
  bool finished = false;
};

// min(max_tgt_len, 2n + 10), or the caller's smaller limit.
int max_output_len(const Config& cfg, int n_src, int requested);

// (id, log-prob) of the k best, sorted by log-prob, ties to the lower id, with the kernel
// table kt (the model's: a scalar engine stays scalar).
std::vector<std::pair<int, float>> top_k(const Kernels& kt, const std::vector<float>& logp, int k);

// One greedy step: decodes y_i from hyp's last token (or <s>) and state s, appends it to hyp,
// and advances s. Returns the top k of the step (k >= 1); st holds the step's e, alpha, c.
// edit: given attention for this step (nullptr: the model's own).
std::vector<std::pair<int, float>> greedy_step(const Seq2Seq& m, const Annotations& a, int top,
                                               std::vector<float>* s, StepState* st, Hyp* hyp,
                                               const StepEdit* edit = nullptr);
// greedy_step's choice once the step is computed into st (by step() or step_batch()): the
// same rule for one sentence and for a batch.
std::vector<std::pair<int, float>> greedy_pick(const Kernels& kt, const Annotations& a,
                                               int top, std::vector<float>* s, StepState* st,
                                               Hyp* hyp);
// plan: attention edits by step (nullptr: none).
Hyp greedy_search(const Seq2Seq& m, const Annotations& a, int max_len,
                  const EditPlan* plan = nullptr);
// Finished hypotheses, best first (live ones at the length limit are added unterminated).
std::vector<Hyp> beam_search(const Seq2Seq& m, const Annotations& a, int k, int max_len);

// Whether the search may write <unk> at a step whose attention row is alpha: the source token
// it would copy (largest weight, </s> excluded, ties to the earlier) is marked copyable, or
// nothing is marked. Otherwise greedy and beam search take the best word that is not <unk>.
// A model without attention (empty alpha) never writes <unk>: it has nothing to copy.
bool may_write_unk(const std::vector<float>& alpha, const std::vector<char>& copyable);

// Ids -> tokens up to </s>; an <unk> becomes the source token (not </s>) with the largest
// weight in its attention row, ties to the earlier one (Luong et al., 2015); without attention
// (an empty row: only forced decoding reaches it) it stays "<unk>".
std::vector<std::string> target_words(const std::vector<int>& ids,
                                      const std::vector<std::vector<float>>& alphas,
                                      const std::vector<std::string>& src_tokens,
                                      const std::vector<std::string>& tgt_vocab);
std::string replace_unk(const std::vector<float>& alpha,
                        const std::vector<std::string>& src_tokens);

}  // namespace bl
