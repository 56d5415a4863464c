// Over 400 lines, on purpose: the forward pass with its saved activations and the backward pass
// through the same steps, read side by side, are one derivation. A Sentence holds one pair's
// share of each step; forward_group and backward_group run a group's pairs in lockstep around
// the recurrences' products, and top_layers makes both passes of the layers above the
// recurrence, for a whole batch at once.
#include "core/train_model.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "core/seq2seq.h"
#include "core/train_ops.h"

namespace bl::train {

namespace {

// What one decoder step i keeps for its backward pass.
template <class T>
struct StepTape {
  int y_prev = 0, y = 0;  // y_{i-1} (read) and y_i (to predict)
  std::vector<T> ey;      // E y_{i-1}
  std::vector<T> eyd;     // E y_{i-1} as the decoder GRU reads it (dropout applied)
  std::vector<T> s_prev;  // s_{i-1}
  std::vector<T> sq;      // cgru: s'_i = GRU1(E y_{i-1}, s_{i-1}), the query
  std::vector<T> q;       // W s_{i-1} (cgru: W s'_i)
  std::vector<T> tq;      // additive: [n x A] tanh(q + k_j)
  std::vector<T> alpha;   // [n] softmax(e_i)
  std::vector<T> c;       // [2H] c_i
  std::vector<T> uin;     // [D + 2H + E] [s_i; c_i; E y_{i-1}]
  std::vector<T> duin;    // [D + 2H + E] dL/duin, from the layers above (top_layers)
  GruTape<T> g1, g2;      // paper: g1 the decoder GRU; cgru: GRU1, GRU2
  // the backward pass's, kept for the weights' gradients (Sentence::add_decoder_grads)
  std::vector<T> dg1i, dg1h, dg2i, dg2h;  // g1's and g2's gates' gradients (3D each)
  std::vector<T> de, dq, dey;             // dL/de_i (softmaxed, [n]), dL/dq, dL/d(E y_{i-1})
};

// The gradients of a batch: the biases and embeddings added at once, the matrices' dy x^T
// through OuterSum (train_ops.h), flushed when the batch is done.
template <class T>
struct Grads {
  explicit Grads(Weights* g)
      : w(g),
        enc_fwd(&g->enc_fwd),
        enc_bwd(&g->enc_bwd),
        dec_gru(&g->dec_gru),
        dec_gru1(&g->dec_gru1),
        dec_gru2(&g->dec_gru2),
        init_W(&g->init_W),
        att_W(&g->att_W),
        att_U(&g->att_U) {}
  void flush() {
    for (GruGrad<T>* gg : {&enc_fwd, &enc_bwd, &dec_gru, &dec_gru1, &dec_gru2})
      gg->W_ih.flush(), gg->W_hh.flush();
    for (OuterSum<T>* o : {&init_W, &att_W, &att_U}) o->flush();
  }
  Weights* w;
  GruGrad<T> enc_fwd, enc_bwd, dec_gru, dec_gru1, dec_gru2;
  OuterSum<T> init_W, att_W, att_U;  // the readout's W_o: top_layers, as one product
};

// One sentence pair through the network and back (its share of the batch gradient). The output
// layer, between the two, runs for many sentences at once (output_layer).
template <class T>
class Sentence {
 public:
  // A Sentence is reused from batch to batch (batch_loss's pool), so that its tapes keep their
  // buffers: allocating them afresh for every step of every pair was a few percent of a step.
  void bind(const Config& cfg, const Weights& w, const Transposed& wt) {
    cfg_ = &cfg, w_ = &w, wt_ = &wt;
    E = cfg.emb, H = cfg.enc_hidden, D = cfg.dec_hidden, A = cfg.attn, M = cfg.maxout;
    Vt = cfg.tgt_vocab;
    attention = cfg.scoring != Scoring::None;
    cgru = cfg.decoder == DecoderKind::CGru;
  }

  // The forward pass runs the group's pairs in lockstep (forward_group, below), one recurrence
  // step of every pair at a time, so that each step's products of the recurrence are one
  // product over the pairs (M = their count) instead of one matrix-vector product per pair.
  // What a pair does alone is here: begin() before the recurrences, then the parts of each
  // step around those products. Each row of a product has the bits of that pair's own
  // matrix-vector product (matvec_rows), so the lockstep changes no bit of the result.

  // The pair's inputs (mask: its dropout masks, or null): source embeddings, the encoder's
  // input projections, E y_{i-1} of every step (teacher forcing: known before the recurrence)
  // and, for cgru, GRU1's input projection of all of them.
  void begin(const TrainPair& pair, const DropoutMasks* mask) {
    mask_ = mask;
    x_ = pair.src;
    x_.push_back(kEos);
    n_ = x_.size();
    emb_.resize(n_ * E);
    fwd_.assign(n_, GruTape<T>());
    bwd_.assign(n_, GruTape<T>());
    h_.assign(n_ * 2 * H, T(0));
    zero_.assign(std::max(H, D), T(0));
    for (size_t t = 0; t < n_; t++)
      for (size_t k = 0; k < E; k++) emb_[t * E + k] = T(w_->src_emb.f32[x_[t] * E + k]);
    if (mask_)
      for (size_t k = 0; k < n_ * E; k++) emb_[k] *= T(mask_->src[k]);
    gi_f_.resize(n_ * 3 * H), gi_b_.resize(n_ * 3 * H);
    const Gru &gf = w_->enc_fwd, &gb = w_->enc_bwd;
    matvec_rows(gf.W_ih, wt_->enc_fwd.W_ih, n_, emb_.data(), E, gf.b_ih.data(), gi_f_.data(), 3 * H);
    matvec_rows(gb.W_ih, wt_->enc_bwd.W_ih, n_, emb_.data(), E, gb.b_ih.data(), gi_b_.data(), 3 * H);
    const size_t m = pair.tgt.size() + 1;
    steps_.assign(m, StepTape<T>());
    eyd_.resize(m * E);
    for (size_t i = 0; i < m; i++) {
      StepTape<T>& st = steps_[i];
      st.y_prev = i == 0 ? kBos : pair.tgt[i - 1], st.y = i + 1 < m ? pair.tgt[i] : kEos;
      st.ey.resize(E);
      for (size_t k = 0; k < E; k++) st.ey[k] = T(w_->tgt_emb.f32[size_t(st.y_prev) * E + k]);
      st.eyd = st.ey;
      if (mask_)
        for (size_t k = 0; k < E; k++) st.eyd[k] *= T(mask_->ey[i * E + k]);
      std::copy_n(st.eyd.data(), E, &eyd_[i * E]);
    }
    gi1_.resize(cgru ? m * 3 * D : 0);
    if (cgru)
      matvec_rows(w_->dec_gru1.W_ih, wt_->dec_gru1.W_ih, m, eyd_.data(), E,
                  w_->dec_gru1.b_ih.data(), gi1_.data(), 3 * D);
  }

  size_t src_len() const { return n_; }
  size_t tgt_len() const { return steps_.size(); }

  // ->h_t = GRU(x_t, ->h_{t-1}), t ascending: enc_fwd_prev(t) is ->h_{t-1}, gh its W_hh
  // product with b_hh. <-h_t the same, t descending.
  const T* enc_fwd_prev(size_t t) const { return t == 0 ? zero_.data() : &h_[(t - 1) * 2 * H]; }
  void enc_fwd_step(size_t t, const T* gh) {
    gru_gates(&emb_[t * E], E, enc_fwd_prev(t), H, &gi_f_[t * 3 * H], gh, &fwd_[t], &h_[t * 2 * H]);
  }
  const T* enc_bwd_prev(size_t t) const {
    return t + 1 == n_ ? zero_.data() : &h_[(t + 1) * 2 * H + H];
  }
  void enc_bwd_step(size_t t, const T* gh) {
    gru_gates(&emb_[t * E], E, enc_bwd_prev(t), H, &gi_b_[t * 3 * H], gh, &bwd_[t],
              &h_[t * 2 * H + H]);
  }

  // k_j = U h_j (or the fixed c = [->h_T; <-h_1]), s_0 = tanh(W_init <-h_1 + b)
  void end_encode() {
    if (attention) {
      keys_.resize(n_ * A);
      matvec_rows(w_->att_U, wt_->att_U, n_, h_.data(), 2 * H, nullptr, keys_.data(), A);
    } else {
      const T* last = h_.data() + (n_ - 1) * 2 * H;
      fixed_.assign(last, last + H);
      fixed_.insert(fixed_.end(), h_.data() + H, h_.data() + 2 * H);
    }
    s0_.resize(D);
    matvec(w_->init_W, wt_->init_W, &h_[H], w_->init_b.data(), s0_.data());
    tanh_inplace(D, s0_.data());
  }

  // Decoder step i in three parts around its products. s_{i-1}:
  const T* s_prev(size_t i) const { return i == 0 ? s0_.data() : steps_[i - 1].uin.data(); }
  // cgru: s'_i = GRU1(E y_{i-1}, s_{i-1}); gh: W_hh s_{i-1} + b_hh
  void dec_gru1(size_t i, const T* gh) {
    StepTape<T>* st = &steps_[i];
    st->s_prev.assign(s_prev(i), s_prev(i) + D);
    st->sq.resize(D);
    gru_gates(st->eyd.data(), E, st->s_prev.data(), D, &gi1_[i * 3 * D], gh, &st->g1, st->sq.data());
  }
  // The query W_att reads: s'_i (cgru), s_{i-1} (paper)
  const T* query(size_t i) const { return cgru ? steps_[i].sq.data() : s_prev(i); }
  // c_i from q = W query (null without attention: c_i = c); paper's GRU input [E y_{i-1}; c_i]
  // is made here once, for both its product and its gates.
  void attend(size_t i, const T* q) {
    StepTape<T>* st = &steps_[i];
    if (!cgru) st->s_prev.assign(s_prev(i), s_prev(i) + D);
    if (attention)
      score_and_mix(st, q);
    else
      st->c = fixed_;
    if (!cgru) {
      in_.assign(st->eyd.begin(), st->eyd.end());
      in_.insert(in_.end(), st->c.begin(), st->c.end());
    }
  }
  // score, normalise, mix
  void score_and_mix(StepTape<T>* st, const T* q) {
    st->q.assign(q, q + A);
    std::vector<T>& e = e_;
    e.resize(n_);
    if (cfg_->scoring == Scoring::Additive) {  // e_ij = v . tanh(q + k_j)
      st->tq.resize(n_ * A);  // kept for the backward pass: tanh is a large share of a step
      T* tq = st->tq.data();
      for (size_t j = 0; j < n_; j++)
        for (size_t a = 0; a < A; a++) tq[j * A + a] = st->q[a] + keys_[j * A + a];
      tanh_inplace(n_ * A, tq);
      for (size_t j = 0; j < n_; j++) e[j] = reduce_dot(A, w_->att_v.data(), &tq[j * A]);
    } else {  // e_ij = (q . k_j) / sqrt(A)
      const T root = T(std::sqrt(double(A)));
      for (size_t j = 0; j < n_; j++) e[j] = reduce_dot(A, st->q.data(), &keys_[j * A]) / root;
    }
    const T emax = *std::max_element(e.begin(), e.end());  // alpha_i = softmax(e_i)
    T sum = 0;
    st->alpha.resize(n_);
    for (size_t j = 0; j < n_; j++) st->alpha[j] = e[j] - emax;
    exp_inplace(n_, st->alpha.data());
    for (size_t j = 0; j < n_; j++) sum += st->alpha[j];
    for (T& a : st->alpha) a /= sum;
    st->c.assign(2 * H, T(0));  // c_i = sum_j alpha_ij h_j, j ascending
    gemm_add(1, 2 * H, n_, st->alpha.data(), 0, 1, h_.data(), 2 * H, st->c.data(), 2 * H);
  }
  // What the last GRU reads (after attend(i)): cgru's GRU2 reads c_i (and s'_i); paper's
  // reads [E y_{i-1}; c_i] (and s_{i-1}).
  const T* gru2_input(size_t i) const { return cgru ? steps_[i].c.data() : in_.data(); }
  const T* gru2_state(size_t i) const { return cgru ? steps_[i].sq.data() : s_prev(i); }
  // s_i = GRU2(c_i, s'_i) (cgru) or GRU([E y_{i-1}; c_i], s_{i-1}) (paper), from gi and gh
  // (gru2_input's and gru2_state's products with their biases); then the readout's input
  // uin = [s_i; c_i; E y_{i-1}], which top_layers takes from here.
  void dec_gru2(size_t i, const T* gi, const T* gh) {
    StepTape<T>* st = &steps_[i];
    s_out_.resize(D);
    if (cgru)
      gru_gates(st->c.data(), 2 * H, st->sq.data(), D, gi, gh, &st->g2, s_out_.data());
    else
      gru_gates(gru2_input(i), E + 2 * H, st->s_prev.data(), D, gi, gh, &st->g1, s_out_.data());
    st->uin.assign(s_out_.begin(), s_out_.end());
    st->uin.insert(st->uin.end(), st->c.begin(), st->c.end());
    st->uin.insert(st->uin.end(), st->ey.begin(), st->ey.end());
  }

  std::vector<StepTape<T>>& steps() { return steps_; }
  const DropoutMasks* mask() const { return mask_; }

  // The backward pass, in lockstep as the forward one (backward_group, below): for decoder step
  // i, descending, the parts around its products, whose rows are this pair's dL/d buffers (the
  // *_rows accessors). The gradients that all pairs share (weights, biases, embeddings) are
  // added afterwards from what each step kept, pair by pair in the order of a pass made one
  // pair at a time (add_decoder_grads, add_encoder_grads), so the sums keep that order's bits.
  void bwd_begin() {
    dh_.assign(n_ * 2 * H, T(0));
    dkeys_.assign(attention ? n_ * A : 0, T(0));
    dfixed_.assign(2 * H, T(0));
    ds_.assign(D, T(0));
  }

  // From ds_ = dL/ds_i (the later steps' share) and duin (the layers above): through s_i's GRU
  // (cgru's GRU2, or paper's one GRU) to its gates' gradients, and dL/d(its state) += ds_i z.
  void bwd_gru2(size_t i) {
    StepTape<T>& st = steps_[i];
    const std::vector<T>& duin = st.duin;  // the readout's and output layer's part: top_layers
    ds_prev_.assign(D, T(0));
    ds_i_.assign(ds_.begin(), ds_.end());
    for (size_t k = 0; k < D; k++) ds_i_[k] += duin[k];
    dc_.assign(duin.data() + D, duin.data() + D + 2 * H);
    dey_.assign(duin.data() + D + 2 * H, duin.data() + D + 2 * H + E);
    dsq_.assign(cgru ? D : 0, T(0));
    // dL/d(E y_{i-1}) through the GRU input: masked before it joins the readout's share
    dey_gru_.assign(mask_ ? E : 0, T(0));
    std::vector<T>&dgi = cgru ? st.dg2i : st.dg1i, &dgh = cgru ? st.dg2h : st.dg1h;
    dgi.resize(3 * D), dgh.resize(3 * D);
    if (cgru) {  // s_i = GRU2(c_i, s'_i)
      gru_gates_backward(st.g2, ds_i_.data(), dgi.data(), dgh.data(), dsq_.data());
    } else {  // s_i = GRU([E y_{i-1}; c_i], s_{i-1})
      din_.assign(E + 2 * H, T(0));
      gru_gates_backward(st.g1, ds_i_.data(), dgi.data(), dgh.data(), ds_prev_.data());
    }
  }
  const T* gru2_dgi(size_t i) const { return cgru ? steps_[i].dg2i.data() : steps_[i].dg1i.data(); }
  const T* gru2_dgh(size_t i) const { return cgru ? steps_[i].dg2h.data() : steps_[i].dg1h.data(); }
  T* gru2_dx_rows() { return cgru ? dc_.data() : din_.data(); }      // += W_ih^T dgi
  T* gru2_dh_rows() { return cgru ? dsq_.data() : ds_prev_.data(); }  // += W_hh^T dgh

  // The attention's backward from dc = dL/dc_i: score, softmax and mix back to dq = dL/dq (kept),
  // dh_j += alpha_j dc and the keys' dL/dk_j (or the fixed c's).
  void bwd_attend(size_t i) {
    StepTape<T>& st = steps_[i];
    if (!cgru) {
      T* dey_in = mask_ ? dey_gru_.data() : dey_.data();
      for (size_t k = 0; k < E; k++) dey_in[k] += din_[k];
      for (size_t k = 0; k < 2 * H; k++) dc_[k] += din_[E + k];
    }
    if (!attention) {
      for (size_t k = 0; k < 2 * H; k++) dfixed_[k] += dc_[k];
      return;
    }
    // c_i = sum_j alpha_ij h_j: dalpha_j = dc . h_j, dh_j += alpha_j dc
    std::vector<T>& de = st.de;
    de.resize(n_);
    T dot = 0;
    for (size_t j = 0; j < n_; j++) {
      de[j] = reduce_dot(2 * H, dc_.data(), &h_[j * 2 * H]);
      dot += st.alpha[j] * de[j];
    }
    gemm_add(n_, 2 * H, 1, st.alpha.data(), 1, 1, dc_.data(), 2 * H, dh_.data(), 2 * H);
    for (size_t j = 0; j < n_; j++) de[j] = st.alpha[j] * (de[j] - dot);  // softmax
    std::vector<T>& dq = st.dq;
    dq.assign(A, T(0));
    if (cfg_->scoring == Scoring::Additive) {  // e_ij = v . tanh(q + k_j)
      // dpre = de_j v (1 - tanh^2); dk_j += dpre_j; dq += sum_j dpre_j (dv: add_decoder_grads).
      const T* tq = st.tq.data();
      dpre_.resize(n_ * A);
      for (size_t j = 0; j < n_; j++)
        for (size_t a = 0; a < A; a++)
          dpre_[j * A + a] = de[j] * T(w_->att_v[a]) * (T(1) - tq[j * A + a] * tq[j * A + a]);
      for (size_t k = 0; k < n_ * A; k++) dkeys_[k] += dpre_[k];
      const T one = 1;
      gemm_add(1, A, n_, &one, 0, 0, dpre_.data(), A, dq.data(), A);
    } else {  // e_ij = (q . k_j) / sqrt(A)
      const T root = T(std::sqrt(double(A)));
      for (size_t j = 0; j < n_; j++)
        for (size_t a = 0; a < A; a++) {
          dq[a] += de[j] * keys_[j * A + a] / root;
          dkeys_[j * A + a] += de[j] * st.q[a] / root;
        }
    }
  }
  const T* dq(size_t i) const { return steps_[i].dq.data(); }
  T* query_rows() { return cgru ? dsq_.data() : ds_prev_.data(); }  // += W_att^T dq

  // cgru: s'_i = GRU1(E y_{i-1}, s_{i-1}), from dsq = dL/ds'_i.
  void bwd_gru1(size_t i) {
    StepTape<T>& st = steps_[i];
    st.dg1i.resize(3 * D), st.dg1h.resize(3 * D);
    gru_gates_backward(st.g1, dsq_.data(), st.dg1i.data(), st.dg1h.data(), ds_prev_.data());
  }
  const T* gru1_dgi(size_t i) const { return steps_[i].dg1i.data(); }
  const T* gru1_dgh(size_t i) const { return steps_[i].dg1h.data(); }
  T* gru1_dx_rows() { return mask_ ? dey_gru_.data() : dey_.data(); }  // += W_ih^T dgi
  T* ds_prev_rows() { return ds_prev_.data(); }                        // += W_hh^T dgh

  // Step i done: dL/d(E y_{i-1}) kept, and ds_ becomes dL/ds_{i-1}.
  void bwd_end_step(size_t i) {
    if (mask_)
      for (size_t k = 0; k < E; k++) dey_[k] += T(mask_->ey[i * E + k]) * dey_gru_[k];
    steps_[i].dey.assign(dey_.begin(), dey_.end());
    ds_.swap(ds_prev_);
  }

  // The decoder's shared gradients, step by step as the pass made them (i descending).
  void add_decoder_grads(Grads<T>* g) const {
    for (size_t i = steps_.size(); i-- > 0;) {
      const StepTape<T>& st = steps_[i];
      if (cgru)
        gru_grad_add(&g->dec_gru2, st.g2, st.dg2i.data(), st.dg2h.data());
      else
        gru_grad_add(&g->dec_gru, st.g1, st.dg1i.data(), st.dg1h.data());
      if (attention) {
        if (cfg_->scoring == Scoring::Additive)  // dv += de^T tanh(.)
          gemm_add(1, A, n_, st.de.data(), 0, 1, st.tq.data(), A, g->w->att_v.data(), A);
        g->att_W.add(st.dq.data(), cgru ? st.sq.data() : st.s_prev.data());  // q = W query
      }
      if (cgru) gru_grad_add(&g->dec_gru1, st.g1, st.dg1i.data(), st.dg1h.data());
      float* ge = &g->w->tgt_emb.f32[size_t(st.y_prev) * E];  // E y_{i-1}
      for (size_t k = 0; k < E; k++) ge[k] += float(st.dey[k]);
    }
  }

  // From dL/ds_0 (ds_ after the last step) and the keys' gradients: s_0's layer and U, into
  // the annotations' dh_ (their gradients added here, where the pairs come in order).
  void bwd_encoder_begin(Grads<T>* g) {
    std::vector<T> da(D);  // s_0 = tanh(W_init <-h_1 + b)
    for (size_t k = 0; k < D; k++) da[k] = ds_[k] * (T(1) - s0_[k] * s0_[k]);
    g->init_W.add(da.data(), &h_[H]);
    vec_add(&g->w->init_b, da.data());
    matvec_t_add(w_->init_W, da.data(), &dh_[H]);
    if (attention) {  // k_j = U h_j: dh_j += U^T dk_j, every j in one product
      for (size_t j = 0; j < n_; j++) g->att_U.add(&dkeys_[j * A], &h_[j * 2 * H]);
      gemm_add(n_, 2 * H, A, dkeys_.data(), A, 1, w_->att_U.f32.data(), 2 * H, dh_.data(), 2 * H);
    } else {  // c = [->h_T; <-h_1]
      for (size_t k = 0; k < H; k++) {
        dh_[(n_ - 1) * 2 * H + k] += dfixed_[k];
        dh_[H + k] += dfixed_[H + k];
      }
    }
    demb_.assign(n_ * E, T(0));
    carry_.assign(H, T(0));
    dh_t_.resize(H);
    dgi_f_.resize(n_ * 3 * H), dgh_f_.resize(n_ * 3 * H);
    dgi_b_.resize(n_ * 3 * H), dgh_b_.resize(n_ * 3 * H);
  }

  // ->h_t's GRU (backward from x_T, t descending; fwd false: <-h_t's, t ascending), from
  // dh_t + the carry from the step after; next_ gets dL/dh_{t-1} (or _{t+1}) once its product
  // has been added (enc_next), demb_ row t the input's.
  void bwd_enc(bool fwd, size_t t) {
    for (size_t k = 0; k < H; k++) dh_t_[k] = dh_[t * 2 * H + (fwd ? 0 : H) + k] + carry_[k];
    next_.assign(H, T(0));
    gru_gates_backward(fwd ? fwd_[t] : bwd_[t], dh_t_.data(), enc_dgi(fwd, t), enc_dgh(fwd, t),
                       next_.data());
  }
  T* enc_dgi(bool fwd, size_t t) { return &(fwd ? dgi_f_ : dgi_b_)[t * 3 * H]; }
  T* enc_dgh(bool fwd, size_t t) { return &(fwd ? dgh_f_ : dgh_b_)[t * 3 * H]; }
  T* demb_rows(size_t t) { return &demb_[t * E]; }  // += W_ih^T dgi
  T* next_rows() { return next_.data(); }           // += W_hh^T dgh
  void enc_next() { carry_.swap(next_); }
  void enc_direction_done() { carry_.assign(H, T(0)); }

  // The encoder's shared gradients, in the pass's order: ->h from x_T, <-h from x_1, then
  // the source embeddings.
  void add_encoder_grads(Grads<T>* g) {
    for (size_t t = n_; t-- > 0;) gru_grad_add(&g->enc_fwd, fwd_[t], enc_dgi(true, t), enc_dgh(true, t));
    for (size_t t = 0; t < n_; t++) gru_grad_add(&g->enc_bwd, bwd_[t], enc_dgi(false, t), enc_dgh(false, t));
    if (mask_)
      for (size_t k = 0; k < n_ * E; k++) demb_[k] *= T(mask_->src[k]);
    for (size_t t = 0; t < n_; t++) {
      float* ge = &g->w->src_emb.f32[size_t(x_[t]) * E];
      for (size_t k = 0; k < E; k++) ge[k] += float(demb_[t * E + k]);
    }
  }

 private:
  const Config* cfg_ = nullptr;
  const Weights* w_ = nullptr;
  const Transposed* wt_ = nullptr;
  size_t E = 0, H = 0, D = 0, A = 0, M = 0, Vt = 0;
  bool attention = false, cgru = false;
  std::vector<int> x_;
  size_t n_ = 0;
  std::vector<T> emb_, h_, keys_, fixed_, s0_, zero_;
  std::vector<T> gi_f_, gi_b_, eyd_, gi1_, in_, s_out_;  // begin()'s products, a step's scratch
  std::vector<GruTape<T>> fwd_, bwd_;
  std::vector<StepTape<T>> steps_;
  const DropoutMasks* mask_ = nullptr;
  std::vector<T> dh_, dkeys_, dfixed_, dpre_, demb_, dgi_f_, dgh_f_, dgi_b_, dgh_b_;
  std::vector<T> e_, ds_, ds_prev_, ds_i_, dc_, dey_, dsq_, dey_gru_, din_;  // a step's scratch
  std::vector<T> carry_, next_, dh_t_;
};

// act = the pairs (indices into sents) whose source (src) or target is longer than len: those
// that take part in a lockstep step at that position.
template <class T>
void longer_than(const Sentence<T>* sents, size_t count, bool src, size_t len,
                 std::vector<size_t>* act) {
  act->clear();
  for (size_t b = 0; b < count; b++)
    if ((src ? sents[b].src_len() : sents[b].tgt_len()) > len) act->push_back(b);
}

// Y = W x + b for each active pair's x = in(b) (b null: none), as matvec_rows over the rows
// gathered into X: one product for the group's step, each row with its own pair's bits.
template <class T, class In>
const T* step_product(const Matrix& W, const Matrix& Wt, const float* b,
                      const std::vector<size_t>& act, In in, std::vector<T>* X, std::vector<T>* Y) {
  const size_t cols = W.cols, rows = W.rows;
  X->resize(act.size() * cols), Y->resize(act.size() * rows);
  for (size_t r = 0; r < act.size(); r++) std::copy_n(in(act[r]), cols, &(*X)[r * cols]);
  matvec_rows(W, Wt, act.size(), X->data(), cols, b, Y->data(), rows);
  return Y->data();
}

// The forward pass of count pairs (each begun), in lockstep: the encoder's two directions one
// position at a time, then the decoder one step at a time, each over the pairs still that long.
template <class T>
void forward_group(const Config& cfg, const Weights& w, const Transposed& wt, Sentence<T>* sents,
                   size_t count) {
  const size_t H = cfg.enc_hidden, D = cfg.dec_hidden, A = cfg.attn;
  const bool cgru = cfg.decoder == DecoderKind::CGru, attention = cfg.scoring != Scoring::None;
  size_t n_max = 0, m_max = 0;
  for (size_t b = 0; b < count; b++)
    n_max = std::max(n_max, sents[b].src_len()), m_max = std::max(m_max, sents[b].tgt_len());
  BL_THREAD_LOCAL std::vector<T> X, Y, X2, Y2;
  std::vector<size_t> act;
  for (size_t t = 0; t < n_max; t++) {  // ->h_t, t ascending
    longer_than(sents, count, true, t, &act);
    const T* gh = step_product(w.enc_fwd.W_hh, wt.enc_fwd.W_hh, w.enc_fwd.b_hh.data(), act,
                               [&](size_t b) { return sents[b].enc_fwd_prev(t); }, &X, &Y);
    for (size_t r = 0; r < act.size(); r++) sents[act[r]].enc_fwd_step(t, gh + r * 3 * H);
  }
  for (size_t back = 0; back < n_max; back++) {  // <-h_t, t descending from each pair's end
    longer_than(sents, count, true, back, &act);
    const auto at = [&](size_t b) { return sents[b].src_len() - 1 - back; };
    const T* gh = step_product(w.enc_bwd.W_hh, wt.enc_bwd.W_hh, w.enc_bwd.b_hh.data(), act,
                               [&](size_t b) { return sents[b].enc_bwd_prev(at(b)); }, &X, &Y);
    for (size_t r = 0; r < act.size(); r++) sents[act[r]].enc_bwd_step(at(act[r]), gh + r * 3 * H);
  }
  for (size_t b = 0; b < count; b++) sents[b].end_encode();
  const Gru& last = cgru ? w.dec_gru2 : w.dec_gru;
  const Transposed::GruT& last_t = cgru ? wt.dec_gru2 : wt.dec_gru;
  for (size_t i = 0; i < m_max; i++) {
    longer_than(sents, count, false, i, &act);
    if (cgru) {
      const T* gh = step_product(w.dec_gru1.W_hh, wt.dec_gru1.W_hh, w.dec_gru1.b_hh.data(), act,
                                 [&](size_t b) { return sents[b].s_prev(i); }, &X, &Y);
      for (size_t r = 0; r < act.size(); r++) sents[act[r]].dec_gru1(i, gh + r * 3 * D);
    }
    const T* q = attention ? step_product(w.att_W, wt.att_W, nullptr, act,
                                          [&](size_t b) { return sents[b].query(i); }, &X, &Y)
                           : nullptr;
    for (size_t r = 0; r < act.size(); r++) sents[act[r]].attend(i, q ? q + r * A : nullptr);
    const T* gi = step_product(last.W_ih, last_t.W_ih, last.b_ih.data(), act,
                               [&](size_t b) { return sents[b].gru2_input(i); }, &X, &Y);
    const T* gh = step_product(last.W_hh, last_t.W_hh, last.b_hh.data(), act,
                               [&](size_t b) { return sents[b].gru2_state(i); }, &X2, &Y2);
    for (size_t r = 0; r < act.size(); r++)
      sents[act[r]].dec_gru2(i, gi + r * 3 * D, gh + r * 3 * D);
  }
}

// dx(b) += W^T dy(b) for each active pair, as one product over their rows: gathered, added
// to, and put back, so that each row keeps its pair's bits (the products add onto the rows'
// old values, k ascending, as matvec_t_add does for one row).
template <class T, class Dy, class Dx>
void step_product_t(const Matrix& W, const std::vector<size_t>& act, Dy dy, Dx dx,
                    std::vector<T>* DY, std::vector<T>* DX) {
  const size_t R = W.rows, C = W.cols, k = act.size();
  DY->resize(k * R), DX->resize(k * C);
  for (size_t r = 0; r < k; r++) {
    std::copy_n(dy(act[r]), R, &(*DY)[r * R]);
    std::copy_n(dx(act[r]), C, &(*DX)[r * C]);
  }
  gemm_add(k, C, R, DY->data(), R, 1, W.f32.data(), C, DX->data(), C);
  for (size_t r = 0; r < k; r++) std::copy_n(&(*DX)[r * C], C, dx(act[r]));
}

// The backward pass of count pairs (after top_layers), in lockstep as forward_group; then the
// shared gradients, pair by pair.
template <class T>
void backward_group(const Config& cfg, const Weights& w, Sentence<T>* sents, size_t count,
                    Grads<T>* g) {
  const bool cgru = cfg.decoder == DecoderKind::CGru, attention = cfg.scoring != Scoring::None;
  size_t n_max = 0, m_max = 0;
  for (size_t b = 0; b < count; b++) {
    n_max = std::max(n_max, sents[b].src_len()), m_max = std::max(m_max, sents[b].tgt_len());
    sents[b].bwd_begin();
  }
  BL_THREAD_LOCAL std::vector<T> DY, DX;
  std::vector<size_t> act;
  const Gru& last = cgru ? w.dec_gru2 : w.dec_gru;
  for (size_t i = m_max; i-- > 0;) {
    longer_than(sents, count, false, i, &act);
    for (size_t b : act) sents[b].bwd_gru2(i);
    step_product_t(last.W_ih, act, [&](size_t b) { return sents[b].gru2_dgi(i); },
                   [&](size_t b) { return sents[b].gru2_dx_rows(); }, &DY, &DX);
    step_product_t(last.W_hh, act, [&](size_t b) { return sents[b].gru2_dgh(i); },
                   [&](size_t b) { return sents[b].gru2_dh_rows(); }, &DY, &DX);
    for (size_t b : act) sents[b].bwd_attend(i);
    if (attention)
      step_product_t(w.att_W, act, [&](size_t b) { return sents[b].dq(i); },
                     [&](size_t b) { return sents[b].query_rows(); }, &DY, &DX);
    if (cgru) {
      for (size_t b : act) sents[b].bwd_gru1(i);
      step_product_t(w.dec_gru1.W_ih, act, [&](size_t b) { return sents[b].gru1_dgi(i); },
                     [&](size_t b) { return sents[b].gru1_dx_rows(); }, &DY, &DX);
      step_product_t(w.dec_gru1.W_hh, act, [&](size_t b) { return sents[b].gru1_dgh(i); },
                     [&](size_t b) { return sents[b].ds_prev_rows(); }, &DY, &DX);
    }
    for (size_t b : act) sents[b].bwd_end_step(i);
  }
  for (size_t b = 0; b < count; b++) {
    sents[b].add_decoder_grads(g);
    sents[b].bwd_encoder_begin(g);
  }
  for (const bool fwd : {true, false}) {  // ->h back from x_T, then <-h back from x_1
    const Gru& gru = fwd ? w.enc_fwd : w.enc_bwd;
    for (size_t back = 0; back < n_max; back++) {
      longer_than(sents, count, true, back, &act);
      const auto at = [&](size_t b) { return fwd ? sents[b].src_len() - 1 - back : back; };
      for (size_t b : act) sents[b].bwd_enc(fwd, at(b));
      step_product_t(gru.W_ih, act, [&](size_t b) { return sents[b].enc_dgi(fwd, at(b)); },
                     [&](size_t b) { return sents[b].demb_rows(at(b)); }, &DY, &DX);
      step_product_t(gru.W_hh, act, [&](size_t b) { return sents[b].enc_dgh(fwd, at(b)); },
                     [&](size_t b) { return sents[b].next_rows(); }, &DY, &DX);
      for (size_t b : act) sents[b].enc_next();
    }
    for (size_t b = 0; b < count; b++) sents[b].enc_direction_done();
  }
  for (size_t b = 0; b < count; b++) sents[b].add_encoder_grads(g);
}

bool fail(std::string* error, std::string message) {
  *error = std::move(message);
  return false;
}

}  // namespace

bool check_batch(const Config& cfg, const std::vector<TrainPair>& batch, std::string* error) {
  using std::to_string;
  if (batch.empty()) return fail(error, "the batch is empty");
  if (batch.size() > kMaxTrainBatch)
    return fail(error, "the batch has " + to_string(batch.size()) + " pairs, more than " +
                           to_string(kMaxTrainBatch));
  for (size_t b = 0; b < batch.size(); b++) {
    const TrainPair& p = batch[b];
    const std::string pair = "batch pair " + to_string(b) + ": ";
    if (p.src.size() > size_t(cfg.max_src_len))
      return fail(error, pair + "source has " + to_string(p.src.size()) +
                             " tokens, more than max_src_len " + to_string(cfg.max_src_len));
    if (p.tgt.size() + 1 > size_t(cfg.max_tgt_len))
      return fail(error,
                  pair + "target has " + to_string(p.tgt.size()) +
                      " tokens, more than max_tgt_len - 1 = " + to_string(cfg.max_tgt_len - 1));
    for (const auto& [ids, vocab, side] : {std::make_tuple(&p.src, cfg.src_vocab, "source"),
                                           std::make_tuple(&p.tgt, cfg.tgt_vocab, "target")})
      for (int id : *ids)
        if (id < 1 || id >= vocab)
          return fail(error, pair + side + " id " + to_string(id) + " is outside 1.." +
                                 to_string(vocab - 1) + " (0 is <pad>)");
  }
  return true;
}

// The layers above s_i and c_i for all the steps of sents at once, in blocks of kRows steps:
// they feed nothing back into the recurrence, so each is one product per block instead of one
// matrix-vector product per step. Forward: u = uin W_o^T + b_o, t = maxout(u) (dropout
// applied), logits z = t E_tgt^T + b_out, and each sentence's sum of -log p(y_i) added to
// loss[b]. With g, backward: dz = scale (p - (1 - eps) onehot(y_i) - eps / Vt), db_out,
// dt = dz E_tgt, dE_tgt += dz^T t (tied: E_tgt is also the embedding), du (the winner of each
// max takes dt_k), db_o, dW_o += du^T uin, and each step's duin = du W_o for step_backward.
// Only the loop nest differs from one step's matrix-vector products (the logits' sums start
// from b_out rather than adding it last), so each matrix is read once per block, not per step.
template <class T>
void top_layers(const Config& cfg, const Weights& w, const Transposed& wt,
                Sentence<T>* sents, size_t count, T scale, double eps, Weights* g, double* loss) {
  constexpr size_t kRows = 128;  // a [kRows x Vt] block of logits: 1.5 MB for Vt = 3,000
  const size_t E = cfg.emb, Vt = cfg.tgt_vocab, M = cfg.maxout, ME = M * E;
  const size_t Uw = cfg.dec_hidden + 2 * cfg.enc_hidden + E;  // [s_i; c_i; E y_{i-1}]
  const T e = T(eps);
  struct Row {
    size_t b, i;
    StepTape<T>* st;
  };
  std::vector<Row> rows;
  for (size_t b = 0; b < count; b++)
    for (size_t i = 0; i < sents[b].steps().size(); i++) rows.push_back({b, i, &sents[b].steps()[i]});
  std::vector<T> uin(kRows * Uw), u(kRows * ME), t(kRows * E), z(kRows * Vt), dt(kRows * E),
      du(kRows * ME), duin(kRows * Uw);
  std::vector<int> arg(kRows * E);
  for (size_t r0 = 0; r0 < rows.size(); r0 += kRows) {
    const size_t n = std::min(kRows, rows.size() - r0);
    // t = maxout(W_o uin + b_o)
    for (size_t r = 0; r < n; r++) std::copy_n(rows[r0 + r].st->uin.data(), Uw, &uin[r * Uw]);
    std::fill(u.begin(), u.begin() + n * ME, T(0));
    gemm_add(n, ME, Uw, uin.data(), Uw, 1, wt.readout_W.f32.data(), ME, u.data(), ME);
    for (size_t r = 0; r < n; r++) {
      T* ur = &u[r * ME];
      for (size_t j = 0; j < ME; j++) ur[j] = T(w.readout_b[j]) + ur[j];
      for (size_t k = 0; k < E; k++) {
        size_t best = k * M;
        for (size_t p = 1; p < M; p++)
          if (ur[k * M + p] > ur[best]) best = k * M + p;
        t[r * E + k] = ur[best], arg[r * E + k] = int(best);
      }
      if (const DropoutMasks* mask = sents[rows[r0 + r].b].mask())
        for (size_t k = 0; k < E; k++) t[r * E + k] *= T(mask->t[rows[r0 + r].i * E + k]);
    }
    // p = softmax(E_tgt t + b_out); the loss is -log p(y_i)
    for (size_t r = 0; r < n; r++) std::copy_n(w.out_b.data(), Vt, &z[r * Vt]);  // b_out + ...
    gemm_add(n, Vt, E, t.data(), E, 1, wt.tgt_emb.f32.data(), Vt, z.data(), Vt);
    std::vector<T> ex(Vt);
    for (size_t r = 0; r < n; r++) {
      T* p = &z[r * Vt];
      const int y = rows[r0 + r].st->y;
      const T lmax = reduce_max(Vt, p);
      for (size_t v = 0; v < Vt; v++) ex[v] = p[v] - lmax;
      exp_inplace(Vt, ex.data());
      const T sum = reduce_sum(Vt, ex.data());
      const T lse = lmax + std::log(sum);
      double nll = double(lse - p[y]);
      if (e > 0) {  // (1 - eps) (lse - z_y) + eps (lse - mean_c z_c)
        const T mean_logit = reduce_sum(Vt, p) / T(Vt);
        nll = double((T(1) - e) * (lse - p[y]) + e * (lse - mean_logit));
      }
      loss[rows[r0 + r].b] += nll;
      if (!g) continue;
      // p = exp(z - lmax) / sum: the exponentials once per logit, not twice
      const T to_grad = scale / sum;
      for (size_t v = 0; v < Vt; v++) p[v] = ex[v] * to_grad;
      if (e > 0) {
        const T uniform = scale * e / T(Vt);
        for (size_t v = 0; v < Vt; v++) p[v] -= uniform;
        p[y] -= scale * (T(1) - e);
      } else {
        p[y] -= scale;
      }
      vec_add(&g->out_b, p);
    }
    if (!g) continue;
    std::fill(dt.begin(), dt.begin() + n * E, T(0));
    gemm_add(n, E, Vt, z.data(), Vt, 1, w.tgt_emb.f32.data(), E, dt.data(), E);
    gemm_add(Vt, E, n, z.data(), 1, Vt, t.data(), E, g->tgt_emb.f32.data(), E);
    // back through the dropout on t and the maxout
    std::fill(du.begin(), du.begin() + n * ME, T(0));
    for (size_t r = 0; r < n; r++) {
      const DropoutMasks* mask = sents[rows[r0 + r].b].mask();
      for (size_t k = 0; k < E; k++)
        du[r * ME + size_t(arg[r * E + k])] =
            mask ? dt[r * E + k] * T(mask->t[rows[r0 + r].i * E + k]) : dt[r * E + k];
      vec_add(&g->readout_b, &du[r * ME]);
    }
    gemm_add(ME, Uw, n, du.data(), 1, ME, uin.data(), Uw, g->readout_W.f32.data(), Uw);
    std::fill(duin.begin(), duin.begin() + n * Uw, T(0));
    gemm_add(n, Uw, ME, du.data(), ME, 1, w.readout_W.f32.data(), Uw, duin.data(), Uw);
    for (size_t r = 0; r < n; r++)
      rows[r0 + r].st->duin.assign(&duin[r * Uw], &duin[r * Uw] + Uw);
  }
}

template <class T>
double batch_loss(const Config& cfg, const Weights& w, const std::vector<TrainPair>& batch,
                  Weights* grad, const LossOptions& opt) {
  // The backward pass is written for f32 (its products round as the kernels do); double is
  // the finite differences' loss alone (train_model.h).
  assert((std::is_same_v<T, float> || !grad));
  // Pairs go in groups of about kGroupTokens target tokens (a batch of 32 is one group): a
  // group's activations are kept from its forward pass to its backward pass, and a group is
  // what the output layer's products run over.
  constexpr size_t kGroupTokens = 1024;
  size_t tokens = 0;  // N: every target token and each pair's </s>
  for (const TrainPair& p : batch) tokens += p.tgt.size() + 1;
  const Transposed wt(w);
  std::unique_ptr<Grads<T>> g(grad ? new Grads<T>(grad) : nullptr);
  std::vector<double> loss(batch.size(), 0.0);  // per pair, summed in order at the end
  BL_THREAD_LOCAL std::vector<Sentence<T>> pool;  // Sentence::bind: their buffers are kept
  for (size_t b0 = 0; b0 < batch.size();) {
    size_t b1 = b0, group = 0;
    while (b1 < batch.size() && (b1 == b0 || group + batch[b1].tgt.size() + 1 <= kGroupTokens))
      group += batch[b1++].tgt.size() + 1;
    const size_t count = b1 - b0;
    if (pool.size() < count) pool.resize(count);
    for (size_t k = 0; k < count; k++) {
      pool[k].bind(cfg, w, wt);
      pool[k].begin(batch[b0 + k], opt.masks ? &(*opt.masks)[b0 + k] : nullptr);
    }
    forward_group(cfg, w, wt, pool.data(), count);
    top_layers(cfg, w, wt, pool.data(), count, T(1) / T(tokens), opt.label_smoothing, grad,
               &loss[b0]);
    if (g) backward_group(cfg, w, pool.data(), count, g.get());
    b0 = b1;
  }
  if (g) g->flush();
  double sum = 0;
  for (double l : loss) sum += l;
  return sum / double(tokens);
}

template double batch_loss<float>(const Config&, const Weights&, const std::vector<TrainPair>&,
                                  Weights*, const LossOptions&);
template double batch_loss<double>(const Config&, const Weights&, const std::vector<TrainPair>&,
                                   Weights*, const LossOptions&);

}  // namespace bl::train
