#include "core/train_config.h"

#include <unordered_map>
#include <utility>

#include "core/model_file_json.h"

namespace bl {

namespace {

using nlohmann::json;
using std::to_string;

const char* const kSpecials[] = {"<pad>", "<unk>", "<s>", "</s>"};

// A string in quotes for a message; bad UTF-8 (from a C++ caller) shown as U+FFFD, not thrown.
std::string quote(const std::string& s) {
  return json(s).dump(-1, ' ', false, json::error_handler_t::replace);
}

bool fail(std::string* error, std::string message) {
  *error = "train config: " + std::move(message);
  return false;
}

bool check_range(const char* key, int v, int lo, int hi, std::string* error) {
  if (v >= lo && v <= hi) return true;
  return fail(error, std::string(key) + " = " + to_string(v) + ", expected " + to_string(lo) +
                         ".." + to_string(hi));
}

// Everything but the vocabularies and names.
bool check_shape(const TrainConfig& c, std::string* error) {
  for (const auto& [key, v] : {std::pair{"src_lang", &c.src_lang}, {"tgt_lang", &c.tgt_lang}})
    if (*v != "en" && *v != "fr")
      return fail(error, std::string(key) + " " + quote(*v) + ", expected \"en\" or \"fr\"");
  if (c.src_lang == c.tgt_lang)
    return fail(error, "src_lang and tgt_lang are both \"" + c.src_lang + "\"");
  if (c.decoder != "paper" && c.decoder != "cgru")
    return fail(error, "decoder " + quote(c.decoder) + ", expected \"paper\" or \"cgru\"");
  if (c.scoring != "additive" && c.scoring != "scaled_dot" && c.scoring != "none")
    return fail(error, "scoring " + quote(c.scoring) +
                           ", expected \"additive\", \"scaled_dot\" or \"none\"");
  if (!check_range("emb", c.emb, 1, train::kMaxTrainWidth, error) ||
      !check_range("enc_hidden", c.enc_hidden, 1, train::kMaxTrainWidth, error) ||
      !check_range("dec_hidden", c.dec_hidden, 1, train::kMaxTrainWidth, error))
    return false;
  if (c.scoring == "none" ? !check_range("attn", c.attn, 0, 0, error)
                          : !check_range("attn", c.attn, 1, train::kMaxTrainWidth, error)) {
    if (c.scoring == "none") *error += " (a model without attention has no attention width)";
    return false;
  }
  return check_range("maxout", c.maxout, 2, 2, error) &&
         check_range("max_src_len", c.max_src_len, 1, train::kMaxTrainLength, error) &&
         check_range("max_tgt_len", c.max_tgt_len, 1, train::kMaxTrainLength, error);
}

}  // namespace

namespace train {

bool check_strings(const char* key, const std::vector<std::string>& list, bool vocab,
                   std::string* error) {
  auto fail = [error](std::string message) {
    *error = std::move(message);
    return false;
  };
  const std::string where = std::string(key) + ": ";
  if (vocab && (list.size() < size_t(train::kMinTrainVocab) ||
                list.size() > size_t(train::kMaxTrainVocab)))
    return fail(where + to_string(list.size()) + " tokens, expected " +
                           to_string(train::kMinTrainVocab) + ".." +
                           to_string(train::kMaxTrainVocab));
  if (!vocab && list.size() > train::kMaxNames)
    return fail(where + to_string(list.size()) + " names, more than " +
                           to_string(train::kMaxNames));
  std::unordered_map<std::string, size_t> first;
  for (size_t i = 0; i < list.size(); i++) {
    const std::string at = where + (vocab ? "token " : "name ") + to_string(i);
    std::string why;
    if (!train::check_token(list[i], &why)) return fail(at + " " + why);
    if (!vocab) continue;
    if (i < 4 && list[i] != kSpecials[i])
      return fail(at + " is " + quote(list[i]) + ", expected \"" + kSpecials[i] +
                             "\"");
    const auto seen = first.emplace(list[i], i);
    if (!seen.second)
      return fail(at + " " + quote(list[i]) + " repeats token " +
                             to_string(seen.first->second));
  }
  return true;
}

}  // namespace train

namespace {

bool check_list(const char* key, const std::vector<std::string>& list, bool vocab,
                std::string* error) {
  std::string why;
  return train::check_strings(key, list, vocab, &why) || fail(error, why);
}

bool read_string(const json& j, const char* key, std::string* out, std::string* error) {
  if (!j.is_string())
    return fail(error, std::string("field \"") + key + "\" is " + model_file::short_dump(j) +
                           ", expected a string");
  *out = j.get<std::string>();
  return true;
}

bool read_int(const json& j, const char* key, int* out, std::string* error) {
  if (!j.is_number_integer())
    return fail(error, std::string("field \"") + key + "\" is " + model_file::short_dump(j) +
                           ", expected an integer");
  // Out of int's range: report it as the limit check would, without converting.
  const bool big = j.is_number_unsigned() ? j.get<uint64_t>() > uint64_t(1) << 30
                                          : j.get<int64_t>() > int64_t(1) << 30 ||
                                                j.get<int64_t>() < -(int64_t(1) << 30);
  if (big)
    return fail(error, std::string(key) + " = " + model_file::short_dump(j) + " is out of range");
  *out = int(j.get<int64_t>());
  return true;
}

}  // namespace

namespace train {

bool check_token(const std::string& s, std::string* why) {
  if (s.empty()) return (*why = "is empty"), false;
  if (s.size() > kMaxTokenBytes)
    return (*why = "has " + to_string(s.size()) + " bytes, more than " +
                   to_string(kMaxTokenBytes)),
           false;
  size_t bad = 0;
  if (!model_file::is_valid_utf8(reinterpret_cast<const uint8_t*>(s.data()), s.size(), &bad))
    return (*why = "is not valid UTF-8 (byte " + to_string(bad) + ")"), false;
  for (unsigned char ch : s)
    if (ch <= 0x20 || ch == 0x7f)
      return (*why = "holds a space or control character (byte " + to_string(ch) + ")"), false;
  return true;
}

int64_t count_params(const TrainConfig& c) {
  const int64_t E = c.emb, H = c.enc_hidden, D = c.dec_hidden, A = c.attn, M = c.maxout;
  const int64_t Vs = int64_t(c.src_vocab.size()), Vt = int64_t(c.tgt_vocab.size());
  auto gru = [](int64_t in, int64_t h) { return 3 * h * in + 3 * h * h + 6 * h; };
  int64_t n = Vs * E + 2 * gru(E, H) + D * H + D + Vt * E + M * E * (D + 2 * H + E) + M * E + Vt;
  if (c.scoring != "none") n += A * D + A * 2 * H;
  if (c.scoring == "additive") n += A;
  n += c.decoder == "cgru" ? gru(E, D) + gru(2 * H, D) : gru(E + 2 * H, D);
  return n;
}

Config to_config(const TrainConfig& c) {
  Config cfg;
  cfg.src_lang = c.src_lang, cfg.tgt_lang = c.tgt_lang;
  cfg.scoring = c.scoring == "additive"     ? Scoring::Additive
                : c.scoring == "scaled_dot" ? Scoring::ScaledDot
                                            : Scoring::None;
  cfg.decoder = c.decoder == "cgru" ? DecoderKind::CGru : DecoderKind::Paper;
  cfg.emb = c.emb, cfg.enc_hidden = c.enc_hidden, cfg.dec_hidden = c.dec_hidden;
  cfg.attn = c.attn, cfg.maxout = c.maxout;
  cfg.src_vocab = int(c.src_vocab.size()), cfg.tgt_vocab = int(c.tgt_vocab.size());
  cfg.max_src_len = c.max_src_len, cfg.max_tgt_len = c.max_tgt_len;
  return cfg;
}

json to_metadata(const TrainConfig& c, uint64_t seed) {
  const json config = {{"src_lang", c.src_lang},  {"tgt_lang", c.tgt_lang},
                       {"scoring", c.scoring},    {"decoder", c.decoder},
                       {"emb", c.emb},            {"enc_hidden", c.enc_hidden},
                       {"dec_hidden", c.dec_hidden}, {"attn", c.attn},
                       {"maxout", c.maxout},      {"src_vocab", c.src_vocab.size()},
                       {"tgt_vocab", c.tgt_vocab.size()}, {"max_src_len", c.max_src_len},
                       {"max_tgt_len", c.max_tgt_len}, {"dtype", "f32"}};
  const json training = {{"by", "bahdanau-live core trainer (Trainer::create)"},
                         {"init", "PyTorch defaults (docs/training-core.md)"},
                         {"seed", std::to_string(seed)}};
  return {{"format", "bahdanau-live"},
          {"format_version", "1"},
          {"tokenizer_version", "2"},
          {"config", config.dump()},
          {"src_vocab", json(c.src_vocab).dump()},
          {"tgt_vocab", json(c.tgt_vocab).dump()},
          {"src_names", json(c.src_names).dump()},
          {"tgt_names", json(c.tgt_names).dump()},
          {"training", training.dump()}};
}

}  // namespace train

bool check_train_config(const TrainConfig& cfg, std::string* error) {
  std::string unused;
  if (!error) error = &unused;
  if (!check_shape(cfg, error) || !check_list("src_vocab", cfg.src_vocab, true, error) ||
      !check_list("tgt_vocab", cfg.tgt_vocab, true, error) ||
      !check_list("src_names", cfg.src_names, false, error) ||
      !check_list("tgt_names", cfg.tgt_names, false, error))
    return false;
  const int64_t n = train::count_params(cfg);
  if (n > train::kMaxTrainParams)
    return fail(error, "the model would have " + to_string(n) + " parameters, more than " +
                           to_string(train::kMaxTrainParams) +
                           " (make the vocabularies or the widths smaller)");
  return true;
}

bool parse_train_config(const std::string& text, TrainConfig* out, std::string* error) {
  std::string unused;
  if (!error) error = &unused;
  json j;
  std::string why;
  if (!model_file::parse_json(text.data(), text.data() + text.size(), 64, &j, &why))
    return fail(error, why);
  if (!j.is_object()) return fail(error, model_file::short_dump(j) + " is not a JSON object");
  TrainConfig c = *out;
  const std::unordered_map<std::string, std::string*> strings = {
      {"src_lang", &c.src_lang}, {"tgt_lang", &c.tgt_lang}, {"decoder", &c.decoder},
      {"scoring", &c.scoring}};
  const std::unordered_map<std::string, int*> ints = {
      {"emb", &c.emb},       {"enc_hidden", &c.enc_hidden}, {"dec_hidden", &c.dec_hidden},
      {"attn", &c.attn},     {"maxout", &c.maxout},         {"max_src_len", &c.max_src_len},
      {"max_tgt_len", &c.max_tgt_len}};
  for (const auto& [key, value] : j.items()) {
    if (auto s = strings.find(key); s != strings.end()) {
      if (!read_string(value, key.c_str(), s->second, error)) return false;
    } else if (auto i = ints.find(key); i != ints.end()) {
      if (!read_int(value, key.c_str(), i->second, error)) return false;
    } else {
      return fail(error, "unknown field " + quote(key) +
                             " (vocabularies and names come from the data file)");
    }
  }
  if (c.scoring == "none" && !j.contains("attn")) c.attn = 0;  // no attention, no width
  if (!check_shape(c, error)) return false;
  *out = std::move(c);
  return true;
}

}  // namespace bl
