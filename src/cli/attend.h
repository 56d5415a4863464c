// Attention edits from the command line (issue 26, docs/attention-edits.md): --attend I=J,
// --attend-weights I=w0,w1,..., --attend-hold, --attend-head L.H and --ablate-head I=L.H.
// Parsed with the other flags; each sentence then resolves its own edits (a source word J
// becomes the column of its first occurrence); --json and --heatmap show the edited rows beside
// the model's own. scripts/lib/attend-args.mjs is the Node CLI's copy, message for message.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bahdanau.h"

// One edit as typed, before its sentence is known.
struct AttendFlag {
  int step = 0;
  std::string word;            // --attend I=word: resolved per sentence
  int column = -1;             // --attend I=J with J a position
  std::vector<float> weights;  // --attend-weights
  bool ablate = false;         // --ablate-head I=L.H
  int layer = -1, head = -1;   // --ablate-head's L.H
};

struct Attend {
  std::vector<AttendFlag> flags;
  bool hold = false;              // --attend-hold
  int layer = -1, head = -1;      // --attend-head L.H, for --attend and --attend-weights
  bool head_given = false;
};

// Whether flag is one of the edit flags that take a value.
bool attend_takes_value(const std::string& flag);
// Reads one of them (--attend-hold too, with value ""); "" or the usage error's message.
std::string attend_parse(const std::string& flag, const std::string& value, Attend* a);
// The usage errors of the whole command line: "" or the message.
std::string attend_check(const Attend& a, int beam, bool split);

// The edits for one sentence (source, as the CLI reads it); false and *error when a word J is
// not one of its tokens (or the source cannot be tokenized). A source without tokens (an empty
// line) translates to nothing: its word edits are left out.
bool attend_edits(const bl::Translator& tr, const std::string& source, const Attend& a,
                  std::vector<bl::AttentionEdit>* out, std::string* error);

// --json: the edited rows (edited, given_attention, own_attention) and, for a translation, the
// continuation (its tokens from the first edited row on). Nothing when no row was edited.
void attend_json(const bl::Translation& t, nlohmann::json* j);
void attend_json(const bl::Alignment& al, nlohmann::json* j);

// --heatmap: render_heatmap's picture with each edited row marked "*" and the model's own row
// under it, labelled "(own)", and a line that says so; without edited rows, render_heatmap's.
std::string attend_heatmap(const bl::Translation& t);
std::string attend_heatmap(const bl::Alignment& al);
