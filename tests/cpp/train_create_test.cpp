// Trainer::create (issue 25): a fresh model from a TrainConfig and a seed, initialised as
// PyTorch initialises the reference (src/core/train_init.h), whose snapshot is an ordinary
// model file; and every config error with its message.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <map>

#include "bahdanau.h"
#include "bahdanau_train.h"
#include "core/model_file.h"
#include "core/train_tensors.h"
#include "golden.h"

namespace {

// The vocabularies and names of the tiny fixture, so that a created model can translate.
bl::TrainConfig tiny_config(const std::string& decoder, const std::string& scoring) {
  auto bytes = golden::read_bytes(golden::path_of("tests/fixtures/tiny-additive-f32.safetensors"));
  bl::ModelData md;
  std::string err;
  EXPECT_TRUE(bl::load_model(bytes.data(), bytes.size(), &md, &err)) << err;
  bl::TrainConfig c;
  c.decoder = decoder, c.scoring = scoring;
  c.emb = 8, c.enc_hidden = 12, c.dec_hidden = 10, c.attn = scoring == "none" ? 0 : 6;
  c.max_src_len = 32, c.max_tgt_len = 40;
  c.src_vocab = md.src_vocab, c.tgt_vocab = md.tgt_vocab;
  c.src_names = md.src_names, c.tgt_names = md.tgt_names;
  return c;
}

std::vector<std::string> vocab(size_t n) {
  std::vector<std::string> v = {"<pad>", "<unk>", "<s>", "</s>"};
  while (v.size() < n) v.push_back("w" + std::to_string(v.size()));
  return v;
}

std::unique_ptr<bl::Trainer> create(const bl::TrainConfig& c, uint64_t seed) {
  std::string err;
  auto t = bl::Trainer::create(c, seed, {}, &err);
  EXPECT_TRUE(t) << err;
  return t;
}

const char* const kKinds[][2] = {{"paper", "additive"}, {"paper", "scaled_dot"},
                                 {"paper", "none"},     {"cgru", "additive"},
                                 {"cgru", "scaled_dot"}, {"cgru", "none"}};

TEST(TrainCreate, SameSeedSameModelOtherSeedAnother) {
  for (const auto& kind : kKinds) {
    const auto c = tiny_config(kind[0], kind[1]);
    auto a = create(c, 7), b = create(c, 7), other = create(c, 8);
    ASSERT_TRUE(a && b && other);
    EXPECT_EQ(a->snapshot(), b->snapshot()) << kind[0] << " " << kind[1];
    EXPECT_EQ(a->steps(), 0);
    bl::ModelData ma, mo;
    std::string err;
    const auto sa = a->snapshot(), so = other->snapshot();
    ASSERT_TRUE(bl::load_model(sa.data(), sa.size(), &ma, &err)) << err;
    ASSERT_TRUE(bl::load_model(so.data(), so.size(), &mo, &err)) << err;
    const auto ta = bl::named_tensors(ma.config, &ma.weights);
    const auto to = bl::named_tensors(mo.config, &mo.weights);
    ASSERT_EQ(ta.size(), to.size());
    for (size_t i = 0; i < ta.size(); i++) {
      if (ta[i].name == "dec.out.b") continue;  // zeros whatever the seed, as in PyTorch
      size_t same = 0;
      for (size_t k = 0; k < ta[i].size(); k++) same += ta[i].data[k] == to[i].data[k];
      // Embedding row 0 is zero in both; everything else is drawn afresh.
      EXPECT_LE(same, ta[i].cols) << ta[i].name << ": seeds 7 and 8 give the same values";
    }
  }
}

// Each tensor's values against the distribution PyTorch 1.13 draws the reference's from
// (scripts/nmt/model.py; nn.Linear, nn.GRU(Cell), nn.Embedding defaults): the bounds written
// out here, not taken from train_init.cpp. Mean and standard deviation within 5 standard
// errors of the distribution's, the largest |value| inside the bound and near it.
TEST(TrainCreate, InitialisationFollowsPyTorchsDistributions) {
  for (const auto& kind : kKinds) {
    bl::TrainConfig c;
    c.decoder = kind[0], c.scoring = kind[1];
    c.emb = 48, c.enc_hidden = 40, c.dec_hidden = 56, c.attn = c.scoring == "none" ? 0 : 24;
    c.src_vocab = vocab(300), c.tgt_vocab = vocab(400);
    auto t = create(c, 25);
    ASSERT_TRUE(t);
    const auto snap = t->snapshot();
    bl::ModelData md;
    std::string err;
    ASSERT_TRUE(bl::load_model(snap.data(), snap.size(), &md, &err)) << err;
    const double E = 48, H = 40, D = 56;
    const std::map<std::string, double> uniform = {
        {"enc.", 1 / std::sqrt(H)},          {"dec.gru", 1 / std::sqrt(D)},
        {"dec.init.", 1 / std::sqrt(H)},     {"att.W", 1 / std::sqrt(D)},
        {"att.U", 1 / std::sqrt(2 * H)},     {"att.v", 0.1},
        {"dec.readout.", 1 / std::sqrt(D + 2 * H + E)}};
    for (const bl::TensorRef& w : bl::named_tensors(md.config, &md.weights)) {
      const bool embedding = w.name == "src_emb" || w.name == "tgt_emb";
      const size_t skip = embedding ? w.cols : 0;  // row 0, <pad>
      for (size_t k = 0; k < skip; k++) ASSERT_EQ(w.data[k], 0.0f) << w.name << " row 0";
      double sum = 0, sq = 0, top = 0;
      const double n = double(w.size() - skip);
      for (size_t k = skip; k < w.size(); k++) {
        sum += w.data[k], sq += double(w.data[k]) * w.data[k];
        top = std::max(top, std::fabs(double(w.data[k])));
      }
      const double mean = sum / n, sd = std::sqrt(sq / n - mean * mean);
      if (w.name == "dec.out.b") {
        EXPECT_EQ(top, 0.0) << w.name << " starts at zero";
        continue;
      }
      double bound = 0;
      for (const auto& [prefix, b] : uniform)
        if (w.name.rfind(prefix, 0) == 0) bound = b;
      ASSERT_TRUE(embedding || bound > 0) << w.name << ": no expected distribution";
      // N(0, 1): sd of the mean 1/sqrt(n), of the sd 1/sqrt(2n). U(-b, b): sd b/sqrt(3), of the
      // mean b/sqrt(3n), of the sd about 0.45 b/sqrt(3n).
      const double want_sd = embedding ? 1.0 : bound / std::sqrt(3.0);
      const double se_mean = want_sd / std::sqrt(n);
      const double se_sd = (embedding ? 0.71 : 0.45) * want_sd / std::sqrt(n);
      EXPECT_NEAR(mean, 0.0, 5 * se_mean) << kind[0] << " " << kind[1] << " " << w.name;
      EXPECT_NEAR(sd, want_sd, 5 * se_sd) << kind[0] << " " << kind[1] << " " << w.name;
      if (!embedding) {
        EXPECT_LE(top, bound * (1 + 1e-6)) << w.name;
        if (n >= 100) {
          EXPECT_GE(top, bound * 0.9) << w.name;
        }
      } else {
        EXPECT_GT(top, 3.0) << w.name << ": N(0, 1) over this many values reaches past 3";
      }
    }
  }
}

// A created model is an ordinary f32 model file: Translator::load reads it, it translates, and
// a few Adam steps on one batch lower its loss there (it learns).
TEST(TrainCreate, SnapshotLoadsTranslatesAndLearns) {
  const std::vector<bl::TrainPair> batch = {{{13, 19, 22, 27, 36}, {18, 24, 27, 28}},
                                           {{4, 8, 6, 10, 11, 36}, {5, 9, 11, 15, 16}}};
  for (const auto& kind : kKinds) {
    const auto c = tiny_config(kind[0], kind[1]);
    bl::TrainParams p;
    p.lr = 1e-2f;
    std::string err;
    auto t = bl::Trainer::create(c, 3, p, &err);
    ASSERT_TRUE(t) << err;
    auto snap = t->snapshot();
    auto tr = bl::Translator::load(snap.data(), snap.size(), bl::LoadParams{false}, &err);
    ASSERT_TRUE(tr) << kind[0] << " " << kind[1] << ": " << err;
    const bl::ModelInfo info = tr->info();
    EXPECT_EQ(info.decoder, kind[0]);
    EXPECT_EQ(info.scoring, kind[1]);
    EXPECT_EQ(info.dtype, "f32");
    EXPECT_EQ(info.emb, 8);
    EXPECT_EQ(info.src_vocab, int(c.src_vocab.size()));
    bl::Translation out;
    ASSERT_TRUE(tr->translate("The black cat is sleeping.", {}, &out, &err)) << err;
    float first = 0, loss = 0;
    ASSERT_TRUE(t->step(batch, &first, &err)) << err;
    for (int k = 0; k < 30; k++) ASSERT_TRUE(t->step(batch, &loss, &err)) << err;
    EXPECT_LT(loss, 0.5f * first) << kind[0] << " " << kind[1];
    snap = t->snapshot();
    ASSERT_TRUE(bl::Translator::load(snap.data(), snap.size(), bl::LoadParams{false}, &err))
        << err;
  }
}

TEST(TrainCreate, EveryConfigErrorHasItsMessage) {
  using Edit = std::function<void(bl::TrainConfig*)>;
  const std::vector<std::pair<std::string, Edit>> cases = {
      {"src_lang \"de\"", [](bl::TrainConfig* c) { c->src_lang = "de"; }},
      {"both \"fr\"", [](bl::TrainConfig* c) { c->src_lang = "fr"; }},
      {"decoder \"lstm\"", [](bl::TrainConfig* c) { c->decoder = "lstm"; }},
      {"scoring \"dot\"", [](bl::TrainConfig* c) { c->scoring = "dot"; }},
      {"emb = 0, expected 1..1024", [](bl::TrainConfig* c) { c->emb = 0; }},
      {"enc_hidden = 1025", [](bl::TrainConfig* c) { c->enc_hidden = 1025; }},
      {"dec_hidden = -4", [](bl::TrainConfig* c) { c->dec_hidden = -4; }},
      {"attn = 0, expected 1..1024", [](bl::TrainConfig* c) { c->attn = 0; }},
      {"no attention width",
       [](bl::TrainConfig* c) { c->scoring = "none", c->attn = 6; }},
      {"maxout = 3, expected 2..2", [](bl::TrainConfig* c) { c->maxout = 3; }},
      {"max_src_len = 0", [](bl::TrainConfig* c) { c->max_src_len = 0; }},
      {"max_tgt_len = 5000", [](bl::TrainConfig* c) { c->max_tgt_len = 5000; }},
      {"src_vocab: 3 tokens, expected 4..65536",
       [](bl::TrainConfig* c) { c->src_vocab.resize(3); }},
      {"tgt_vocab: 65537 tokens", [](bl::TrainConfig* c) { c->tgt_vocab = vocab(65537); }},
      {"src_vocab: token 2 is \"<bos>\", expected \"<s>\"",
       [](bl::TrainConfig* c) { c->src_vocab[2] = "<bos>"; }},
      {"tgt_vocab: token 9 \"le\" repeats token 4",
       [](bl::TrainConfig* c) { c->tgt_vocab[9] = "le"; }},
      {"src_vocab: token 5 is empty", [](bl::TrainConfig* c) { c->src_vocab[5] = ""; }},
      {"token 6 holds a space", [](bl::TrainConfig* c) { c->src_vocab[6] = "a b"; }},
      {"token 7 is not valid UTF-8", [](bl::TrainConfig* c) { c->tgt_vocab[7] = "\xc3"; }},
      {"token 8 has 300 bytes", [](bl::TrainConfig* c) { c->tgt_vocab[8] = std::string(300, 'x'); }},
      {"src_names: name 0 is empty", [](bl::TrainConfig* c) { c->src_names[0] = ""; }},
      {"tgt_names: 65537 names", [](bl::TrainConfig* c) { c->tgt_names = vocab(65537); }},
      {"parameters, more than", [](bl::TrainConfig* c) {
         c->emb = 1024, c->src_vocab = vocab(65536), c->tgt_vocab = vocab(65536);
       }},
  };
  const bl::TrainConfig good = tiny_config("cgru", "additive");
  std::string err;
  ASSERT_TRUE(bl::check_train_config(good, &err)) << err;
  for (const auto& [want, edit] : cases) {
    bl::TrainConfig c = good;
    edit(&c);
    err.clear();
    EXPECT_FALSE(bl::check_train_config(c, &err)) << want;
    EXPECT_NE(err.find(want), std::string::npos) << "want \"" << want << "\", got: " << err;
    err.clear();
    EXPECT_FALSE(bl::Trainer::create(c, 1, {}, &err)) << want;
    EXPECT_NE(err.find(want), std::string::npos) << "create: " << err;
  }
  for (const auto& [want, edit] : std::vector<std::pair<std::string, std::function<void(
                                      bl::TrainParams*)>>>{
           {"dropout 1.000000 is out of range", [](bl::TrainParams* p) { p->dropout = 1; }},
           {"dropout -0.", [](bl::TrainParams* p) { p->dropout = -0.1f; }},
           {"label_smoothing nan", [](bl::TrainParams* p) { p->label_smoothing = NAN; }},
           {"lr", [](bl::TrainParams* p) { p->lr = 0; }},
           {"lr_decay_steps -1", [](bl::TrainParams* p) { p->lr_decay_steps = -1; }},
           {"lr_decay_steps nan", [](bl::TrainParams* p) { p->lr_decay_steps = NAN; }},
           {"lr_decay_steps inf", [](bl::TrainParams* p) { p->lr_decay_steps = INFINITY; }}}) {
    bl::TrainParams p;
    edit(&p);
    err.clear();
    EXPECT_FALSE(bl::Trainer::create(good, 1, p, &err)) << want;
    EXPECT_NE(err.find(want), std::string::npos) << "want \"" << want << "\", got: " << err;
  }
}

}  // namespace
