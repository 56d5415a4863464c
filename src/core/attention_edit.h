// Attention edits (bahdanau.h AttentionEdit), checked against one sentence and resolved to what
// each decoder step must do: which heads take given weights instead of their softmax, and which
// are switched off. The models read a StepEdit; the search and the Translator read the plan.
#pragma once
#include <string>
#include <vector>

#include "bahdanau.h"
#include "core/weights.h"

namespace bl {

// One attention's given row at one step. An RNN has one attention (layer 0, head 0).
struct HeadEdit {
  int layer = 0, head = 0;
  bool ablate = false;       // the head's output is zeroed; alpha is all zeros
  std::vector<float> alpha;  // [n], sums to 1 (zeros when ablate)
};

// What one step does instead of its own softmax; empty: nothing.
struct StepEdit {
  std::vector<HeadEdit> heads;
  // The given row for (layer, head), or nullptr.
  const HeadEdit* find(int layer, int head) const {
    for (const HeadEdit& h : heads)
      if (h.layer == layer && h.head == head) return &h;
    return nullptr;
  }
};

class EditPlan {
 public:
  // Checks edits for a sentence of n columns (</s> included) decoded in at most steps steps:
  // false and a message naming the edit when one is malformed, refers to a layer, head, column
  // or step that does not exist, or sets a head that another edit sets at the same step.
  bool build(const std::vector<AttentionEdit>& edits, const Config& cfg, int n, int steps,
             std::string* error);
  // Step i's edit (hold included), or nullptr when the step uses its own attention.
  const StepEdit* at(int i) const {
    return i >= 0 && size_t(i) < by_step_.size() && !by_step_[size_t(i)].heads.empty()
               ? &by_step_[size_t(i)]
               : nullptr;
  }
  bool empty() const { return last_ < 0; }
  // The largest edit step, -1 without edits: translate() refuses a plan its output ends before.
  int last_step() const { return last_; }

 private:
  std::vector<StepEdit> by_step_;
  int last_ = -1;
};

// "attention edit K: step S is past the end: ..." for translate(), once the output is known.
bool check_edits_reached(const std::vector<AttentionEdit>& edits, int rows, std::string* error);

}  // namespace bl
