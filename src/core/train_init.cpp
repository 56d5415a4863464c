#include "core/train_init.h"

#include <algorithm>
#include <cmath>

#include "core/train_tensors.h"

namespace bl::train {

namespace {

void shape(Matrix* m, int rows, int cols) {
  m->rows = size_t(rows), m->cols = size_t(cols);
  m->f32.assign(m->rows * m->cols, 0.0f);
}

void shape(Gru* g, int in, int hidden) {
  shape(&g->W_ih, 3 * hidden, in);
  shape(&g->W_hh, 3 * hidden, hidden);
  g->b_ih.assign(size_t(3 * hidden), 0.0f);
  g->b_hh.assign(size_t(3 * hidden), 0.0f);
}

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

}  // namespace

void init_distribution(const Config& cfg, const std::string& name, bool* normal, double* bound) {
  const int E = cfg.emb, H = cfg.enc_hidden, D = cfg.dec_hidden;
  auto fan = [](int n) { return 1.0 / std::sqrt(double(n)); };
  *normal = name == "src_emb" || name == "tgt_emb";
  *bound = 0;
  if (starts_with(name, "enc.")) *bound = fan(H);  // nn.GRU: 1 / sqrt(hidden_size)
  else if (starts_with(name, "dec.gru")) *bound = fan(D);
  else if (starts_with(name, "dec.init.")) *bound = fan(H);
  else if (name == "att.W") *bound = fan(D);
  else if (name == "att.U") *bound = fan(2 * H);
  else if (name == "att.v") *bound = 0.1;
  else if (starts_with(name, "dec.readout.")) *bound = fan(D + 2 * H + E);
}

void init_weights(const Config& cfg, Rng* rng, Weights* w) {
  const int E = cfg.emb, H = cfg.enc_hidden, D = cfg.dec_hidden, A = cfg.attn;
  *w = Weights();
  shape(&w->src_emb, cfg.src_vocab, E);
  shape(&w->enc_fwd, E, H);
  shape(&w->enc_bwd, E, H);
  shape(&w->init_W, D, H);
  w->init_b.assign(size_t(D), 0.0f);
  if (cfg.scoring != Scoring::None) {
    shape(&w->att_W, A, D);
    shape(&w->att_U, A, 2 * H);
  }
  if (cfg.scoring == Scoring::Additive) w->att_v.assign(size_t(A), 0.0f);
  shape(&w->tgt_emb, cfg.tgt_vocab, E);
  if (cfg.decoder == DecoderKind::CGru) {
    shape(&w->dec_gru1, E, D);
    shape(&w->dec_gru2, 2 * H, D);
  } else {
    shape(&w->dec_gru, E + 2 * H, D);
  }
  shape(&w->readout_W, cfg.maxout * E, D + 2 * H + E);
  w->readout_b.assign(size_t(cfg.maxout * E), 0.0f);
  w->out_b.assign(size_t(cfg.tgt_vocab), 0.0f);
  for (const TensorRef& t : named_tensors(cfg, w)) {
    bool normal = false;
    double bound = 0;
    init_distribution(cfg, t.name, &normal, &bound);
    if (normal) {
      for (size_t k = 0; k < t.size(); k++) t.data[k] = float(rng->normal());
      std::fill(t.data, t.data + t.cols, 0.0f);  // padding_idx = 0
    } else if (bound > 0) {
      for (size_t k = 0; k < t.size(); k++) t.data[k] = float((2 * rng->uniform() - 1) * bound);
    }
  }
}

}  // namespace bl::train
