// load_model on broken files: each must fail with a message naming the problem, and random
// damage must end in a load or a message, never a crash or an out-of-bounds read (this file
// also runs under ASan/UBSan). Most of it is one table: a broken file per row, with the words
// its error must hold, grouped by the part of the file it breaks.
#include "core/model_file.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <random>

#include "model_file_parts.h"

namespace bl {
namespace {

using namespace model_file_parts;

struct BadCase {
  const char* name;
  std::function<Bytes()> make;
  std::string expected;  // a substring of the error
};

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

}  // namespace
}  // namespace bl
