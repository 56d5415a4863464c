// bahdanau-translate: the native command line front end.
//
//   bahdanau-translate --model models/en-fr.safetensors [--beam K] [--json] [--heatmap] [TEXT...]
//   bahdanau-translate --model ... --force "Le chat noir dort." "The black cat is sleeping."
//   bahdanau-translate --model ... --attend 2=cat --json "The black cat is sleeping."
//
// TEXT (the arguments joined by spaces) is one sentence; without TEXT every stdin line is one.
// One output line per input line. Errors go to stderr and make the exit status non-zero; a bad
// stdin line prints an empty output line so the outputs stay aligned with the inputs.
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bahdanau.h"
#include "cli/attend.h"
#include "cli/json_out.h"
#include "cli/read_model.h"

namespace {

const char* kUsage =
    "usage: bahdanau-translate --model FILE [--beam K] [--max-len N] [--json] [--heatmap]\n"
    "                          [--scalar] [--info] [--split-sentences] [--batch N]\n"
    "                          [--force TARGET | --force-tsv] [--attend I=J]\n"
    "                          [--attend-weights I=w0,w1,...] [--attend-hold]\n"
    "                          [--attend-head L.H] [--ablate-head I=L.H] [TEXT...]\n"
    "Translates TEXT, or each line of standard input, and prints one translation per line.\n"
    "  --model FILE   model file (.safetensors), e.g. models/en-fr.safetensors\n"
    "  --beam K       beam search with K hypotheses (1..16; default 1 = greedy)\n"
    "  --max-len N    cap the output at N tokens\n"
    "  --json         one JSON object per line: source, target, attention, probabilities\n"
    "  --heatmap      draw the attention matrix after each translation\n"
    "  --scalar       use the scalar kernels instead of the SIMD ones\n"
    "  --info         print the model's description as JSON and exit\n"
    "  --split-sentences  translate each sentence of a line on its own (for text longer than\n"
    "                 the model reads); the line's output joins their translations, --json\n"
    "                 gives {\"sentences\": [one object each], \"text\": the joined text}\n"
    "  --batch N      read standard input N lines at a time (1..1024) and decode their\n"
    "                 sentences together (greedy: one batch; beam: one at a time); the\n"
    "                 output is the same, line for line\n"
    "  --force TARGET forced decoding: align the given translation TARGET to TEXT instead of\n"
    "                 translating; prints each target word's probability (<unk> marks a word\n"
    "                 outside the vocabulary) and the whole target's log-probability\n"
    "  --force-tsv    the same for each standard input line SOURCE<TAB>TARGET\n"
    "  --attend I=J   attention edit: output word I (from 0) mixes its context from source\n"
    "                 position J alone (from 0), or from the source word J (its first\n"
    "                 occurrence, in any case); repeatable. --json adds the edited rows beside\n"
    "                 the model's own and the continuation; --heatmap marks them\n"
    "  --attend-weights I=w0,w1,...  output word I mixes its context from these weights,\n"
    "                 one per source column (the source tokens, then </s>); repeatable\n"
    "  --attend-hold  keep each edit at every later step too\n"
    "  --attend-head L.H  Transformer: edit decoder layer L's head H only (from 0)\n"
    "  --ablate-head I=L.H  Transformer: switch layer L's head H off at output word I\n";

struct Options {
  std::string model;
  bl::TranslateParams params;
  bool json = false, heatmap = false, scalar = false, info = false, force_tsv = false;
  bool force = false, split = false;
  int batch = 0;       // --batch N: stdin lines per translate_batch call; 0 = one at a time
  std::string target;  // --force
  std::vector<std::string> text;
  Attend attend;       // --attend and the other edit flags (cli/attend.h)
};

bool parse_int(const char* s, int lo, int hi, int* out) {
  char* end = nullptr;
  long v = std::strtol(s, &end, 10);
  if (!*s || *end || v < lo || v > hi) return false;
  *out = int(v);
  return true;
}

// Returns 0 to go on, or the exit status.
int parse(int argc, char** argv, Options* o) {
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    auto value = [&](const char* name) -> const char* {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "bahdanau-translate: %s needs a value\n", name);
        return nullptr;
      }
      return argv[++i];
    };
    if (a == "-h" || a == "--help") {
      std::fputs(kUsage, stdout);
      return -1;
    } else if (a == "--model") {
      const char* v = value("--model");
      if (!v) return 2;
      o->model = v;
    } else if (a == "--beam" || a == "--max-len") {
      const char* v = value(a.c_str());
      int* dst = a == "--beam" ? &o->params.beam : &o->params.max_len;
      if (!v) return 2;
      if (!parse_int(v, 1, a == "--beam" ? bl::kMaxBeam : 1024, dst)) {
        std::fprintf(stderr, "bahdanau-translate: %s takes an integer in 1..%d\n", a.c_str(),
                     a == "--beam" ? bl::kMaxBeam : 1024);
        return 2;
      }
    } else if (a == "--batch") {
      const char* v = value("--batch");
      if (!v) return 2;
      if (!parse_int(v, 1, bl::kMaxBatch, &o->batch)) {
        std::fprintf(stderr, "bahdanau-translate: --batch takes an integer in 1..%d\n",
                     bl::kMaxBatch);
        return 2;
      }
    } else if (a == "--force") {
      const char* v = value("--force");
      if (!v) return 2;
      o->force = true;
      o->target = v;
    } else if (attend_takes_value(a) || a == "--attend-hold") {
      const char* v = a == "--attend-hold" ? "" : value(a.c_str());
      if (!v) return 2;
      const std::string e = attend_parse(a, v, &o->attend);
      if (!e.empty()) {
        std::fprintf(stderr, "bahdanau-translate: %s\n", e.c_str());
        return 2;
      }
    } else if (a == "--force-tsv") {
      o->force_tsv = true;
    } else if (a == "--json") {
      o->json = true;
    } else if (a == "--heatmap") {
      o->heatmap = true;
    } else if (a == "--scalar") {
      o->scalar = true;
    } else if (a == "--info") {
      o->info = true;
    } else if (a == "--split-sentences") {
      o->split = true;
    } else if (a == "--") {
      for (i++; i < argc; i++) o->text.push_back(argv[i]);
    } else if (a.size() > 1 && a[0] == '-' && a[1] == '-') {
      std::fprintf(stderr, "bahdanau-translate: unknown option %s\n%s", a.c_str(), kUsage);
      return 2;
    } else {
      o->text.push_back(a);
    }
  }
  if (o->model.empty()) {
    std::fprintf(stderr, "bahdanau-translate: --model FILE is required\n%s", kUsage);
    return 2;
  }
  if (o->split && (o->force || o->force_tsv)) {
    std::fprintf(stderr, "bahdanau-translate: --split-sentences does not apply to forced decoding\n");
    return 2;
  }
  if (o->batch && (o->force || o->force_tsv)) {
    std::fprintf(stderr, "bahdanau-translate: --batch does not apply to forced decoding\n");
    return 2;
  }
  if (o->force && o->force_tsv) {
    std::fprintf(stderr, "bahdanau-translate: --force and --force-tsv exclude each other\n");
    return 2;
  }
  if (o->force && o->text.empty()) {
    std::fprintf(stderr, "bahdanau-translate: --force TARGET needs the source TEXT as arguments "
                         "(use --force-tsv for standard input)\n");
    return 2;
  }
  if (o->force_tsv && !o->text.empty()) {
    std::fprintf(stderr, "bahdanau-translate: --force-tsv reads standard input, not TEXT\n");
    return 2;
  }
  const std::string e = attend_check(o->attend, o->params.beam, o->split);
  if (!e.empty()) {
    std::fprintf(stderr, "bahdanau-translate: %s\n", e.c_str());
    return 2;
  }
  return 0;
}

bool fail_line(const Options& o, const std::string& err) {
  std::fprintf(stderr, "bahdanau-translate: %s\n", err.c_str());
  std::fputs(o.json ? "{}\n" : "\n", stdout);
  return false;
}

// The message for a line whose sentence i (from 0) failed.
std::string piece_error(const Options& o, size_t i, const std::string& err) {
  return o.split ? "sentence " + std::to_string(i + 1) + ": " + err : err;
}

// One line's output, from its translations (one per sentence with --split-sentences).
void print_line(const Options& o, const std::vector<bl::Translation>& ts) {
  std::string text;
  for (const bl::Translation& t : ts) text += (text.empty() || t.text.empty() ? "" : " ") + t.text;
  if (!o.json) {
    std::printf("%s\n", text.c_str());
  } else if (!o.split) {
    print_json(to_json(ts[0]));
  } else {
    nlohmann::json j = {{"sentences", nlohmann::json::array()}, {"text", text}};
    for (const bl::Translation& t : ts) j["sentences"].push_back(to_json(t));
    print_json(j);
  }
  for (const bl::Translation& t : ts)
    if (o.heatmap && !t.tgt_tokens.empty()) std::fputs(attend_heatmap(t).c_str(), stdout);
  std::fflush(stdout);
}

// Translates one line (with --split-sentences, each of its sentences); false (and a message on
// stderr) if it could not.
bool run_one(bl::Translator& tr, const Options& o, const std::string& line) {
  std::vector<std::string> pieces{line};
  std::string err;
  // The whole line's length first: its sentences would each pass, and take minutes together.
  if (o.split && (!bl::check_text_length(line, &err) || !tr.split_sentences(line, &pieces, &err)))
    return fail_line(o, err);
  bl::TranslateParams params = o.params;  // with the line's edits (one sentence: no split)
  if (!attend_edits(tr, line, o.attend, &params.edits, &err)) return fail_line(o, err);
  std::vector<bl::Translation> ts(pieces.size());
  for (size_t i = 0; i < pieces.size(); i++) {
    if (!tr.translate(pieces[i], params, &ts[i], &err)) return fail_line(o, piece_error(o, i, err));
  }
  print_line(o, ts);
  return true;
}

// --batch: run_one for each of lines, all their sentences translated by one translate_batch
// call, which gives exactly translate()'s results; the output (and each error message) comes
// in input order, as run_one would print it.
bool run_group(bl::Translator& tr, const Options& o, const std::vector<std::string>& lines) {
  std::vector<std::vector<std::string>> pieces(lines.size());
  std::vector<std::string> split_error(lines.size()), all;
  std::vector<char> unsplit(lines.size(), 0);
  for (size_t i = 0; i < lines.size(); i++) {
    if (!o.split)
      pieces[i] = {lines[i]};
    else if (!bl::check_text_length(lines[i], &split_error[i]) ||
             !tr.split_sentences(lines[i], &pieces[i], &split_error[i]))
      unsplit[i] = 1;
    all.insert(all.end(), pieces[i].begin(), pieces[i].end());
  }
  std::vector<bl::Translation> ts;
  std::vector<std::string> errors;
  tr.translate_batch(all, o.params, &ts, &errors);
  bool ok = true;
  size_t at = 0;
  for (size_t i = 0; i < lines.size(); i++) {
    const size_t n = pieces[i].size();
    bool failed = unsplit[i] != 0;
    std::string err = split_error[i];
    for (size_t k = 0; k < n && !failed; k++) {
      failed = !errors[at + k].empty();
      if (failed) err = piece_error(o, k, errors[at + k]);
    }
    if (failed) {
      fail_line(o, err);
      ok = false;
    } else {
      print_line(o, std::vector<bl::Translation>(ts.begin() + at, ts.begin() + at + n));
    }
    at += n;
  }
  return ok;
}

// Forced decoding of one pair; false (and a message on stderr) if it could not.
bool run_force(bl::Translator& tr, const Options& o, const std::string& source,
               const std::string& target) {
  bl::Alignment al;
  bl::AlignParams params;
  std::string err;
  if (!attend_edits(tr, source, o.attend, &params.edits, &err) ||
      !tr.align(source, target, params, &al, &err))
    return fail_line(o, err);
  if (o.json) {
    print_json(to_json(al));
  } else {  // word/p pairs, then the whole target's log-probability
    std::string line;
    for (size_t i = 0; i < al.steps.size(); i++) {
      char p[32];
      std::snprintf(p, sizeof p, "%.3f", double(al.steps[i].prob));
      const bool unk = al.steps[i].token == 1;
      line += (i ? " " : "") + al.tgt_tokens[i] + (unk ? "<unk>" : "") + "/" + p;
    }
    std::printf("%s  log p = %.3f\n", line.c_str(), al.log_prob);
  }
  if (o.heatmap && !al.steps.empty()) std::fputs(attend_heatmap(al).c_str(), stdout);
  std::fflush(stdout);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  if (int rc = parse(argc, argv, &o)) return rc < 0 ? 0 : rc;

  std::vector<uint8_t> bytes;
  std::string err;
  if (!read_model_file(o.model, &bytes, &err)) {
    std::fprintf(stderr, "bahdanau-translate: %s\n", err.c_str());
    return 1;
  }
  auto tr = bl::Translator::load(bytes.data(), bytes.size(), bl::LoadParams{!o.scalar}, &err);
  if (!tr) {
    std::fprintf(stderr, "bahdanau-translate: %s: %s\n", o.model.c_str(), err.c_str());
    return 1;
  }
  if (o.info) {
    std::printf("%s\n", info_json(tr->info()).dump().c_str());
    return 0;
  }

  bool ok = true;
  if (!o.text.empty()) {
    std::string text;
    for (const auto& t : o.text) text += (text.empty() ? "" : " ") + t;
    ok = o.force ? run_force(*tr, o, text, o.target) : run_one(*tr, o, text);
  } else if (o.force_tsv) {
    std::string line;
    while (std::getline(std::cin, line)) {
      const size_t tab = line.find('\t');
      if (tab == std::string::npos) {
        std::fprintf(stderr, "bahdanau-translate: --force-tsv: line without a TAB\n");
        std::fputs(o.json ? "{}\n" : "\n", stdout);
        ok = false;
        continue;
      }
      ok = run_force(*tr, o, line.substr(0, tab), line.substr(tab + 1)) && ok;
    }
  } else if (o.batch && o.attend.flags.empty()) {  // edits: each line decodes on its own
    std::vector<std::string> group;
    for (std::string line; std::getline(std::cin, line);) {
      group.push_back(line);
      if (group.size() == size_t(o.batch)) {
        ok = run_group(*tr, o, group) && ok;
        group.clear();
      }
    }
    if (!group.empty()) ok = run_group(*tr, o, group) && ok;
  } else {
    std::string line;
    while (std::getline(std::cin, line)) ok = run_one(*tr, o, line) && ok;
  }
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    std::fprintf(stderr, "bahdanau-translate: cannot write the output: %s\n", std::strerror(errno));
    return 1;
  }
  return ok ? 0 : 1;
}
