// Over 400 lines, on purpose: the forward pass with its saved activations and the backward pass
// through the same steps, read side by side, are one derivation.
#include "core/train_model.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>
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
  std::vector<T> alpha;   // [n] softmax(e_i)
  std::vector<T> c;       // [2H] c_i
  std::vector<T> uin;     // [D + 2H + E] [s_i; c_i; E y_{i-1}]
  std::vector<T> t;       // [E] maxout(W_o uin + b_o), dropout applied
  std::vector<int> arg;   // [E] which of the M pieces won each max
  std::vector<T> dt;      // [E] dL/dt, from the output layer (done during the forward pass)
  GruTape<T> g1, g2;      // paper: g1 the decoder GRU; cgru: GRU1, GRU2
};

// One sentence pair through the network and back (its share of the batch gradient).
template <class T>
class Sentence {
 public:
  Sentence(const Config& cfg, const Weights& w)
      : cfg_(cfg),
        w_(w),
        E(cfg.emb),
        H(cfg.enc_hidden),
        D(cfg.dec_hidden),
        A(cfg.attn),
        M(cfg.maxout),
        Vt(cfg.tgt_vocab),
        attention(cfg.scoring != Scoring::None),
        cgru(cfg.decoder == DecoderKind::CGru) {}

  // The sum over the pair's target tokens of -log p(y_i | y_<i, x). With g, the output layer's
  // share of scale * its gradient is added to g at once, so no step keeps its [Vt] softmax.
  // mask: this pair's dropout masks, or null; eps: label smoothing.
  double forward(const TrainPair& pair, T scale, Weights* g, const DropoutMasks* mask,
                 double eps) {
    scale_ = scale, g_ = g, mask_ = mask, eps_ = T(eps);
    x_ = pair.src;
    x_.push_back(kEos);
    n_ = x_.size();
    encode();
    std::vector<int> y_in{kBos}, y_out(pair.tgt);
    y_in.insert(y_in.end(), pair.tgt.begin(), pair.tgt.end());
    y_out.push_back(kEos);
    steps_.assign(y_in.size(), StepTape<T>());
    std::vector<T> s = s0_, s_next(D);
    double loss = 0;
    for (size_t i = 0; i < y_in.size(); i++) {
      loss += step(i, y_in[i], y_out[i], s.data(), &steps_[i], s_next.data());
      s.swap(s_next);
    }
    return loss;
  }

  // Adds scale * d(forward's sum)/dweights to g (the rest of what forward began).
  void backward(Weights* g) {
    dh_.assign(n_ * 2 * H, T(0));
    dkeys_.assign(attention ? n_ * A : 0, T(0));
    dfixed_.assign(2 * H, T(0));
    std::vector<T> ds(D, T(0)), ds_prev(D);
    for (size_t i = steps_.size(); i-- > 0;) {
      std::fill(ds_prev.begin(), ds_prev.end(), T(0));
      step_backward(i, steps_[i], ds.data(), ds_prev.data(), g);
      ds.swap(ds_prev);
    }
    encode_backward(ds.data(), g);
  }

 private:
  // h_j = [->h_j; <-h_j], k_j = U h_j, s_0 = tanh(W_init <-h_1 + b)
  void encode() {
    emb_.resize(n_ * E);
    fwd_.assign(n_, GruTape<T>());
    bwd_.assign(n_, GruTape<T>());
    h_.assign(n_ * 2 * H, T(0));
    for (size_t t = 0; t < n_; t++)
      for (size_t k = 0; k < E; k++) emb_[t * E + k] = T(w_.src_emb.f32[x_[t] * E + k]);
    if (mask_)
      for (size_t k = 0; k < n_ * E; k++) emb_[k] *= T(mask_->src[k]);
    std::vector<T> zero(H, T(0)), hn(H);
    const T* prev = zero.data();
    for (size_t t = 0; t < n_; t++) {  // ->h_j reads x_1 .. x_T
      gru_forward(w_.enc_fwd, &emb_[t * E], prev, &fwd_[t], hn.data());
      std::copy(hn.begin(), hn.end(), &h_[t * 2 * H]);
      prev = &h_[t * 2 * H];
    }
    prev = zero.data();
    for (size_t t = n_; t-- > 0;) {  // <-h_j reads x_T .. x_1
      gru_forward(w_.enc_bwd, &emb_[t * E], prev, &bwd_[t], hn.data());
      std::copy(hn.begin(), hn.end(), &h_[t * 2 * H + H]);
      prev = &h_[t * 2 * H + H];
    }
    if (attention) {
      keys_.resize(n_ * A);
      for (size_t j = 0; j < n_; j++) matvec(w_.att_U, &h_[j * 2 * H], nullptr, &keys_[j * A]);
    } else {  // c = [->h_T; <-h_1]
      const T* last = h_.data() + (n_ - 1) * 2 * H;
      fixed_.assign(last, last + H);
      fixed_.insert(fixed_.end(), h_.data() + H, h_.data() + 2 * H);
    }
    s0_.resize(D);
    matvec(w_.init_W, &h_[H], w_.init_b.data(), s0_.data());
    for (T& v : s0_) v = std::tanh(v);
  }

  // Decoder step i; returns -log p(y_i).
  double step(size_t i, int y_prev, int y, const T* s_prev, StepTape<T>* st, T* s_out) {
    st->y_prev = y_prev, st->y = y;
    st->ey.resize(E);
    for (size_t k = 0; k < E; k++) st->ey[k] = T(w_.tgt_emb.f32[size_t(y_prev) * E + k]);
    st->eyd = st->ey;
    if (mask_)
      for (size_t k = 0; k < E; k++) st->eyd[k] *= T(mask_->ey[i * E + k]);
    st->s_prev.assign(s_prev, s_prev + D);
    const T* query = s_prev;
    if (cgru) {  // s'_i = GRU1(E y_{i-1}, s_{i-1})
      st->sq.resize(D);
      gru_forward(w_.dec_gru1, st->eyd.data(), s_prev, &st->g1, st->sq.data());
      query = st->sq.data();
    }
    if (attention) {
      st->q.resize(A);
      matvec(w_.att_W, query, nullptr, st->q.data());  // q = W s_{i-1}
      std::vector<T> e(n_);
      if (cfg_.scoring == Scoring::Additive) {  // e_ij = v . tanh(q + k_j)
        for (size_t j = 0; j < n_; j++) {
          T acc = 0;
          for (size_t a = 0; a < A; a++)
            acc += T(w_.att_v[a]) * std::tanh(st->q[a] + keys_[j * A + a]);
          e[j] = acc;
        }
      } else {  // e_ij = (q . k_j) / sqrt(A)
        const T root = T(std::sqrt(double(A)));
        for (size_t j = 0; j < n_; j++) {
          T acc = 0;
          for (size_t a = 0; a < A; a++) acc += st->q[a] * keys_[j * A + a];
          e[j] = acc / root;
        }
      }
      const T emax = *std::max_element(e.begin(), e.end());  // alpha_i = softmax(e_i)
      T sum = 0;
      st->alpha.resize(n_);
      for (size_t j = 0; j < n_; j++) sum += st->alpha[j] = std::exp(e[j] - emax);
      for (T& a : st->alpha) a /= sum;
      st->c.assign(2 * H, T(0));  // c_i = sum_j alpha_ij h_j
      for (size_t j = 0; j < n_; j++)
        for (size_t k = 0; k < 2 * H; k++) st->c[k] += st->alpha[j] * h_[j * 2 * H + k];
    } else {  // c_i = c
      st->c = fixed_;
    }
    if (cgru) {  // s_i = GRU2(c_i, s'_i)
      gru_forward(w_.dec_gru2, st->c.data(), st->sq.data(), &st->g2, s_out);
    } else {  // s_i = GRU([E y_{i-1}; c_i], s_{i-1})
      std::vector<T> in(st->eyd);
      in.insert(in.end(), st->c.begin(), st->c.end());
      gru_forward(w_.dec_gru, in.data(), s_prev, &st->g1, s_out);
    }
    // t = maxout(W_o [s_i; c_i; E y_{i-1}] + b_o)
    st->uin.assign(s_out, s_out + D);
    st->uin.insert(st->uin.end(), st->c.begin(), st->c.end());
    st->uin.insert(st->uin.end(), st->ey.begin(), st->ey.end());
    std::vector<T> u(M * E);
    matvec(w_.readout_W, st->uin.data(), w_.readout_b.data(), u.data());
    st->t.resize(E), st->arg.resize(E);
    for (size_t k = 0; k < E; k++) {
      size_t best = k * M;
      for (size_t p = 1; p < M; p++)
        if (u[k * M + p] > u[best]) best = k * M + p;
      st->t[k] = u[best], st->arg[k] = int(best);
    }
    if (mask_)
      for (size_t k = 0; k < E; k++) st->t[k] *= T(mask_->t[i * E + k]);
    // p = softmax(E_tgt t + b_out); the loss is -log p(y_i)
    std::vector<T> p(Vt);
    matvec(w_.tgt_emb, st->t.data(), w_.out_b.data(), p.data());
    const T lmax = *std::max_element(p.begin(), p.end());
    T sum = 0;
    for (T v : p) sum += std::exp(v - lmax);
    const T lse = lmax + std::log(sum);
    double nll = double(lse - p[y]);
    T mean_logit = 0;
    if (eps_ > 0) {  // (1 - eps) (lse - z_y) + eps (lse - mean_c z_c)
      for (T v : p) mean_logit += v;
      mean_logit /= T(Vt);
      nll = double((T(1) - eps_) * (lse - p[y]) + eps_ * (lse - mean_logit));
    }
    if (g_) {  // dlogits = scale (p - (1 - eps) onehot(y_i) - eps / Vt); logits = E_tgt t + b
      for (T& v : p) v = std::exp(v - lse) * scale_;
      if (eps_ > 0) {
        const T uniform = scale_ * eps_ / T(Vt);
        for (T& v : p) v -= uniform;
        p[y] -= scale_ * (T(1) - eps_);
      } else {
        p[y] -= scale_;
      }
      vec_add(&g_->out_b, p.data());
      outer_add(&g_->tgt_emb, p.data(), st->t.data());
      st->dt.assign(E, T(0));
      matvec_t_add(w_.tgt_emb, p.data(), st->dt.data());
      if (mask_)
        for (size_t k = 0; k < E; k++) st->dt[k] *= T(mask_->t[i * E + k]);
    }
    return nll;
  }

  // Backward of step(): ds is dL/ds_i from the steps after; adds dL/ds_{i-1} to ds_prev.
  void step_backward(size_t step_index, const StepTape<T>& st, const T* ds, T* ds_prev,
                     Weights* g) {
    const std::vector<T>& dt = st.dt;  // the output layer's part: step() did it
    // maxout: the winner of each pair takes dt_k
    std::vector<T> du(M * E, T(0));
    for (size_t k = 0; k < E; k++) du[st.arg[k]] = dt[k];
    outer_add(&g->readout_W, du.data(), st.uin.data());
    vec_add(&g->readout_b, du.data());
    std::vector<T> duin(D + 2 * H + E, T(0));
    matvec_t_add(w_.readout_W, du.data(), duin.data());
    std::vector<T> ds_i(ds, ds + D), dc(duin.data() + D, duin.data() + D + 2 * H),
        dey(duin.data() + D + 2 * H, duin.data() + D + 2 * H + E);
    for (size_t k = 0; k < D; k++) ds_i[k] += duin[k];
    std::vector<T> dsq(cgru ? D : 0, T(0));
    // dL/d(E y_{i-1}) through the GRU input: masked before it joins the readout's share
    std::vector<T> dey_gru(mask_ ? E : 0, T(0));
    T* dey_in = mask_ ? dey_gru.data() : dey.data();
    if (cgru) {  // s_i = GRU2(c_i, s'_i)
      gru_backward(w_.dec_gru2, &g->dec_gru2, st.g2, ds_i.data(), dc.data(), dsq.data());
    } else {  // s_i = GRU([E y_{i-1}; c_i], s_{i-1})
      std::vector<T> din(E + 2 * H, T(0));
      gru_backward(w_.dec_gru, &g->dec_gru, st.g1, ds_i.data(), din.data(), ds_prev);
      for (size_t k = 0; k < E; k++) dey_in[k] += din[k];
      for (size_t k = 0; k < 2 * H; k++) dc[k] += din[E + k];
    }
    if (attention) {
      attention_backward(st, dc.data(), cgru ? dsq.data() : ds_prev, g);
    } else {
      for (size_t k = 0; k < 2 * H; k++) dfixed_[k] += dc[k];
    }
    if (cgru)  // s'_i = GRU1(E y_{i-1}, s_{i-1})
      gru_backward(w_.dec_gru1, &g->dec_gru1, st.g1, dsq.data(), dey_in, ds_prev);
    if (mask_)
      for (size_t k = 0; k < E; k++) dey[k] += T(mask_->ey[step_index * E + k]) * dey_gru[k];
    float* ge = &g->tgt_emb.f32[size_t(st.y_prev) * E];  // E y_{i-1}
    for (size_t k = 0; k < E; k++) ge[k] += float(dey[k]);
  }

  // Backward of score, softmax and mix, from dc = dL/dc_i; adds dL/dquery to dquery.
  void attention_backward(const StepTape<T>& st, const T* dc, T* dquery, Weights* g) {
    // c_i = sum_j alpha_ij h_j: dalpha_j = dc . h_j, dh_j += alpha_j dc
    std::vector<T> de(n_);
    T dot = 0;
    for (size_t j = 0; j < n_; j++) {
      T da = 0;
      for (size_t k = 0; k < 2 * H; k++) {
        da += dc[k] * h_[j * 2 * H + k];
        dh_[j * 2 * H + k] += st.alpha[j] * dc[k];
      }
      de[j] = da;
      dot += st.alpha[j] * da;
    }
    for (size_t j = 0; j < n_; j++) de[j] = st.alpha[j] * (de[j] - dot);  // softmax
    std::vector<T> dq(A, T(0));
    if (cfg_.scoring == Scoring::Additive) {  // e_ij = v . tanh(q + k_j)
      for (size_t j = 0; j < n_; j++)
        for (size_t a = 0; a < A; a++) {
          const T tq = std::tanh(st.q[a] + keys_[j * A + a]);  // as in step()
          g->att_v[a] += float(de[j] * tq);
          const T dpre = de[j] * T(w_.att_v[a]) * (T(1) - tq * tq);
          dkeys_[j * A + a] += dpre;
          dq[a] += dpre;
        }
    } else {  // e_ij = (q . k_j) / sqrt(A)
      const T root = T(std::sqrt(double(A)));
      for (size_t j = 0; j < n_; j++)
        for (size_t a = 0; a < A; a++) {
          dq[a] += de[j] * keys_[j * A + a] / root;
          dkeys_[j * A + a] += de[j] * st.q[a] / root;
        }
    }
    const T* query = cgru ? st.sq.data() : st.s_prev.data();  // q = W query
    outer_add(&g->att_W, dq.data(), query);
    matvec_t_add(w_.att_W, dq.data(), dquery);
  }

  // From dL/ds_0 and the annotations' gradients back to the source embeddings.
  void encode_backward(const T* ds0, Weights* g) {
    std::vector<T> da(D);  // s_0 = tanh(W_init <-h_1 + b)
    for (size_t k = 0; k < D; k++) da[k] = ds0[k] * (T(1) - s0_[k] * s0_[k]);
    outer_add(&g->init_W, da.data(), &h_[H]);
    vec_add(&g->init_b, da.data());
    matvec_t_add(w_.init_W, da.data(), &dh_[H]);
    if (attention) {  // k_j = U h_j
      for (size_t j = 0; j < n_; j++) {
        outer_add(&g->att_U, &dkeys_[j * A], &h_[j * 2 * H]);
        matvec_t_add(w_.att_U, &dkeys_[j * A], &dh_[j * 2 * H]);
      }
    } else {  // c = [->h_T; <-h_1]
      for (size_t k = 0; k < H; k++) {
        dh_[(n_ - 1) * 2 * H + k] += dfixed_[k];
        dh_[H + k] += dfixed_[H + k];
      }
    }
    std::vector<T> demb(n_ * E, T(0)), carry(H, T(0)), dh(H), next(H);
    for (size_t t = n_; t-- > 0;) {  // ->h_j, back from x_T
      for (size_t k = 0; k < H; k++) dh[k] = dh_[t * 2 * H + k] + carry[k];
      std::fill(next.begin(), next.end(), T(0));
      gru_backward(w_.enc_fwd, &g->enc_fwd, fwd_[t], dh.data(), &demb[t * E], next.data());
      carry.swap(next);
    }
    std::fill(carry.begin(), carry.end(), T(0));
    for (size_t t = 0; t < n_; t++) {  // <-h_j, back from x_1
      for (size_t k = 0; k < H; k++) dh[k] = dh_[t * 2 * H + H + k] + carry[k];
      std::fill(next.begin(), next.end(), T(0));
      gru_backward(w_.enc_bwd, &g->enc_bwd, bwd_[t], dh.data(), &demb[t * E], next.data());
      carry.swap(next);
    }
    if (mask_)
      for (size_t k = 0; k < n_ * E; k++) demb[k] *= T(mask_->src[k]);
    for (size_t t = 0; t < n_; t++) {
      float* ge = &g->src_emb.f32[size_t(x_[t]) * E];
      for (size_t k = 0; k < E; k++) ge[k] += float(demb[t * E + k]);
    }
  }

  const Config& cfg_;
  const Weights& w_;
  const size_t E, H, D, A, M, Vt;
  const bool attention, cgru;
  std::vector<int> x_;
  size_t n_ = 0;
  std::vector<T> emb_, h_, keys_, fixed_, s0_;
  std::vector<GruTape<T>> fwd_, bwd_;
  std::vector<StepTape<T>> steps_;
  T scale_ = 0, eps_ = 0;
  Weights* g_ = nullptr;
  const DropoutMasks* mask_ = nullptr;
  std::vector<T> dh_, dkeys_, dfixed_;
};

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

template <class T>
double batch_loss(const Config& cfg, const Weights& w, const std::vector<TrainPair>& batch,
                  Weights* grad, const LossOptions& opt) {
  size_t tokens = 0;  // N: every target token and each pair's </s>
  for (const TrainPair& p : batch) tokens += p.tgt.size() + 1;
  double sum = 0;
  Sentence<T> s(cfg, w);
  for (size_t b = 0; b < batch.size(); b++) {
    const DropoutMasks* mask = opt.masks ? &(*opt.masks)[b] : nullptr;
    sum += s.forward(batch[b], T(1) / T(tokens), grad, mask, opt.label_smoothing);
    if (grad) s.backward(grad);
  }
  return sum / double(tokens);
}

template double batch_loss<float>(const Config&, const Weights&, const std::vector<TrainPair>&,
                                  Weights*, const LossOptions&);
template double batch_loss<double>(const Config&, const Weights&, const std::vector<TrainPair>&,
                                   Weights*, const LossOptions&);

}  // namespace bl::train
