#include "core/train_tensors.h"

#include <algorithm>

#include "core/matrix_ops.h"

namespace bl {

namespace {

void add(std::vector<TensorRef>* out, const std::string& name, Matrix* m) {
  out->push_back({name, m->rows, m->cols, m->f32.data()});
}
void add(std::vector<TensorRef>* out, const std::string& name, std::vector<float>* v) {
  out->push_back({name, v->size(), 0, v->data()});
}
void add_gru(std::vector<TensorRef>* out, const std::string& prefix, Gru* g) {
  add(out, prefix + ".W_ih", &g->W_ih);
  add(out, prefix + ".W_hh", &g->W_hh);
  add(out, prefix + ".b_ih", &g->b_ih);
  add(out, prefix + ".b_hh", &g->b_hh);
}

void dequantize(Matrix* m) {
  if (m->is_q4()) {
    m->f32.resize(m->rows * m->cols);
    for (size_t r = 0; r < m->rows; r++)
      dequantize_q4_row(m->q4.data() + r * (m->cols / 2), m->scale.data() + r * (m->cols / 16),
                        m->cols, m->f32.data() + r * m->cols);
    m->q4.clear();
    m->scale.clear();
    return;
  }
  if (!m->is_int8()) return;
  m->f32.resize(m->rows * m->cols);
  for (size_t r = 0; r < m->rows; r++)
    for (size_t k = 0; k < m->cols; k++)
      m->f32[r * m->cols + k] = float(m->i8[r * m->cols + k]) * m->scale[r];
  m->i8.clear();
  m->scale.clear();
  m->row_sum.clear();
}

}  // namespace

std::vector<TensorRef> named_tensors(const Config& cfg, Weights* w) {
  std::vector<TensorRef> t;
  add(&t, "src_emb", &w->src_emb);
  add_gru(&t, "enc.fwd", &w->enc_fwd);
  add_gru(&t, "enc.bwd", &w->enc_bwd);
  add(&t, "dec.init.W", &w->init_W);
  add(&t, "dec.init.b", &w->init_b);
  if (cfg.scoring != Scoring::None) {
    add(&t, "att.W", &w->att_W);
    add(&t, "att.U", &w->att_U);
  }
  if (cfg.scoring == Scoring::Additive) add(&t, "att.v", &w->att_v);
  add(&t, "tgt_emb", &w->tgt_emb);
  if (cfg.decoder == DecoderKind::CGru) {
    add_gru(&t, "dec.gru1", &w->dec_gru1);
    add_gru(&t, "dec.gru2", &w->dec_gru2);
  } else {
    add_gru(&t, "dec.gru", &w->dec_gru);
  }
  add(&t, "dec.readout.W", &w->readout_W);
  add(&t, "dec.readout.b", &w->readout_b);
  add(&t, "dec.out.b", &w->out_b);
  return t;
}

void to_f32(Weights* w) {
  for (Matrix* m :
       {&w->src_emb, &w->enc_fwd.W_ih, &w->enc_fwd.W_hh, &w->enc_bwd.W_ih, &w->enc_bwd.W_hh,
        &w->init_W, &w->att_W, &w->att_U, &w->tgt_emb, &w->dec_gru.W_ih, &w->dec_gru.W_hh,
        &w->dec_gru1.W_ih, &w->dec_gru1.W_hh, &w->dec_gru2.W_ih, &w->dec_gru2.W_hh, &w->readout_W})
    dequantize(m);
}

Weights zeros_like(const Config& cfg, const Weights& w) {
  Weights z = w;
  for (TensorRef& t : named_tensors(cfg, &z)) std::fill(t.data, t.data + t.size(), 0.0f);
  return z;
}

}  // namespace bl
