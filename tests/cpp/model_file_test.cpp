// load_model: the four tiny fixtures load exactly; broken files fail with a precise message and
// never crash (this file also runs under ASan/UBSan).
#include "core/model_file.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <limits>
#include <map>
#include <random>

#include <nlohmann/json.hpp>

#include "bahdanau.h"
#include "core/tokenizer.h"

namespace bl {
namespace {

using nlohmann::json;
using Bytes = std::vector<uint8_t>;

Bytes read_fixture(const std::string& name) {
  std::ifstream f(std::string(BL_SOURCE_DIR) + "/tests/fixtures/" + name, std::ios::binary);
  EXPECT_TRUE(f.good()) << name;
  return Bytes(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

const Bytes& fixture(const std::string& stem) {
  static std::map<std::string, Bytes> cache;
  auto it = cache.find(stem);
  if (it == cache.end()) it = cache.emplace(stem, read_fixture(stem + ".safetensors")).first;
  return it->second;
}

// A model file taken apart into header JSON and data buffer, to be edited and put back together.
// Read on its own (host is little-endian here, as is every target) to check the loader against.
struct Parts {
  json header;
  Bytes data;
};

Parts split(const Bytes& file) {
  uint64_t n = 0;
  std::memcpy(&n, file.data(), 8);
  Parts p;
  p.header = json::parse(file.begin() + 8, file.begin() + 8 + long(n));
  p.data.assign(file.begin() + 8 + long(n), file.end());
  return p;
}

Bytes with_length(Bytes file, uint64_t n) {
  std::memcpy(file.data(), &n, 8);
  return file;
}

Bytes join_text(std::string text, const Bytes& data) {
  text.append((8 - text.size() % 8) % 8, ' ');
  Bytes out(8);
  out.insert(out.end(), text.begin(), text.end());
  out.insert(out.end(), data.begin(), data.end());
  return with_length(out, text.size());
}

Bytes join(const Parts& p) { return join_text(p.header.dump(), p.data); }

Bytes edit(const std::string& stem, const std::function<void(Parts&)>& change) {
  Parts p = split(fixture(stem));
  change(p);
  return join(p);
}

// Metadata values such as config and vocabularies are JSON texts inside the header.
Bytes edit_meta(const std::string& stem, const std::string& key,
                const std::function<void(json&)>& change) {
  return edit(stem, [&](Parts& p) {
    json value = json::parse(p.header["__metadata__"][key].get<std::string>());
    change(value);
    p.header["__metadata__"][key] = value.dump();
  });
}

// Overwrites one f32 element of a tensor in the data buffer.
Bytes put_f32(const std::string& stem, const std::string& name, size_t element, float value) {
  return edit(stem, [&](Parts& p) {
    const size_t at = p.header[name]["data_offsets"][0].get<size_t>() + 4 * element;
    std::memcpy(p.data.data() + at, &value, 4);
  });
}

Bytes truncated(const std::string& stem, size_t size) {
  const Bytes& f = fixture(stem);
  return Bytes(f.begin(), f.begin() + long(size));
}

uint64_t stored_header_length(const std::string& stem) {
  uint64_t n = 0;
  if (fixture(stem).size() >= 8) std::memcpy(&n, fixture(stem).data(), 8);
  return n;
}

// The test's own map from file names to Weights fields, written apart from the loader's.
void find_field(const Weights& w, const std::string& name, const Matrix** m,
                const std::vector<float>** v) {
  const std::map<std::string, const Matrix*> matrices = {{"src_emb", &w.src_emb},
                                                         {"tgt_emb", &w.tgt_emb},
                                                         {"enc.fwd.W_ih", &w.enc_fwd.W_ih},
                                                         {"enc.fwd.W_hh", &w.enc_fwd.W_hh},
                                                         {"enc.bwd.W_ih", &w.enc_bwd.W_ih},
                                                         {"enc.bwd.W_hh", &w.enc_bwd.W_hh},
                                                         {"dec.init.W", &w.init_W},
                                                         {"att.W", &w.att_W},
                                                         {"att.U", &w.att_U},
                                                         {"dec.gru.W_ih", &w.dec_gru.W_ih},
                                                         {"dec.gru.W_hh", &w.dec_gru.W_hh},
                                                         {"dec.readout.W", &w.readout_W}};
  const std::map<std::string, const std::vector<float>*> vectors = {
      {"enc.fwd.b_ih", &w.enc_fwd.b_ih}, {"enc.fwd.b_hh", &w.enc_fwd.b_hh},
      {"enc.bwd.b_ih", &w.enc_bwd.b_ih}, {"enc.bwd.b_hh", &w.enc_bwd.b_hh},
      {"dec.init.b", &w.init_b},         {"att.v", &w.att_v},
      {"dec.gru.b_ih", &w.dec_gru.b_ih}, {"dec.gru.b_hh", &w.dec_gru.b_hh},
      {"dec.readout.b", &w.readout_b},   {"dec.out.b", &w.out_b}};
  *m = matrices.count(name) ? matrices.at(name) : nullptr;
  *v = vectors.count(name) ? vectors.at(name) : nullptr;
}

template <typename T>
std::vector<T> raw_values(const Parts& p, const json& entry) {
  const size_t begin = entry["data_offsets"][0], end = entry["data_offsets"][1];
  std::vector<T> out((end - begin) / sizeof(T));
  std::memcpy(out.data(), p.data.data() + begin, end - begin);
  return out;
}

// Every tensor of the file, re-read here, equals what the loader put in Weights.
void expect_same_tensors(const Bytes& file, const ModelData& md) {
  const Parts p = split(file);
  for (const auto& item : p.header.items()) {
    const std::string& name = item.key();
    if (name == "__metadata__") continue;
    SCOPED_TRACE(name);
    const json& e = item.value();
    const bool is_scale = name.size() > 6 && name.compare(name.size() - 6, 6, ".scale") == 0;
    const Matrix* m;
    const std::vector<float>* v;
    find_field(md.weights, is_scale ? name.substr(0, name.size() - 6) : name, &m, &v);
    ASSERT_TRUE(m || v);
    if (is_scale) {
      EXPECT_EQ(m->scale, raw_values<float>(p, e));
    } else if (v) {
      EXPECT_EQ(*v, raw_values<float>(p, e));
    } else {
      EXPECT_EQ(m->rows, e["shape"][0].get<size_t>());
      EXPECT_EQ(m->cols, e["shape"][1].get<size_t>());
      if (e["dtype"] == "I8") {
        EXPECT_EQ(m->i8, raw_values<int8_t>(p, e));
        EXPECT_TRUE(m->f32.empty());
      } else {
        EXPECT_EQ(m->f32, raw_values<float>(p, e));
        EXPECT_TRUE(m->i8.empty() && m->scale.empty());
      }
    }
  }
}

struct Result {
  bool ok = false;
  ModelData md;
  std::string error;
};

Result load(const Bytes& file) {
  Result r;
  r.ok = load_model(file.data(), file.size(), &r.md, &r.error);
  return r;
}

TEST(ModelFile, TinyFixturesLoadExactly) {
  for (const char* stem :
       {"tiny-additive-f32", "tiny-additive-int8", "tiny-scaled_dot-f32", "tiny-scaled_dot-int8"}) {
    SCOPED_TRACE(stem);
    const Result r = load(fixture(stem));
    ASSERT_TRUE(r.ok) << r.error;
    const Config& c = r.md.config;
    const bool additive = std::string(stem).find("additive") != std::string::npos;
    const bool int8 = std::string(stem).find("int8") != std::string::npos;
    EXPECT_EQ(c.src_lang + ">" + c.tgt_lang, "en>fr");
    EXPECT_EQ(c.scoring, additive ? Scoring::Additive : Scoring::ScaledDot);
    EXPECT_EQ(c.dtype, int8 ? DType::Int8 : DType::F32);
    const std::vector<int> dims = {c.emb,       c.enc_hidden, c.dec_hidden,  c.attn,       c.maxout,
                                   c.src_vocab, c.tgt_vocab,  c.max_src_len, c.max_tgt_len};
    EXPECT_EQ(dims, (std::vector<int>{8, 12, 10, 6, 2, 45, 53, 64, 40}));
    ASSERT_EQ(r.md.src_vocab.size(), 45u);
    ASSERT_EQ(r.md.tgt_vocab.size(), 53u);
    EXPECT_EQ(r.md.src_vocab[3], "</s>");
    EXPECT_EQ(r.md.src_vocab[4], "the");
    EXPECT_EQ(r.md.tgt_vocab[17], "mange");
    EXPECT_EQ(r.md.src_names, (std::vector<std::string>{"I", "Tom", "Paris"}));
    EXPECT_EQ(r.md.tgt_names, (std::vector<std::string>{"Tom", "Paris"}));
    EXPECT_EQ(r.md.file_bytes, fixture(stem).size());
    // Python: sum(t.size for non-scale tensors) = 4769 additive, 4763 scaled_dot (no att.v).
    EXPECT_EQ(r.md.num_params, additive ? 4769u : 4763u);
    EXPECT_EQ(r.md.weights.att_v.size(), additive ? 6u : 0u);
    EXPECT_EQ(r.md.weights.readout_W.rows, 16u);
    EXPECT_EQ(r.md.weights.readout_W.cols, 42u);
    EXPECT_EQ(r.md.weights.src_emb.is_int8(), int8);
    expect_same_tensors(fixture(stem), r.md);
  }
}

// An IEEE half, the textbook way (in double), for the q4 scales.
double half_value(uint16_t h) {
  const int e = (h >> 10) & 0x1F, m = h & 0x3FF;
  const double mag = e == 0 ? std::ldexp(m, -24) : std::ldexp(1.0 + m / 1024.0, e - 15);
  return h & 0x8000 ? -mag : mag;
}

TEST(ModelFile, Q4FixtureLoadsExactly) {
  const Result r = load(fixture("tiny16-additive-cgru-q4"));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.md.config.dtype, DType::Q4);
  const Parts p = split(fixture("tiny16-additive-cgru-q4"));
  const Weights& w = r.md.weights;
  const std::map<std::string, const Matrix*> matrices = {
      {"src_emb", &w.src_emb}, {"tgt_emb", &w.tgt_emb}, {"dec.gru1.W_ih", &w.dec_gru1.W_ih},
      {"dec.gru2.W_hh", &w.dec_gru2.W_hh}, {"dec.readout.W", &w.readout_W}, {"att.U", &w.att_U}};
  for (const auto& [name, m] : matrices) {
    SCOPED_TRACE(name);
    const json& codes = p.header[name];
    EXPECT_EQ(codes["dtype"], "U8");
    EXPECT_EQ(m->rows, codes["shape"][0].get<size_t>());
    EXPECT_EQ(m->cols, 2 * codes["shape"][1].get<size_t>());
    EXPECT_TRUE(m->is_q4() && !m->is_int8() && m->f32.empty());
    EXPECT_EQ(m->q4, raw_values<uint8_t>(p, codes));
    const std::vector<uint16_t> halves = raw_values<uint16_t>(p, p.header[name + ".scale"]);
    ASSERT_EQ(m->scale.size(), m->rows * m->cols / 16);
    ASSERT_EQ(halves.size(), m->scale.size());
    for (size_t i = 0; i < halves.size(); i++)
      ASSERT_EQ(double(m->scale[i]), half_value(halves[i])) << "scale " << i;
  }
  EXPECT_EQ(w.att_v, raw_values<float>(p, p.header["att.v"]));  // vectors stay f32
}


TEST(ModelFile, ValuesMatchPythonReader) {
  // Values printed by scripts/nmt/safetensors_io.load (numpy float32 repr round-trips exactly).
  const Result f = load(fixture("tiny-additive-f32"));
  ASSERT_TRUE(f.ok) << f.error;
  EXPECT_EQ(f.md.weights.src_emb.f32[0], -0.34616065f);
  EXPECT_EQ(f.md.weights.src_emb.f32[44 * 8 + 7], 0.39989313f);
  EXPECT_EQ(f.md.weights.out_b[52], 0.3733077f);
  EXPECT_EQ(f.md.weights.att_v[5], 0.013521119f);
  const Result q = load(fixture("tiny-scaled_dot-int8"));
  ASSERT_TRUE(q.ok) << q.error;
  EXPECT_EQ(q.md.weights.tgt_emb.i8[3 * 8 + 5], -82);
  EXPECT_EQ(q.md.weights.tgt_emb.i8[52 * 8 + 0], -44);
  EXPECT_EQ(q.md.weights.att_U.scale[0], 0.010136721f);
  EXPECT_EQ(q.md.weights.readout_W.scale[15], 0.012741815f);
  EXPECT_EQ(q.md.weights.readout_W.i8[15 * 42 + 41], 2);
}

TEST(ModelFile, UnalignedBufferAndFreedAfterwards) {
  ModelData md;
  std::string error;
  {
    Bytes shifted(1, 0);  // the file starts at an odd address
    const Bytes& f = fixture("tiny-additive-f32");
    shifted.insert(shifted.end(), f.begin(), f.end());
    ASSERT_TRUE(load_model(shifted.data() + 1, f.size(), &md, &error)) << error;
  }  // the buffer is gone; the weights must not point into it (ASan would say so)
  EXPECT_EQ(md.weights.src_emb.f32[0], -0.34616065f);
  expect_same_tensors(fixture("tiny-additive-f32"), md);
}

TEST(ModelFile, FailureLeavesOutputAloneAndAcceptsNullError) {
  ModelData md;
  md.file_bytes = 123;
  std::string error;
  EXPECT_FALSE(load_model(nullptr, 0, &md, &error));
  EXPECT_EQ(error, "file is too short (0 bytes) to be a model");
  const Bytes bad = put_f32("tiny-additive-f32", "att.v", 0, NAN);
  EXPECT_FALSE(load_model(bad.data(), bad.size(), &md, nullptr));
  EXPECT_EQ(md.file_bytes, 123u);
}

// ---- broken files: each must fail with a message naming the problem ----

struct BadCase {
  const char* name;
  std::function<Bytes()> make;
  std::string expected;  // a substring of the error
};

const char* kF32 = "tiny-additive-f32";
const char* kI8 = "tiny-additive-int8";
const char* kNone = "tiny-none-f32";
const float kInf = std::numeric_limits<float>::infinity();

// Short edits for the table below, of the additive f32 fixture unless a stem is given. A null
// value removes the field.
void set_or_erase(json& object, const char* key, const json& value) {
  if (value.is_null())
    object.erase(key);
  else
    object[key] = value;
}
Bytes config(const char* field, const json& value) {
  return edit_meta(kF32, "config", [&](json& c) { set_or_erase(c, field, value); });
}
Bytes meta(const char* key, const json& value) {
  return edit(kF32, [&](Parts& p) { set_or_erase(p.header["__metadata__"], key, value); });
}
Bytes token(const char* key, size_t id, const json& value) {
  return edit_meta(kF32, key, [&](json& v) { v[id] = value; });
}
Bytes without(const char* key, const char* in = nullptr) {  // in: "__metadata__" or top level
  return edit(kF32, [&](Parts& p) { (in ? p.header[in] : p.header).erase(key); });
}
// field == nullptr: the value replaces the whole entry.
Bytes tensor(const char* name, const char* field, const json& value, const char* stem = kF32) {
  return edit(stem, [&](Parts& p) {
    if (field)
      set_or_erase(p.header[name], field, value);
    else
      p.header[name] = value;
  });
}
const char* kQ4 = "tiny16-additive-cgru-q4";
// The q4 fixture with the two bytes of tensor name's first scale (an f16) set to lo, hi.
Bytes q4_scale(const char* name, uint8_t lo, uint8_t hi) {
  return edit(kQ4, [&](Parts& p) {
    const uint64_t at = p.header[name]["data_offsets"][0].get<uint64_t>();
    p.data[at] = lo;
    p.data[at + 1] = hi;
  });
}
const char* kTf = "tiny-transformer-f32";
const char* kTfI8 = "tiny-transformer-int8";
Bytes tconfig(const char* field, const json& value) {
  return edit_meta(kTf, "config", [&](json& c) { set_or_erase(c, field, value); });
}
Bytes offsets(const char* name, const json& begin, const json& end) {
  return tensor(name, "data_offsets", {begin, end});
}
Bytes shape(const char* name, uint64_t rows, uint64_t cols) {
  return tensor(name, "shape", {rows, cols});
}

std::vector<BadCase> bad_cases() {
  const size_t i8_size = fixture(kI8).size(), i8_header = stored_header_length(kI8);
  const std::string i8_total = std::to_string(i8_size);
  const uint64_t u64_max = ~uint64_t(0);
  return {
      // truncation at every section boundary, and lying header lengths
      {"Empty", [] { return Bytes(); }, "file is too short (0 bytes) to be a model"},
      {"CutInLength", [] { return truncated(kI8, 5); },
       "file is too short (5 bytes) to be a model"},
      {"CutInHeader", [] { return truncated(kI8, 108); },
       "header length " + std::to_string(i8_header) + " exceeds file size 108"},
      {"CutAtDataStart", [=] { return truncated(kI8, 8 + i8_header); },
       "tensor src_emb: data_offsets [6212,6572] exceed the data buffer (0 bytes)"},
      {"CutInFirstTensor", [=] { return truncated(kI8, 8 + i8_header + 10); },
       "tensor src_emb: data_offsets [6212,6572] exceed the data buffer (10 bytes)"},
      {"CutOneByteShort", [=] { return truncated(kI8, i8_size - 1); },
       "tensor tgt_emb: data_offsets [6572,6996] exceed the data buffer (6995 bytes)"},
      {"HeaderLengthZero", [] { return with_length(fixture(kI8), 0); }, "header length 0"},
      {"HeaderLengthTooLarge", [=] { return with_length(fixture(kI8), i8_size - 7); },
       "header length " + std::to_string(i8_size - 7) + " exceeds file size " + i8_total},
      {"HeaderLength2Pow63", [] { return with_length(fixture(kI8), uint64_t(1) << 63); },
       "header length 9223372036854775808 exceeds file size " + i8_total},
      {"HeaderLengthCutsJson", [=] { return with_length(fixture(kI8), i8_header - 100); },
       "header: not valid JSON"},
      {"HeaderOverLimit", [] { return with_length(Bytes((64 << 20) + 16), (64 << 20) + 8); },
       "header length 67108872 exceeds the limit of 67108864 bytes"},
      // the header as JSON
      {"HeaderNotJson", [] { return join_text("hello, world", {}); }, "header: not valid JSON"},
      {"HeaderJsonArray", [] { return join_text("[1,2,3]", {}); },
       "header is a JSON array, expected an object"},
      {"HeaderBadUtf8", [] { return join_text("{\"a\xff\":1}", {}); },
       "header is not valid UTF-8 (byte 0xff at offset 11)"},
      {"HeaderOverlongUtf8", [] { return join_text("{\"a\xc0\xaf\":1}", {}); },
       "header is not valid UTF-8 (byte 0xc0 at offset 11)"},
      {"HeaderSurrogateUtf8", [] { return join_text("{\"\xed\xa0\x80\":1}", {}); },
       "header is not valid UTF-8 (byte 0xed at offset 10)"},
      {"HeaderDeeplyNested", [] { return join_text(std::string(9999, '[') + "]", {}); },
       "header: JSON nested deeper than 16 levels"},
      {"HeaderTooManyValues", [] { return tensor("x", "y", std::vector<int>(20000, 0)); },
       "header: more than 10000 JSON values"},
      {"HeaderDuplicateKey", [] {
         Parts p = split(fixture(kF32));
         std::string text = p.header.dump();
         text.insert(1, "\"att.v\":{\"dtype\":\"F32\",\"shape\":[6],\"data_offsets\":[0,24]},");
         return join_text(text, p.data);
       }, "header: duplicate key \"att.v\""},
      // metadata
      {"MetadataMissing", [] { return without("__metadata__"); },
       "header: missing \"__metadata__\""},
      {"MetadataNotObject", [] { return tensor("__metadata__", nullptr, 1); },
       "__metadata__ is 1, expected a JSON object"},
      {"MetadataValueNotString", [] { return meta("format_version", 1); },
       "__metadata__: value of \"format_version\" is 1, expected a string"},
      {"FormatWrong", [] { return meta("format", "pt"); },
       "metadata: format \"pt\", expected \"bahdanau-live\""},
      {"FormatMissing", [] { return without("format", "__metadata__"); },
       "metadata: missing key \"format\""},
      {"FormatVersion2", [] { return meta("format_version", "2"); },
       "metadata: format_version \"2\", expected \"1\""},
      {"TokenizerVersion0", [] { return meta("tokenizer_version", "0"); },
       "metadata: tokenizer_version \"0\", expected \"1\" or \"2\" or \"3\""},
      {"TokenizerVersionMissing", [] { return meta("tokenizer_version", nullptr); },
       "metadata: missing key \"tokenizer_version\""},
      {"SourceLanguageZh", [] { return config("src_lang", "zh"); },
       "config: src_lang \"zh\", expected \"en\" or \"fr\""},
      {"TargetLanguageDe", [] { return config("tgt_lang", "de"); },
       "config: tgt_lang \"de\", expected \"en\", \"fr\" or \"zh\""},
      {"TargetZhWithTokenizer2", [] { return config("tgt_lang", "zh"); },
       "config: tgt_lang \"zh\" needs tokenizer_version \"3\" (the file has \"2\")"},
      // config
      {"ConfigNotJson", [] { return meta("config", "{emb: 8}"); }, "config: not valid JSON"},
      {"ConfigArray", [] { return meta("config", "[1,2]"); }, "config: [1,2] is not a JSON object"},
      {"ConfigMissingField", [] { return config("attn", nullptr); },
       "config: missing field \"attn\""},
      {"ConfigNegativeDim", [] { return config("dec_hidden", -10); },
       "config: dec_hidden = -10, expected 1..4096"},
      {"ConfigHugeDims", [] {  // emb * src_vocab would overflow 32 bits
         return edit_meta(kF32, "config", [](json& c) {
           c["emb"] = 2147483647;
           c["src_vocab"] = 1 << 20;
         });
       }, "config: emb = 2147483647, expected 1..4096"},
      {"ConfigHugeVocab", [=] { return config("tgt_vocab", u64_max); },
       "config: tgt_vocab = 18446744073709551615, expected 4..1000000"},
      {"ConfigFloatDim", [] { return config("emb", 8.0); },
       "config: field \"emb\" is 8.0, expected an integer"},
      {"ConfigBoolDim", [] { return config("attn", true); },
       "config: field \"attn\" is true, expected an integer"},
      {"ConfigMaxout3", [] { return config("maxout", 3); }, "config: maxout = 3, expected 2"},
      {"ConfigMaxTgtLen0", [] { return config("max_tgt_len", 0); },
       "config: max_tgt_len = 0, expected 1..1024"},
      {"ConfigBadScoring", [] { return config("scoring", "dot"); },
       "config: scoring \"dot\", expected \"additive\", \"scaled_dot\" or \"none\""},
      // a model without attention has no attention width and no att.* tensors
      {"NoneWithAttnWidth", [] { return config("scoring", "none"); },
       "config: attn = 6, expected 0"},
      {"AttentionWithoutWidth",
       [] { return edit_meta(kNone, "config", [](json& c) { c["scoring"] = "additive"; }); },
       "config: attn = 0, expected 1..4096"},
      {"AttWInNone",
       [] { return tensor("att.W", nullptr, {{"dtype", "F32"}, {"shape", {6, 10}},
                                            {"data_offsets", {0, 240}}}, kNone); },
       "tensor att.W: not allowed in a model without attention"},
      {"GuidanceUnknown", [] { return config("attention_guidance", "gold"); },
       "config: attention_guidance \"gold\", expected \"none\" or \"ibm1-diag\""},
      {"GuidanceNotAString", [] { return config("attention_guidance", 1); },
       "config: field \"attention_guidance\" is 1, expected a string"},
      {"GuidanceWithoutAttention",
       [] { return edit_meta(kNone, "config", [](json& c) { c["attention_guidance"] = "ibm1-diag"; }); },
       "config: attention_guidance \"ibm1-diag\" on a model without attention"},
      {"ConfigBadDtype", [] { return config("dtype", "f16"); },
       "config: dtype \"f16\", expected \"f32\", \"int8\" or \"q4\""},
      // 4-bit files: U8 codes, F16 scales per group of 16, widths in multiples of 16
      {"Q4ScaleAsF32", [] { return tensor("att.W.scale", "dtype", "F32", kQ4); },
       "tensor att.W.scale: dtype \"F32\", expected \"F16\""},
      {"Q4CodesAsI8", [] { return tensor("att.U", "dtype", "I8", kQ4); },
       "tensor att.U: dtype \"I8\", expected \"U8\""},
      {"Q4CodesUnpacked", [] { return tensor("att.U", "shape", {16, 32}, kQ4); },
       "tensor att.U: shape [16,32], expected [16,16]"},
      {"Q4ScaleRowShape", [] { return tensor("att.U.scale", "shape", {16}, kQ4); },
       "tensor att.U.scale: shape [16], expected [16,2]"},
      {"Q4ScaleZero", [] { return q4_scale("dec.init.W.scale", 0x00, 0x00); },
       "tensor dec.init.W.scale: scale 0 at element 0, scales must be > 0"},
      {"Q4ScaleNegative", [] { return q4_scale("src_emb.scale", 0x00, 0xBC); },
       "tensor src_emb.scale: scale -1 at element 0, scales must be > 0"},
      {"Q4ScaleNaN", [] { return q4_scale("tgt_emb.scale", 0x00, 0x7E); },
       "tensor tgt_emb.scale: contains NaN or Inf at element 0"},
      {"Q4ScaleInf", [] { return q4_scale("tgt_emb.scale", 0x00, 0x7C); },
       "tensor tgt_emb.scale: contains NaN or Inf at element 0"},
      {"Q4Int8File", [] { return edit_meta(kI8, "config", [](json& c) { c["dtype"] = "q4"; }); },
       "tensor src_emb: a q4 model needs widths that are multiples of 16, and it has 8 columns"},
      {"Q4ConfigOnInt8Tensors",
       [] { return edit_meta(kQ4, "config", [](json& c) { c["dtype"] = "int8"; }); },
       "dtype \"U8\", expected \"I8\""},
      {"ConfigSameLanguages", [] { return config("tgt_lang", "en"); },
       "config: src_lang and tgt_lang are both \"en\""},
      // vocabularies and names
      {"VocabSizeMismatch", [] { return config("src_vocab", 46); },
       "src_vocab: 45 tokens, config says src_vocab = 46"},
      {"VocabBadSpecial", [] { return token("tgt_vocab", 2, "<bos>"); },
       "tgt_vocab: token 2 is \"<bos>\", expected \"<s>\""},
      {"VocabEmptyToken", [] { return token("src_vocab", 7, ""); }, "src_vocab: token 7 is empty"},
      {"VocabNonString", [] { return token("src_vocab", 5, 5); },
       "src_vocab: token 5 is 5, expected a string"},
      {"VocabRepeat", [] { return token("src_vocab", 7, "cat"); },
       "src_vocab: token 7 \"cat\" repeats token 6"},
      {"VocabLoneSurrogate", [] { return meta("src_vocab", "[\"\\ud800\"]"); },
       "src_vocab: not valid JSON"},
      {"VocabTooManyValues", [] { return meta("src_vocab", json(std::vector<int>(999)).dump()); },
       "src_vocab: more than 106 JSON values"},
      {"VocabTooLong", [] { return token("src_vocab", 45, "zzz"); },  // under the value limit
       "src_vocab: 46 tokens, config says src_vocab = 45"},
      {"NamesNotArray", [] { return meta("src_names", "{\"a\":1}"); },
       "src_names: {\"a\":1} is not a JSON array"},
      {"NamesMissing", [] { return without("tgt_names", "__metadata__"); },
       "metadata: missing key \"tgt_names\""},
      // the tensor table
      {"MissingTensor", [] { return without("dec.out.b"); }, "missing tensor dec.out.b"},
      {"ExtraTensor", [] { return tensor("extra", "dtype", "F32"); }, "unknown tensor \"extra\""},
      {"ScaleInF32File", [] { return tensor("src_emb.scale", "dtype", "F32"); },
       "unknown tensor \"src_emb.scale\""},
      {"AttVInScaledDot", [] { return tensor("att.v", "dtype", "F32", "tiny-scaled_dot-f32"); },
       "tensor att.v: not allowed in a scaled_dot model"},
      {"WrongDtypeInt8", [] { return tensor("att.W", "dtype", "F32", kI8); },
       "tensor att.W: dtype \"F32\", expected \"I8\""},
      {"F32FileInt8Config", [] { return config("dtype", "int8"); },
       "tensor src_emb: dtype \"F32\", expected \"I8\""},
      {"WrongShape", [] { return shape("dec.readout.W", 512, 896); },
       "tensor dec.readout.W: shape [512,896], expected [16,42]"},
      {"WrongRank", [] { return shape("att.v", 6, 1); }, "tensor att.v: shape [6,1], expected [6]"},
      {"HugeShape", [] { return shape("src_emb", uint64_t(1) << 62, uint64_t(1) << 62); },
       "tensor src_emb: shape [4611686018427387904,4611686018427387904], expected [45,8]"},
      {"EntryNotObject", [] { return tensor("att.W", nullptr, 3); },
       "tensor att.W: entry is 3, expected a JSON object"},
      {"EntryMissingOffsets", [] { return tensor("att.W", "data_offsets", nullptr); },
       "tensor att.W: missing \"data_offsets\""},
      // data_offsets against each other and the data buffer
      {"OffsetsNegative", [] { return offsets("dec.out.b", -4, 208); },
       "tensor dec.out.b: data_offsets [-4,208], expected two non-negative integers"},
      {"OffsetsOverlap", [] { return offsets("att.v", 552, 576); },
       "tensor att.v: data_offsets [552,576] overlap tensor att.U"},
      {"OffsetsOutOfRange", [] { return offsets("dec.out.b", 6640, 99999); },
       "tensor dec.out.b: data_offsets [6640,99999] exceed the data buffer (19076 bytes)"},
      {"OffsetsHuge", [=] { return offsets("dec.out.b", u64_max - 211, u64_max); },  // size right
       "data_offsets [18446744073709551404,18446744073709551615] exceed the data buffer"},
      {"OffsetsBeginAfterEnd", [] { return offsets("dec.out.b", 6852, 6640); },
       "tensor dec.out.b: data_offsets [6852,6640] begin after end"},
      {"OffsetsWrongSize", [] { return offsets("dec.out.b", 6640, 6856); },
       "tensor dec.out.b: data_offsets [6640,6856] hold 216 bytes, expected 212"},
      {"HoleInData", [] {
         return edit(kF32, [](Parts& p) {
           p.header["tgt_emb"]["data_offsets"] = {17384, 19080};
           p.data.insert(p.data.begin() + 17380, 4, 0);
         });
       }, "data buffer: bytes [17380,17384] belong to no tensor"},
      {"TrailingBytes",
       [] { return edit(kF32, [](Parts& p) { p.data.resize(p.data.size() + 8); }); },
       "data buffer: 8 trailing bytes after the last tensor"},
      // values
      {"NanWeight", [] { return put_f32(kF32, "src_emb", 17, NAN); },
       "tensor src_emb: contains NaN or Inf at element 17"},
      {"InfBias", [] { return put_f32(kI8, "dec.out.b", 52, -kInf); },
       "tensor dec.out.b: contains NaN or Inf at element 52"},
      {"InfScale", [] { return put_f32(kI8, "att.U.scale", 3, kInf); },
       "tensor att.U.scale: contains NaN or Inf at element 3"},
      {"ZeroScale", [] { return put_f32(kI8, "tgt_emb.scale", 2, 0.0f); },
       "tensor tgt_emb.scale: scale 0 at row 2, scales must be > 0"},
      {"NegativeScale", [] { return put_f32(kI8, "src_emb.scale", 0, -0.5f); },
       "tensor src_emb.scale: scale -0.5 at row 0, scales must be > 0"},
      // the Transformer: its config, and its tensor table against that config
      {"ArchUnknown", [] { return tconfig("arch", "lstm"); },
       "config: arch \"lstm\", expected \"rnn\" or \"transformer\""},
      {"ArchRnnReadsTransformerAsRnn", [] { return tconfig("arch", "rnn"); },
       "config: missing field \"enc_hidden\""},
      {"TransformerGuided", [] { return tconfig("attention_guidance", "ibm1-diag"); },
       "config: attention_guidance \"ibm1-diag\", expected \"none\""},
      {"TransformerAdditive", [] { return tconfig("scoring", "additive"); },
       "config: scoring \"additive\", expected \"scaled_dot\""},
      {"TransformerNoHeads", [] { return tconfig("heads", nullptr); },
       "config: missing field \"heads\""},
      {"TransformerHeadsSplitNothing", [] { return tconfig("heads", 5); },
       "config: d_model = 12 is not a multiple of heads = 5"},
      {"TransformerZeroLayers", [] { return tconfig("enc_layers", 0); },
       "config: enc_layers = 0, expected 1..24"},
      {"TransformerHugeFfn", [] { return tconfig("ffn", 1 << 20); },
       "config: ffn = 1048576, expected 1..16384"},
      {"TransformerMoreLayersThanTensors", [] { return tconfig("dec_layers", 3); },
       "missing tensor dec.2.ln1.g"},
      {"TransformerWiderFfnThanTensors", [] { return tconfig("ffn", 17); },
       "tensor enc.0.ff1.W: shape [16,12], expected [17,12]"},
      {"TransformerMissingCross",
       [] { return edit(kTf, [](Parts& p) { p.header.erase("dec.1.cross.Wv"); }); },
       "missing tensor dec.1.cross.Wv"},
      {"TransformerRnnTensor", [] { return tensor("att.W", nullptr, json::object(), kTf); },
       "tensor att.W: not allowed in a transformer model"},
      {"TransformerExtraLayer", [] { return tensor("enc.2.ln1.g", nullptr, json::object(), kTf); },
       "unknown tensor \"enc.2.ln1.g\""},
      {"TransformerCutInData", [] { return truncated(kTf, fixture(kTf).size() - 3); },
       "exceed the data buffer"},
      {"TransformerNanGain", [] { return put_f32(kTf, "dec.ln.g", 4, NAN); },
       "tensor dec.ln.g: contains NaN or Inf at element 4"},
      {"TransformerZeroScale", [] { return put_f32(kTfI8, "dec.0.ff2.W.scale", 1, 0.0f); },
       "tensor dec.0.ff2.W.scale: scale 0 at row 1, scales must be > 0"},
  };
}

// The Transformer's shapes come from its own config keys; the RNN's stay 0 (and the reverse).
TEST(ModelFile, TransformerFixturesLoadExactly) {
  for (const char* stem : {kTf, kTfI8}) {
    SCOPED_TRACE(stem);
    const Result r = load(fixture(stem));
    ASSERT_TRUE(r.ok) << r.error;
    const Config& c = r.md.config;
    EXPECT_EQ(c.arch, Arch::Transformer);
    EXPECT_EQ(c.scoring, Scoring::ScaledDot);
    const std::vector<int> dims = {c.emb,        c.d_model,    c.heads,     c.ffn,
                                   c.enc_layers, c.dec_layers, c.enc_hidden, c.attn};
    EXPECT_EQ(dims, (std::vector<int>{8, 12, 3, 16, 2, 2, 0, 0}));
    const Weights& w = r.md.weights;
    ASSERT_EQ(w.enc.size(), 2u);
    ASSERT_EQ(w.dec.size(), 2u);
    EXPECT_EQ(w.dec[1].cross.Wk.rows, 12u);
    EXPECT_EQ(w.enc[0].ff.W1.rows, 16u);
    EXPECT_EQ(w.enc[0].ff.W2.cols, 16u);
    EXPECT_EQ(w.src_in.cols, 8u);
    EXPECT_EQ(w.out_proj.rows, 8u);
    EXPECT_EQ(w.dec_ln.g.size(), 12u);
    EXPECT_EQ(w.dec[1].cross.Wo.is_int8(), std::string(stem) == kTfI8);
    // Every tensor of the file counted once: embeddings, in/out projections, layers, norms.
    const size_t d = 12, E = 8, F = 16, attn = 4 * (d * d + d), ff = 2 * F * d + F + d;
    const size_t expected = (45 + 53) * E + 3 * d * E + 53 + 2 * 2 * d +
                            2 * (2 * 2 * d + attn + ff) + 2 * (3 * 2 * d + 2 * attn + ff);
    EXPECT_EQ(r.md.num_params, expected);
  }
  // Files without "arch" stay RNN, as every file written before the Transformer.
  const Result rnn = load(fixture(kF32));
  ASSERT_TRUE(rnn.ok) << rnn.error;
  EXPECT_EQ(rnn.md.config.arch, Arch::Rnn);
  EXPECT_EQ(rnn.md.config.d_model, 0);
  EXPECT_TRUE(rnn.md.weights.enc.empty());
}

// The smallest f16 scale, a subnormal, is a valid scale: 2^-24 exactly.
TEST(ModelFile, Q4SubnormalScaleLoads) {
  const Result r = load(q4_scale("src_emb.scale", 0x01, 0x00));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.md.weights.src_emb.scale[0], std::ldexp(1.0f, -24));
}

class BadModel : public testing::TestWithParam<BadCase> {};

TEST_P(BadModel, FailsWithMessage) {
  const Result r = load(GetParam().make());
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find(GetParam().expected), std::string::npos)
      << "error:    " << r.error << "\nexpected: " << GetParam().expected;
}

INSTANTIATE_TEST_SUITE_P(ModelFile, BadModel, testing::ValuesIn(bad_cases()),
                         [](const testing::TestParamInfo<BadCase>& info) {
                           return info.param.name;
                         });

// Random damage must end in a load or a message, never a crash or an out-of-bounds read.
TEST(ModelFile, RandomDamageNeverCrashes) {
  std::mt19937 rng(20240517);
  const char* stems[] = {kF32, kI8, "tiny-scaled_dot-f32", "tiny-scaled_dot-int8", kNone,
                         "tiny-none-cgru-int8", kTf, kTfI8, kQ4};
  const int kinds = int(sizeof stems / sizeof stems[0]);
  int loaded = 0, failed = 0;
  for (int iter = 0; iter < 2400; iter++) {
    Bytes file = fixture(stems[iter % kinds]);
    const size_t header_end = 8 + stored_header_length(stems[iter % kinds]);
    switch (rng() % 4) {
      case 0:  // a few bytes anywhere
        for (int k = 1 + rng() % 4; k > 0; k--)
          file[rng() % file.size()] ^= uint8_t(1 + rng() % 255);
        break;
      case 1:  // a few bytes in the header, where the parser works hardest
        for (int k = 1 + rng() % 4; k > 0; k--)
          file[8 + rng() % (header_end - 8)] ^= uint8_t(1 << rng() % 8);
        break;
      case 2:  // the length prefix
        file[rng() % 8] ^= uint8_t(1 + rng() % 255);
        break;
      default:  // truncation
        file.resize(rng() % file.size());
        break;
    }
    const Result r = load(file);
    if (r.ok) {
      loaded++;
    } else {
      failed++;
      EXPECT_FALSE(r.error.empty()) << "iteration " << iter;
    }
  }
  EXPECT_GT(loaded, 0);  // flips in int8 weights are still valid models
  EXPECT_GT(failed, 1000);
}

// How attention was trained is optional in the config: absent means plain training.
TEST(ModelFile, AttentionGuidanceIsReadAndDefaultsToPlain) {
  const Result plain = load(fixture(kF32));
  ASSERT_TRUE(plain.ok) << plain.error;
  EXPECT_EQ(plain.md.config.guidance, Guidance::Plain);
  for (const char* value : {"none", "ibm1-diag"}) {
    const Result r = load(config("attention_guidance", value));
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.md.config.guidance,
              std::string(value) == "none" ? Guidance::Plain : Guidance::Ibm1Diag);
  }
}

// parse_header is load_model's first half (tests/fuzz/header_fuzz.cpp fuzzes it alone): it
// reads the header and its metadata from a file whose tensors are cut off, and refuses what
// load_model refuses before the tensors, in the same words.
TEST(ModelFile, ParseHeaderReadsTheMetadataWithoutTheTensors) {
  const Bytes& f = fixture(kI8);
  const size_t header_end = 8 + stored_header_length(kI8);
  const Bytes cut(f.begin(), f.begin() + long(header_end));  // no data buffer
  json header;
  ModelData md, full;
  size_t n = 0;
  std::string error;
  ASSERT_TRUE(parse_header(cut.data(), cut.size(), &header, &md, &n, &error)) << error;
  EXPECT_EQ(8 + n, header_end);
  EXPECT_TRUE(header.contains("att.W"));
  EXPECT_EQ(md.src_vocab.size(), size_t(md.config.src_vocab));
  EXPECT_FALSE(load_model(cut.data(), cut.size(), &full, &error));  // the tensors are missing
  for (const Bytes& bad : {Bytes(f.begin(), f.begin() + 7), with_length(f, 0),
                           with_length(f, f.size()), with_length(f, 5)}) {
    std::string a, b;
    EXPECT_FALSE(parse_header(bad.data(), bad.size(), &header, &md, &n, &a));
    EXPECT_FALSE(load_model(bad.data(), bad.size(), &full, &b));
    EXPECT_EQ(a, b);
    EXPECT_FALSE(a.empty());
  }
}

// ---- the engine tokenizes with the model's own tokenizer_version ----

std::unique_ptr<Translator> translator(const Bytes& file) {
  std::string error;
  auto tr = Translator::load(file.data(), file.size(), LoadParams{}, &error);
  EXPECT_TRUE(tr) << error;
  return tr;
}

// The tiny fixture with its metadata's tokenizer_version (and, if given, tgt_lang) rewritten.
Bytes with_tokenizer(const char* version, const char* tgt_lang = nullptr) {
  return edit(kF32, [&](Parts& p) {
    json& m = p.header["__metadata__"];
    m["tokenizer_version"] = version;
    if (tgt_lang) {
      json c = json::parse(m["config"].get<std::string>());
      c["tgt_lang"] = tgt_lang;
      m["config"] = c.dump();
    }
  });
}

TEST(ModelFile, TokenizerVersionIsKept) {
  for (const char* v : {"1", "2", "3"}) {
    const Result r = load(with_tokenizer(v));
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.md.tokenizer_version, std::stoi(v));
  }
  EXPECT_EQ(load(fixture(kF32)).md.tokenizer_version, 2);  // what the fixtures are written with
}

// Full-width letters and digits and CJK ideographs: spec 2 keeps them as typed, in runs;
// spec 3 folds the full-width ones to ASCII and makes each ideograph a token. A version-2
// model (the shipped en-fr ones) must read them as spec 2 does, a version-3 copy as spec 3.
TEST(ModelFile, EngineTokenizesWithTheModelsTokenizerVersion) {
  const std::string text = "Tom \uFF34\uFF4F\uFF4D \u4F60\u597D\u3002 \uFF11\uFF12 ok";
  using Strings = std::vector<std::string>;
  const Strings spec2 = {"Tom", "\uFF34\uFF4F\uFF4D", "\u4F60\u597D", "\u3002",
                         "\uFF11\uFF12", "ok"};
  const Strings spec3 = {"Tom", "Tom", "\u4F60", "\u597D", "\u3002", "12", "ok"};
  for (const char* v : {"1", "2", "3"}) {
    SCOPED_TRACE(v);
    const bool v3 = std::string(v) == "3";
    const Bytes file = with_tokenizer(v);
    const Result r = load(file);
    ASSERT_TRUE(r.ok) << r.error;
    auto tr = translator(file);
    ASSERT_TRUE(tr);
    Strings src, tgt, direct;
    std::string error;
    ASSERT_TRUE(tr->tokenize_source(text, &src, &error)) << error;
    ASSERT_TRUE(tr->tokenize_target(text, &tgt, &error)) << error;
    EXPECT_EQ(src, v3 ? spec3 : spec2);
    // the same as a Tokenizer of that version built from the model's names and vocabulary
    const Tokenizer src_tok("en", r.md.src_names, r.md.src_vocab, std::stoi(v));
    const Tokenizer tgt_tok("fr", r.md.tgt_names, r.md.tgt_vocab, std::stoi(v));
    ASSERT_TRUE(src_tok.tokenize(text, &direct, &error)) << error;
    EXPECT_EQ(src, direct);
    ASSERT_TRUE(tgt_tok.tokenize(text, &direct, &error)) << error;
    EXPECT_EQ(tgt, direct);
    // translate() reads the same tokens (its columns end with </s>)
    Translation t;
    ASSERT_TRUE(tr->translate(text, TranslateParams{}, &t, &error)) << error;
    src.push_back("</s>");
    EXPECT_EQ(t.src_tokens, src);
  }
}

// A Chinese target (tokenizer_version 3): the engine detokenizes its output the Chinese way,
// with no spaces between ideographs. The tiny model's target vocabulary is rewritten to
// ideographs so that whatever it emits shows the difference.
TEST(ModelFile, ChineseTargetIsDetokenizedAsChinese) {
  const Bytes file = edit(kF32, [&](Parts& p) {
    json& m = p.header["__metadata__"];
    m["tokenizer_version"] = "3";
    json c = json::parse(m["config"].get<std::string>());
    c["tgt_lang"] = "zh";
    m["config"] = c.dump();
    json vocab = json::parse(m["tgt_vocab"].get<std::string>());
    for (size_t i = 4; i < vocab.size(); i++) {
      const uint32_t cp = 0x4E00 + uint32_t(i);  // three UTF-8 bytes
      vocab[i] = std::string{char(0xE0 | (cp >> 12)), char(0x80 | ((cp >> 6) & 0x3F)),
                             char(0x80 | (cp & 0x3F))};
    }
    m["tgt_vocab"] = vocab.dump();
    m["tgt_names"] = "[]";
  });
  const Result r = load(file);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.md.config.tgt_lang, "zh");
  auto tr = translator(file);
  ASSERT_TRUE(tr);
  EXPECT_EQ(tr->info().tgt_lang, "zh");
  const Tokenizer zh("zh", {}, r.md.tgt_vocab, 3);
  size_t multi = 0;
  for (const char* s : {"The black cat is sleeping.", "I see a red car.",
                        "They see a black and white cat in the house."}) {
    Translation t;
    std::string error;
    ASSERT_TRUE(tr->translate(s, TranslateParams{}, &t, &error)) << error;
    EXPECT_EQ(t.text, zh.detokenize(t.tgt_tokens));
    EXPECT_EQ(t.text.find(' '), std::string::npos) << t.text;
    multi += t.tgt_tokens.size() > 1;
  }
  EXPECT_GT(multi, 0u);  // some output has two ideographs side by side
  // and the target side tokenizes Chinese text as spec 3 does
  std::vector<std::string> tgt;
  std::string error;
  ASSERT_TRUE(tr->tokenize_target("\u4F60\u597D\uFF01", &tgt, &error)) << error;
  EXPECT_EQ(tgt, (std::vector<std::string>{"\u4F60", "\u597D", "\uFF01"}));
}

// Paragraphs split at 。！？ too, in a model of either tokenizer version.
TEST(ModelFile, SplitSentencesAtChineseSentenceEnds) {
  const std::string text = "Tom sleeps\u3002 The cat eats\uFF01 Is it red\uFF1F ok";
  for (const char* v : {"2", "3"}) {
    SCOPED_TRACE(v);
    auto tr = translator(with_tokenizer(v));
    ASSERT_TRUE(tr);
    std::vector<std::string> sentences;
    std::string error;
    ASSERT_TRUE(tr->split_sentences(text, &sentences, &error)) << error;
    EXPECT_EQ(sentences, (std::vector<std::string>{"Tom sleeps\u3002", "The cat eats\uFF01",
                                                   "Is it red\uFF1F", "ok"}));
  }
}

}  // namespace
}  // namespace bl
