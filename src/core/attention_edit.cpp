#include "core/attention_edit.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace bl {

namespace {

std::string edit_name(size_t k) { return "attention edit " + std::to_string(k) + ": "; }

// The given row of one edit: its weights scaled to sum 1, or one-hot at its column. The sum is
// taken in double, in order, so every engine (and scripts/nmt/search.py) scales alike.
bool given_row(const AttentionEdit& e, int n, std::vector<float>* row, std::string* error) {
  row->assign(size_t(n), 0.0f);
  if (e.ablate) return true;
  if (e.column >= 0) {
    (*row)[size_t(e.column)] = 1.0f;
    return true;
  }
  double sum = 0;
  for (size_t j = 0; j < e.weights.size(); j++) {
    const float w = e.weights[j];
    if (!std::isfinite(w)) {
      *error = "weight " + std::to_string(j) + " is not a finite number";
      return false;
    }
    if (w < 0) {
      char shown[32];
      std::snprintf(shown, sizeof shown, "%g", double(w));
      *error = "weight " + std::to_string(j) + " is negative (" + shown +
               "); attention weights are >= 0";
      return false;
    }
    sum += double(w);
  }
  if (!(sum > 0) || !std::isfinite(sum)) {
    *error = "the weights sum to 0: put some weight on at least one column";
    return false;
  }
  for (size_t j = 0; j < e.weights.size(); j++) (*row)[j] = float(double(e.weights[j]) / sum);
  return true;
}

// Why edit e cannot apply to this model and sentence, or "" when it can.
std::string check_one(const AttentionEdit& e, const Config& cfg, int n, int steps) {
  const bool transformer = cfg.arch == Arch::Transformer;
  if (e.step < 0) return "step must be >= 0, not " + std::to_string(e.step);
  if (e.step >= steps)
    return "step " + std::to_string(e.step) + " is past the length limit: this sentence is " +
           "decoded in at most " + std::to_string(steps) + " steps (0.." +
           std::to_string(steps - 1) + ")";
  const bool has_weights = !e.weights.empty(), has_column = e.column != -1;
  if (e.ablate && (has_weights || has_column))
    return "ablate switches a head off: give it no weights and no column";
  if (!e.ablate && has_weights == has_column)
    return has_weights ? "give either weights or a column, not both"
                       : "give weights (one per column) or a column";
  if (has_column && (e.column < 0 || e.column >= n))
    return "column " + std::to_string(e.column) + " is out of range: this sentence has " +
           std::to_string(n) + " columns (0.." + std::to_string(n - 1) + ", </s> last)";
  if (has_weights && int(e.weights.size()) != n)
    return std::to_string(e.weights.size()) + " weights for " + std::to_string(n) +
           " columns (the source's " + std::to_string(n - 1) + " tokens, then </s>)";
  if (!transformer) {
    if (e.ablate)
      return "ablate switches a Transformer head off; this RNN has one attention (give it "
             "weights instead)";
    if (e.layer != -1 || e.head != -1)
      return "layer and head choose a Transformer's head; this RNN has one attention: leave "
             "them at -1";
    return "";
  }
  if (e.layer < -1 || e.layer >= cfg.dec_layers)
    return "layer " + std::to_string(e.layer) + " is out of range 0.." +
           std::to_string(cfg.dec_layers - 1) + " (-1: every layer)";
  if (e.head < -1 || e.head >= cfg.heads)
    return "head " + std::to_string(e.head) + " is out of range 0.." +
           std::to_string(cfg.heads - 1) + " (-1: every head)";
  return "";
}

}  // namespace

bool EditPlan::build(const std::vector<AttentionEdit>& edits, const Config& cfg, int n,
                     int steps, std::string* error) {
  by_step_.clear();
  last_ = -1;
  if (edits.empty()) return true;
  if (cfg.scoring == Scoring::None) {
    *error = "this model has no attention (scoring \"none\"): every step reads the same fixed "
             "vector c, so there are no weights to edit";
    return false;
  }
  if (edits.size() > size_t(kMaxEdits)) {
    *error = std::to_string(edits.size()) + " attention edits; at most " +
             std::to_string(kMaxEdits) + " are taken";
    return false;
  }
  const bool transformer = cfg.arch == Arch::Transformer;
  const int layers = transformer ? cfg.dec_layers : 1, heads = transformer ? cfg.heads : 1;
  // owner[i][l][h]: the edit that sets head (l, h) at step i, -1 none. A held edit covers the
  // later steps until another edit of the same head takes over, from its own step on.
  std::vector<std::vector<int>> owner(size_t(steps), std::vector<int>(size_t(layers * heads), -1));
  std::vector<std::vector<float>> rows(edits.size());
  for (size_t k = 0; k < edits.size(); k++) {
    const AttentionEdit& e = edits[k];
    std::string why = check_one(e, cfg, n, steps);
    if (why.empty()) given_row(e, n, &rows[k], &why);
    if (!why.empty()) {
      *error = edit_name(k) + why;
      return false;
    }
    for (int l = 0; l < layers; l++) {
      for (int h = 0; h < heads; h++) {
        if ((e.layer != -1 && e.layer != l) || (e.head != -1 && e.head != h)) continue;
        int& own = owner[size_t(e.step)][size_t(l * heads + h)];
        if (own >= 0 && edits[size_t(own)].step == e.step) {
          *error = "attention edits " + std::to_string(own) + " and " + std::to_string(k) +
                   " both set step " + std::to_string(e.step) +
                   (transformer ? ", layer " + std::to_string(l) + " head " + std::to_string(h)
                                : "");
          return false;
        }
        own = int(k);
      }
    }
    last_ = std::max(last_, e.step);
  }
  // Carry held edits forward: step i keeps step i-1's owner when it has none and that edit holds.
  for (size_t i = 1; i < owner.size(); i++)
    for (size_t u = 0; u < owner[i].size(); u++)
      if (owner[i][u] < 0 && owner[i - 1][u] >= 0 && edits[size_t(owner[i - 1][u])].hold)
        owner[i][u] = owner[i - 1][u];
  by_step_.resize(owner.size());
  for (size_t i = 0; i < owner.size(); i++) {
    for (int u = 0; u < layers * heads; u++) {
      const int k = owner[i][size_t(u)];
      if (k < 0) continue;
      by_step_[i].heads.push_back({u / heads, u % heads, edits[size_t(k)].ablate, rows[size_t(k)]});
    }
  }
  return true;
}

bool check_edits_reached(const std::vector<AttentionEdit>& edits, int rows, std::string* error) {
  for (size_t k = 0; k < edits.size(); k++) {
    if (edits[k].step < rows) continue;
    *error = edit_name(k) + "step " + std::to_string(edits[k].step) +
             " is past the end: the translation has " + std::to_string(rows) + " steps (0.." +
             std::to_string(rows - 1) + ", </s> included)";
    return false;
  }
  return true;
}

}  // namespace bl
