#include "cli/attend.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <regex>

#include "core/heatmap.h"
#include "core/utf8.h"

namespace {

constexpr int kMaxIndex = 1023;  // I, J, L and H: below the CLIs' --max-len bound

// What each flag takes, the start of its usage error.
std::string takes(const std::string& flag) {
  if (flag == "--attend")
    return "--attend takes I=J (an output position I from 0 to 1023; J a source position from "
           "0 to 1023 or a source word)";
  if (flag == "--attend-weights")
    return "--attend-weights takes I=w0,w1,... (an output position I from 0 to 1023; one "
           "decimal weight per source column: the source tokens, then </s>)";
  if (flag == "--attend-head")
    return "--attend-head takes L.H (a decoder layer L and a head H, each from 0 to 1023)";
  return "--ablate-head takes I=L.H (an output position I, a decoder layer L and a head H, "
         "each from 0 to 1023)";
}

// Digits only, at most kMaxIndex.
bool index_arg(const std::string& s, int* out) {
  if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos)
    return false;
  const long v = std::strtol(s.c_str(), nullptr, 10);
  if (v > kMaxIndex) return false;
  *out = int(v);
  return true;
}

bool layer_head(const std::string& s, int* layer, int* head) {
  const size_t dot = s.find('.');
  return dot != std::string::npos && index_arg(s.substr(0, dot), layer) &&
         index_arg(s.substr(dot + 1), head);
}

// w0,w1,...: each a decimal number (the core checks their values), read as a double and then
// rounded to float, as JS hands its numbers to the engine.
bool weights_arg(const std::string& s, std::vector<float>* out) {
  static const std::regex number(R"([+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?)");
  size_t at = 0;
  for (;;) {
    const size_t comma = s.find(',', at);
    const std::string w = s.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    if (!std::regex_match(w, number)) return false;
    const double d = std::strtod(w.c_str(), nullptr);  // 1e39: +inf, not a cast out of range
    out->push_back(std::fabs(d) > double(std::numeric_limits<float>::max())
                       ? std::copysign(std::numeric_limits<float>::infinity(), float(d > 0 ? 1 : -1))
                       : float(d));
    if (comma == std::string::npos) return true;
    at = comma + 1;
  }
}

// The tokenizer's case table (docs/tokenization.md): A-Z, U+00C0-U+00DE but U+00D7, and Œ.
std::vector<uint32_t> folded(const std::string& s) {
  std::vector<uint32_t> cps;
  std::string err;
  bl::utf8_decode(s, &cps, &err);
  for (uint32_t& c : cps) {
    if ((c >= 'A' && c <= 'Z') || (c >= 0xC0 && c <= 0xDE && c != 0xD7)) c += 0x20;
    if (c == 0x152) c = 0x153;
  }
  return cps;
}

std::vector<std::vector<float>> rows_at(const std::vector<std::vector<float>>& rows,
                                        const std::vector<int>& at) {
  std::vector<std::vector<float>> out;
  for (int i : at) out.push_back(i >= 0 && size_t(i) < rows.size() ? rows[i] : std::vector<float>{});
  return out;
}

void edited_json(const std::vector<int>& edited, const std::vector<std::vector<float>>& given,
                 const std::vector<std::vector<float>>& own, nlohmann::json* j) {
  (*j)["edited"] = edited;
  (*j)["given_attention"] = given;
  (*j)["own_attention"] = own;
}

std::string marked_heatmap(const std::vector<std::string>& columns,
                           const std::vector<std::string>& labels,
                           const std::vector<std::vector<float>>& rows,
                           const std::vector<int>& edited,
                           const std::vector<std::vector<float>>& own) {
  if (edited.empty()) return bl::render_heatmap(columns, labels, rows);
  std::vector<std::string> marked;
  std::vector<std::vector<float>> shown;
  for (size_t i = 0; i < labels.size(); i++) {
    const auto k = std::find(edited.begin(), edited.end(), int(i)) - edited.begin();
    const bool is_edited = size_t(k) < edited.size();
    marked.push_back(labels[i] + (is_edited ? "*" : ""));
    shown.push_back(i < rows.size() ? rows[i] : std::vector<float>{});
    if (is_edited) {
      marked.push_back("(own)");
      shown.push_back(size_t(k) < own.size() ? own[k] : std::vector<float>{});
    }
  }
  return bl::render_heatmap(columns, marked, shown) +
         "*: an edited row, decoded with the given weights; (own): the model's own weights "
         "there\n";
}

}  // namespace

bool attend_takes_value(const std::string& flag) {
  return flag == "--attend" || flag == "--attend-weights" || flag == "--attend-head" ||
         flag == "--ablate-head";
}

std::string attend_parse(const std::string& flag, const std::string& value, Attend* a) {
  if (flag == "--attend-hold") {
    a->hold = true;
    return "";
  }
  std::vector<uint32_t> cps;
  std::string err;
  if (!bl::utf8_decode(value, &cps, &err)) return flag + ": " + err;
  const std::string bad = takes(flag) + ", got \"" + value + "\"";
  if (flag == "--attend-head") {
    if (!layer_head(value, &a->layer, &a->head)) return bad;
    a->head_given = true;
    return "";
  }
  const size_t eq = value.find('=');
  AttendFlag f;
  if (eq == std::string::npos || !index_arg(value.substr(0, eq), &f.step)) return bad;
  const std::string rhs = value.substr(eq + 1);
  static const std::regex number("[+-]?[0-9]+");
  if (flag == "--attend" && std::regex_match(rhs, number)) {
    if (!index_arg(rhs, &f.column)) return bad;
  } else if (flag == "--attend") {
    if (rhs.empty()) return bad;
    f.word = rhs;
  } else if (flag == "--attend-weights") {
    if (!weights_arg(rhs, &f.weights)) return bad;
  } else {
    f.ablate = true;
    if (!layer_head(rhs, &f.layer, &f.head)) return bad;
  }
  a->flags.push_back(f);
  return "";
}

std::string attend_check(const Attend& a, int beam, bool split) {
  const bool edits = !a.flags.empty();
  const bool given = std::any_of(a.flags.begin(), a.flags.end(),
                                 [](const AttendFlag& f) { return !f.ablate; });
  if (a.hold && !edits) return "--attend-hold goes with --attend, --attend-weights or --ablate-head";
  if (a.head_given && !given) return "--attend-head goes with --attend or --attend-weights";
  if (edits && split) return "attention edits apply to one sentence: not with --split-sentences";
  if (edits && beam > 1) return "attention edits need greedy decoding: not with --beam K > 1";
  return "";
}

bool attend_edits(const bl::Translator& tr, const std::string& source, const Attend& a,
                  std::vector<bl::AttentionEdit>* out, std::string* error) {
  std::vector<std::string> tokens;
  bool tokenized = false;
  for (const AttendFlag& f : a.flags) {
    bl::AttentionEdit e;
    e.step = f.step;
    e.hold = a.hold;
    e.ablate = f.ablate;
    e.layer = f.ablate ? f.layer : a.layer;
    e.head = f.ablate ? f.head : a.head;
    e.weights = f.weights;
    e.column = f.column;
    if (!f.word.empty()) {
      if (!tokenized && !tr.tokenize_source(source, &tokens, error)) return false;
      if (!tokenized) tokens.push_back("</s>");
      tokenized = true;
      if (tokens.size() == 1) continue;  // nothing to translate: no edit to make
      const std::vector<uint32_t> want = folded(f.word);
      const auto it = std::find_if(tokens.begin(), tokens.end(),
                                   [&](const std::string& t) { return folded(t) == want; });
      if (it == tokens.end()) {
        std::string list;
        for (const std::string& t : tokens) list += (list.empty() ? "" : " ") + t;
        *error = "--attend " + std::to_string(f.step) + "=" + f.word + ": no source token \"" +
                 f.word + "\" in this sentence (its tokens: " + list + ")";
        return false;
      }
      e.column = int(it - tokens.begin());
    }
    out->push_back(e);
  }
  return true;
}

void attend_json(const bl::Translation& t, nlohmann::json* j) {
  if (t.edited.empty()) return;
  edited_json(t.edited, rows_at(t.attention, t.edited), t.own_attention, j);
  const size_t from = std::min(size_t(std::max(t.edited[0], 0)), t.tgt_tokens.size());
  (*j)["continuation"] = std::vector<std::string>(t.tgt_tokens.begin() + from, t.tgt_tokens.end());
}

void attend_json(const bl::Alignment& al, nlohmann::json* j) {
  std::vector<int> edited;
  std::vector<std::vector<float>> given, own;
  for (size_t i = 0; i < al.steps.size(); i++) {
    if (!al.steps[i].edited) continue;
    edited.push_back(int(i));
    given.push_back(al.steps[i].alpha);
    own.push_back(al.steps[i].own_alpha);
  }
  if (!edited.empty()) edited_json(edited, given, own, j);
}

std::string attend_heatmap(const bl::Translation& t) {
  return marked_heatmap(t.src_tokens, t.tgt_tokens, t.attention, t.edited, t.own_attention);
}

std::string attend_heatmap(const bl::Alignment& al) {
  std::vector<int> edited;
  std::vector<std::vector<float>> rows, own;
  for (size_t i = 0; i < al.steps.size(); i++) {
    rows.push_back(al.steps[i].alpha);
    if (!al.steps[i].edited) continue;
    edited.push_back(int(i));
    own.push_back(al.steps[i].own_alpha);
  }
  return marked_heatmap(al.src_tokens, al.tgt_tokens, rows, edited, own);
}
