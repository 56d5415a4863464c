#include "core/model_file.h"

#include <cstdio>
#include <initializer_list>
#include <unordered_map>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/model_file_json.h"
#include "core/model_file_tensors.h"

namespace bl {
namespace {

using model_file::short_dump;
using nlohmann::json;

// A real header is mostly vocabulary: a million tokens take about 20 MB. Anything past this
// limit is a broken or hostile file, and refusing it early bounds what the parser allocates.
constexpr uint64_t kMaxHeaderBytes = 64ull << 20;
// Config limits: generous for this architecture, and small enough that every tensor size
// computed from them fits easily in 64 bits.
constexpr int64_t kMaxWidth = 4096;  // emb, enc_hidden, dec_hidden, attn
constexpr int64_t kMaxVocab = 1000000;
constexpr int64_t kMaxSentence = 1024;  // max_src_len, max_tgt_len
// Transformer limits: a feed-forward layer is a few times d_model wide; layers and heads are few.
constexpr int64_t kMaxFfn = 4 * kMaxWidth;
constexpr int64_t kMaxLayers = 24;
constexpr int64_t kMaxHeads = 64;
const char* const kSpecialTokens[] = {"<pad>", "<unk>", "<s>", "</s>"};
// JSON values allowed in the header itself (a real one has about 400: vocabularies are strings
// in it), in the config, and in a list of names. A vocabulary may hold 2 * size + 16, enough
// to report a wrong size precisely and small enough to bound what a padded one makes us build.
constexpr size_t kMaxHeaderValues = 10000;
constexpr size_t kMaxConfigValues = 1000;
constexpr size_t kMaxNameValues = size_t(kMaxVocab);

bool fail(std::string* error, std::string message) {
  *error = std::move(message);
  return false;
}

std::string quoted(const std::string& s) { return short_dump(json(s)); }

// __metadata__ values are all strings by the time this is called.
const std::string* find_meta(const json& meta, const char* key) {
  const auto it = meta.find(key);
  return it == meta.end() ? nullptr : &it->get_ref<const std::string&>();
}

bool check_meta_value(const json& meta, const char* key, std::initializer_list<const char*> want,
                      std::string* error) {
  const std::string* value = find_meta(meta, key);
  if (!value) return fail(error, std::string("metadata: missing key \"") + key + "\"");
  std::string expected;
  for (const char* w : want) {
    if (*value == w) return true;
    expected += (expected.empty() ? "\"" : " or \"") + std::string(w) + "\"";
  }
  return fail(error, std::string("metadata: ") + key + " " + quoted(*value) + ", expected " +
                         expected);
}

// Several metadata values are JSON texts inside the JSON header.
bool parse_meta_json(const json& meta, const char* key, size_t max_values, json* out,
                     std::string* error) {
  const std::string* text = find_meta(meta, key);
  if (!text) return fail(error, std::string("metadata: missing key \"") + key + "\"");
  std::string why;
  if (!model_file::parse_json(text->data(), text->data() + text->size(), max_values, out, &why))
    return fail(error, std::string(key) + ": " + why);
  return true;
}

const json* find_field(const json& cfg, const char* key, std::string* error) {
  const auto it = cfg.find(key);
  if (it == cfg.end()) {
    fail(error, std::string("config: missing field \"") + key + "\"");
    return nullptr;
  }
  return &*it;
}

// An integer field in lo..hi (lo >= 0). Booleans and floats such as 8.0 are refused.
bool read_int(const json& cfg, const char* key, int64_t lo, int64_t hi, int* out,
              std::string* error) {
  const json* v = find_field(cfg, key, error);
  if (!v) return false;
  if (!v->is_number_integer())
    return fail(error, std::string("config: field \"") + key + "\" is " + short_dump(*v) +
                           ", expected an integer");
  const bool in_range =
      v->is_number_unsigned()
          ? v->get<uint64_t>() >= uint64_t(lo) && v->get<uint64_t>() <= uint64_t(hi)
          : v->get<int64_t>() >= lo && v->get<int64_t>() <= hi;
  if (!in_range) {
    const std::string range =
        lo == hi ? std::to_string(lo) : std::to_string(lo) + ".." + std::to_string(hi);
    return fail(error,
                std::string("config: ") + key + " = " + short_dump(*v) + ", expected " + range);
  }
  *out = int(v->get<int64_t>());
  return true;
}

// A string field that must be one of `choices`; returns its index in *index.
bool read_choice(const json& cfg, const char* key, const std::vector<const char*>& choices,
                 size_t* index, std::string* error) {
  const json* v = find_field(cfg, key, error);
  if (!v) return false;
  if (!v->is_string())
    return fail(error, std::string("config: field \"") + key + "\" is " + short_dump(*v) +
                           ", expected a string");
  for (size_t i = 0; i < choices.size(); i++) {
    if (v->get_ref<const std::string&>() == choices[i]) {
      *index = i;
      return true;
    }
  }
  std::string expected;
  for (size_t i = 0; i < choices.size(); i++) {
    if (i > 0) expected += i + 1 < choices.size() ? ", " : " or ";
    expected += std::string("\"") + choices[i] + "\"";
  }
  return fail(error,
              std::string("config: ") + key + " " + short_dump(*v) + ", expected " + expected);
}

// The fields both architectures share: languages and dtype first, then (read_sizes, after the
// widths) vocabularies and length limits, so each error names the first bad field in file order.
// Chinese only as a target (tokenizer_version 3 then: check_zh_target).
bool read_langs(const json& c, Config* cfg, std::string* error) {
  const std::vector<const char*> langs = {"en", "fr", "zh"};
  size_t src_lang, tgt_lang;
  if (!read_choice(c, "src_lang", {langs[0], langs[1]}, &src_lang, error) ||
      !read_choice(c, "tgt_lang", langs, &tgt_lang, error))
    return false;
  if (src_lang == tgt_lang)
    return fail(error,
                std::string("config: src_lang and tgt_lang are both \"") + langs[src_lang] + "\"");
  cfg->src_lang = langs[src_lang];
  cfg->tgt_lang = langs[tgt_lang];
  return true;
}

bool read_dtype(const json& c, Config* cfg, std::string* error) {
  size_t dtype;
  if (!read_choice(c, "dtype", {"f32", "int8", "q4"}, &dtype, error)) return false;
  cfg->dtype = dtype == 0 ? DType::F32 : dtype == 1 ? DType::Int8 : DType::Q4;
  return true;
}

// Vocabularies hold at least the 4 special tokens.
bool read_sizes(const json& c, Config* cfg, std::string* error) {
  return read_int(c, "src_vocab", 4, kMaxVocab, &cfg->src_vocab, error) &&
         read_int(c, "tgt_vocab", 4, kMaxVocab, &cfg->tgt_vocab, error) &&
         read_int(c, "max_src_len", 1, kMaxSentence, &cfg->max_src_len, error) &&
         read_int(c, "max_tgt_len", 1, kMaxSentence, &cfg->max_tgt_len, error);
}

// arch "transformer": its attention is always the scaled dot product, split over heads.
bool read_transformer_config(const json& c, Config* cfg, std::string* error) {
  size_t scoring;
  if (!read_langs(c, cfg, error) || !read_choice(c, "scoring", {"scaled_dot"}, &scoring, error) ||
      !read_dtype(c, cfg, error) ||
      !read_int(c, "emb", 1, kMaxWidth, &cfg->emb, error) ||
      !read_int(c, "d_model", 1, kMaxWidth, &cfg->d_model, error) ||
      !read_int(c, "heads", 1, kMaxHeads, &cfg->heads, error) ||
      !read_int(c, "ffn", 1, kMaxFfn, &cfg->ffn, error) ||
      !read_int(c, "enc_layers", 1, kMaxLayers, &cfg->enc_layers, error) ||
      !read_int(c, "dec_layers", 1, kMaxLayers, &cfg->dec_layers, error) ||
      !read_sizes(c, cfg, error))
    return false;
  size_t guidance;  // guided attention is an RNN's (train --guided-alignment refuses the rest)
  if (c.contains("attention_guidance") &&
      !read_choice(c, "attention_guidance", {"none"}, &guidance, error))
    return false;
  if (cfg->d_model % cfg->heads != 0)
    return fail(error, "config: d_model = " + std::to_string(cfg->d_model) +
                           " is not a multiple of heads = " + std::to_string(cfg->heads));
  cfg->arch = Arch::Transformer;
  cfg->scoring = Scoring::ScaledDot;
  cfg->maxout = 0;
  return true;
}

bool read_config(const json& meta, Config* cfg, std::string* error) {
  json c;
  if (!parse_meta_json(meta, "config", kMaxConfigValues, &c, error)) return false;
  if (!c.is_object()) return fail(error, "config: " + short_dump(c) + " is not a JSON object");
  if (c.contains("arch")) {  // optional: the RNN files written before the Transformer omit it
    size_t arch;
    if (!read_choice(c, "arch", {"rnn", "transformer"}, &arch, error)) return false;
    if (arch == 1) return read_transformer_config(c, cfg, error);
  }
  size_t scoring;
  if (!read_langs(c, cfg, error) ||
      !read_choice(c, "scoring", {"additive", "scaled_dot", "none"}, &scoring, error) ||
      !read_dtype(c, cfg, error))
    return false;
  cfg->scoring = scoring == 0 ? Scoring::Additive : scoring == 1 ? Scoring::ScaledDot : Scoring::None;
  if (c.contains("decoder")) {  // optional: files of the paper's decoder do not name it
    size_t decoder;
    if (!read_choice(c, "decoder", {"paper", "cgru"}, &decoder, error)) return false;
    cfg->decoder = decoder == 0 ? DecoderKind::Paper : DecoderKind::CGru;
  }
  if (c.contains("attention_guidance")) {  // optional: files of plain training do not name it
    size_t guidance;
    if (!read_choice(c, "attention_guidance", {"none", "ibm1-diag"}, &guidance, error))
      return false;
    if (guidance == 1 && cfg->scoring == Scoring::None)
      return fail(error, "config: attention_guidance \"ibm1-diag\" on a model without attention");
    cfg->guidance = guidance == 0 ? Guidance::Plain : Guidance::Ibm1Diag;
  }
  // maxout is fixed at pairs by the format.
  return read_int(c, "emb", 1, kMaxWidth, &cfg->emb, error) &&
         read_int(c, "enc_hidden", 1, kMaxWidth, &cfg->enc_hidden, error) &&
         read_int(c, "dec_hidden", 1, kMaxWidth, &cfg->dec_hidden, error) &&
         // A model without attention has no scoring network, so no attention width.
         (cfg->scoring == Scoring::None ? read_int(c, "attn", 0, 0, &cfg->attn, error)
                                        : read_int(c, "attn", 1, kMaxWidth, &cfg->attn, error)) &&
         read_int(c, "maxout", 2, 2, &cfg->maxout, error) && read_sizes(c, cfg, error);
}

// A vocabulary (vocab_size > 0: exact size, special ids 0-3, no repeats) or a list of names
// (vocab_size == 0). Strings are valid UTF-8 already: the JSON parser checks that.
bool read_strings(const json& meta, const char* key, int vocab_size, std::vector<std::string>* out,
                  std::string* error) {
  json list;
  const size_t max_values = vocab_size > 0 ? 2 * size_t(vocab_size) + 16 : kMaxNameValues;
  if (!parse_meta_json(meta, key, max_values, &list, error)) return false;
  const std::string where = std::string(key) + ": ";
  if (!list.is_array()) return fail(error, where + short_dump(list) + " is not a JSON array");
  const bool is_vocab = vocab_size > 0;
  const char* item = is_vocab ? "token " : "name ";
  if (is_vocab && list.size() != size_t(vocab_size))
    return fail(error, where + std::to_string(list.size()) + " tokens, config says " + key + " = " +
                           std::to_string(vocab_size));
  std::vector<std::string> strings;
  std::unordered_map<std::string, size_t> first_id;
  for (size_t i = 0; i < list.size(); i++) {
    const std::string at = where + item + std::to_string(i);
    if (!list[i].is_string())
      return fail(error, at + " is " + short_dump(list[i]) + ", expected a string");
    const std::string& s = list[i].get_ref<const std::string&>();
    if (s.empty()) return fail(error, at + " is empty");
    if (is_vocab) {
      if (i < 4 && s != kSpecialTokens[i])
        return fail(error, at + " is " + quoted(s) + ", expected \"" + kSpecialTokens[i] + "\"");
      const auto seen = first_id.emplace(s, i);
      if (!seen.second)
        return fail(error,
                    at + " " + quoted(s) + " repeats token " + std::to_string(seen.first->second));
    }
    strings.push_back(s);
  }
  *out = std::move(strings);
  return true;
}

// Required, as it always was. 2 only added case repair at inference, 3 Chinese
// (docs/tokenization.md); the engine builds every Tokenizer of the model with this version,
// so 1 and 2 read CJK and full-width text as they always did.
bool read_tokenizer_version(const json& meta, ModelData* md, std::string* error) {
  if (!check_meta_value(meta, "tokenizer_version", {"1", "2", "3"}, error)) return false;
  md->tokenizer_version = *find_meta(meta, "tokenizer_version")->c_str() - '0';
  return true;
}

// Only spec 3 tokenizes and detokenizes Chinese (1 and 2 would space it like English).
bool check_zh_target(const ModelData& md, std::string* error) {
  if (md.config.tgt_lang != "zh" || md.tokenizer_version >= 3) return true;
  return fail(error, "config: tgt_lang \"zh\" needs tokenizer_version \"3\" (the file has \"" +
                         std::to_string(md.tokenizer_version) + "\")");
}

bool read_metadata(const json& header, ModelData* md, std::string* error) {
  const auto it = header.find("__metadata__");
  if (it == header.end()) return fail(error, "header: missing \"__metadata__\"");
  const json& meta = *it;
  if (!meta.is_object())
    return fail(error, "__metadata__ is " + short_dump(meta) + ", expected a JSON object");
  for (const auto& kv : meta.items())
    if (!kv.value().is_string())
      return fail(error, "__metadata__: value of " + quoted(kv.key()) + " is " +
                             short_dump(kv.value()) + ", expected a string");
  const Config& cfg = md->config;
  return check_meta_value(meta, "format", {"bahdanau-live"}, error) &&
         check_meta_value(meta, "format_version", {"1"}, error) &&
         read_tokenizer_version(meta, md, error) && read_config(meta, &md->config, error) &&
         check_zh_target(*md, error) &&
         read_strings(meta, "src_vocab", cfg.src_vocab, &md->src_vocab, error) &&
         read_strings(meta, "tgt_vocab", cfg.tgt_vocab, &md->tgt_vocab, error) &&
         read_strings(meta, "src_names", 0, &md->src_names, error) &&
         read_strings(meta, "tgt_names", 0, &md->tgt_names, error);
}

}  // namespace

bool parse_header(const uint8_t* data, size_t size, json* header, ModelData* md,
                  size_t* header_size, std::string* error) {
  if (!data) size = 0;
  if (size < 8)
    return fail(error, "file is too short (" + std::to_string(size) + " bytes) to be a model");

  // safetensors: u64 little-endian header length, the JSON header, then the data buffer.
  uint64_t header_len = 0;
  for (int i = 7; i >= 0; i--) header_len = header_len << 8 | data[i];
  if (header_len == 0) return fail(error, "header length 0: the file has no header");
  if (header_len > uint64_t(size) - 8)
    return fail(error, "header length " + std::to_string(header_len) + " exceeds file size " +
                           std::to_string(size));
  if (header_len > kMaxHeaderBytes)
    return fail(error, "header length " + std::to_string(header_len) + " exceeds the limit of " +
                           std::to_string(kMaxHeaderBytes) + " bytes");
  const uint8_t* header_bytes = data + 8;
  *header_size = size_t(header_len);

  size_t bad = 0;
  if (!model_file::is_valid_utf8(header_bytes, *header_size, &bad)) {
    char byte[8];
    std::snprintf(byte, sizeof byte, "0x%02x", header_bytes[bad]);
    return fail(error, std::string("header is not valid UTF-8 (byte ") + byte + " at offset " +
                           std::to_string(8 + bad) + ")");
  }
  std::string why;
  const char* text = reinterpret_cast<const char*>(header_bytes);
  if (!model_file::parse_json(text, text + *header_size, kMaxHeaderValues, header, &why))
    return fail(error, "header: " + why);
  if (!header->is_object())
    return fail(error,
                std::string("header is a JSON ") + header->type_name() + ", expected an object");
  return read_metadata(*header, md, error);
}

bool load_model(const uint8_t* data, size_t size, ModelData* out, std::string* error) {
  std::string unused;
  if (!error) error = &unused;
  json header;
  ModelData md;
  size_t header_size = 0;
  if (!parse_header(data, size, &header, &md, &header_size, error)) return false;
  const uint8_t* tensor_data = data + 8 + header_size;
  const size_t data_size = size - 8 - header_size;
  if (!model_file::load_tensors(header, md.config, tensor_data, data_size, &md.weights,
                                &md.num_params, error))
    return false;
  md.file_bytes = size;
  *out = std::move(md);
  return true;
}

}  // namespace bl
