// load_model: the tiny fixtures load exactly, value for value against the file re-read here;
// the broken files are model_file_broken_test.cpp's, the tokenizer versions
// model_file_tokenizer_test.cpp's (all three also run under ASan/UBSan).
#include "core/model_file.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "model_file_parts.h"

namespace bl {
namespace {

using namespace model_file_parts;

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

// How attention was trained is optional in the config: absent means plain training.
TEST(ModelFile, AttentionGuidanceIsReadAndDefaultsToPlain) {
  const Result plain = load(fixture(kF32));
  ASSERT_TRUE(plain.ok) << plain.error;
  EXPECT_EQ(plain.md.config.guidance, Guidance::Plain);
  for (const char* value : {"none", "ibm1-diag"}) {
    const Result r = load(
        edit_meta(kF32, "config", [&](json& c) { c["attention_guidance"] = value; }));
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

}  // namespace
}  // namespace bl
