"""The reference Bahdanau et al. (2014) model in PyTorch: the independent oracle for the C++ core.

Names follow the paper: annotations h, decoder state s, context c, weights alpha.
The tensor names of the exported file are listed in docs/model-format.md.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

# "none" is the paper's RNNencdec baseline: no attention, one fixed context c = [->h_T; <-h_1]
# for every output step, fed where c_i goes in the attention models.
SCORINGS = ("additive", "scaled_dot", "none")
# Where the attention query comes from. "paper": s_{i-1}, the state before the decoder reads
# y_{i-1} (Bahdanau et al. 2014). "cgru": the conditional GRU of Nematus (Sennrich et al. 2017):
# a first GRU reads y_{i-1}, attention scores with its state s'_i, a second GRU reads c_i.
DECODERS = ("paper", "cgru")


def default_config(**over):
    cfg = dict(src_lang="en", tgt_lang="fr", scoring="additive", emb=128, enc_hidden=256,
               dec_hidden=256, attn=128, maxout=2, src_vocab=6000, tgt_vocab=8000,
               max_src_len=64, max_tgt_len=80, dropout=0.2, decoder="paper")
    cfg.update(over)
    return cfg


class Bahdanau(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        if cfg["scoring"] not in SCORINGS:
            raise ValueError(f"scoring must be one of {SCORINGS}, not {cfg['scoring']!r}")
        if cfg.get("decoder", "paper") not in DECODERS:
            raise ValueError(f"decoder must be one of {DECODERS}, not {cfg['decoder']!r}")
        self.cgru = cfg.get("decoder", "paper") == "cgru"
        self.cfg = cfg
        E, H, D, A = cfg["emb"], cfg["enc_hidden"], cfg["dec_hidden"], cfg["attn"]
        self.src_emb = nn.Embedding(cfg["src_vocab"], E, padding_idx=0)
        self.encoder = nn.GRU(E, H, batch_first=True, bidirectional=True)
        self.init = nn.Linear(H, D)                     # s_0 = tanh(W_s <-h_1 + b)
        self.attention = cfg["scoring"] != "none"
        if self.attention:
            self.att_W = nn.Linear(D, A, bias=False)    # query from s_{i-1} (cgru: s'_i)
            self.att_U = nn.Linear(2 * H, A, bias=False)  # keys from h_j
        self.att_v = nn.Parameter(torch.empty(A).uniform_(-0.1, 0.1)) \
            if cfg["scoring"] == "additive" else None
        self.tgt_emb = nn.Embedding(cfg["tgt_vocab"], E, padding_idx=0)
        if self.cgru:
            self.decoder1 = nn.GRUCell(E, D)            # s'_i = GRU1(E y_{i-1}, s_{i-1})
            self.decoder2 = nn.GRUCell(2 * H, D)        # s_i = GRU2(c_i, s'_i)
        else:
            self.decoder = nn.GRUCell(E + 2 * H, D)     # s_i = GRU([E y_{i-1}; c_i], s_{i-1})
        # readout t_i = maxout(W_o [s_i; c_i; E y_{i-1}] + b); output size E because the
        # vocabulary projection is tied to the target embedding (keeps int8 under 4 MB).
        self.readout = nn.Linear(D + 2 * H + E, cfg["maxout"] * E)
        self.out_b = nn.Parameter(torch.zeros(cfg["tgt_vocab"]))
        self.drop = nn.Dropout(cfg.get("dropout", 0.0))

    # --- encoder -------------------------------------------------------------------------
    def encode(self, src, src_len):
        """h_j = [->h_j; <-h_j] for every source position, keys U h_j (None without
        attention), and s_0."""
        x = self.drop(self.src_emb(src))
        packed = nn.utils.rnn.pack_padded_sequence(x, src_len.cpu(), batch_first=True,
                                                   enforce_sorted=False)
        out, h_n = self.encoder(packed)
        h, _ = nn.utils.rnn.pad_packed_sequence(out, batch_first=True, total_length=src.size(1))
        keys = self.att_U(h) if self.attention else None
        s0 = torch.tanh(self.init(h_n[1]))  # backward state after reading x_T..x_1
        return h, keys, s0

    # --- one decoder step -----------------------------------------------------------------
    def score(self, s_prev, keys):
        q = self.att_W(s_prev)
        if self.att_v is not None:  # e_ij = v^T tanh(W s_{i-1} + U h_j)
            return torch.tanh(keys + q.unsqueeze(1)) @ self.att_v
        # e_ij = (W_q s_{i-1}) . (W_k h_j) / sqrt(d)
        return (keys @ q.unsqueeze(2)).squeeze(2) / math.sqrt(q.size(1))

    def attend(self, s_prev, h, keys, mask, given=None):
        """(e, alpha, c). Without attention e and alpha are empty (0 columns) and c is the
        fixed vector [->h_T; <-h_1]: the forward state after the last token (</s>), the
        backward state after reading back to the first. given: (B, S) weights that replace
        softmax(e) (an attention edit; e stays the model's own scores)."""
        if not self.attention:
            H = h.size(2) // 2
            last = mask.sum(1) - 1
            fwd = h[torch.arange(h.size(0)), last, :H]
            c = torch.cat([fwd, h[:, 0, H:]], dim=1)
            empty = h.new_zeros(h.size(0), 0)
            return empty, empty, c
        e = self.score(s_prev, keys).masked_fill(~mask, float("-inf"))
        alpha = torch.softmax(e, dim=1) if given is None else given
        c = torch.bmm(alpha.unsqueeze(1), h).squeeze(1)  # c_i = sum_j alpha_ij h_j
        return e, alpha, c

    def step(self, y_prev, s_prev, h, keys, mask, given=None):
        """Returns (e, alpha, c, s, y_emb) for output position i. given: weights to mix c_i from
        instead of the softmax's (see attend)."""
        y_emb = self.tgt_emb(y_prev)
        if self.cgru:
            q = self.decoder1(self.drop(y_emb), s_prev)  # s'_i: the query has read y_{i-1}
            e, alpha, c = self.attend(q, h, keys, mask, given)
            s = self.decoder2(c, q)
        else:
            e, alpha, c = self.attend(s_prev, h, keys, mask, given)
            s = self.decoder(torch.cat([self.drop(y_emb), c], dim=1), s_prev)
        return e, alpha, c, s, y_emb

    def readout_t(self, s, c, y_emb):
        """t_i, the readout that the tied vocabulary projection multiplies (dropout applied)."""
        u = self.readout(torch.cat([s, c, y_emb], dim=-1))
        t = u.view(*u.shape[:-1], -1, self.cfg["maxout"]).max(dim=-1).values  # maxout pairs
        return self.drop(t)

    def logits(self, s, c, y_emb):
        return self.readout_t(s, c, y_emb) @ self.tgt_emb.weight.t() + self.out_b

    # --- teacher-forced training pass --------------------------------------------------------
    def forward(self, src, src_len, tgt_in, return_alpha=False, project=True):
        """Logits [B, T, V] (and alpha with return_alpha). project=False returns the readout t
        [B, T, E] instead, for a loss that does the projection itself (fused_ce.py)."""
        h, keys, s = self.encode(src, src_len)
        mask = torch.arange(src.size(1)).unsqueeze(0) < src_len.unsqueeze(1)
        states, contexts, embs, alphas = [], [], [], []
        for i in range(tgt_in.size(1)):
            _, alpha, c, s, y_emb = self.step(tgt_in[:, i], s, h, keys, mask)
            states.append(s)
            contexts.append(c)
            embs.append(y_emb)
            alphas.append(alpha)
        # The readout and the vocabulary projection need no recurrence: batch them over time.
        out = self.logits if project else self.readout_t
        logits = out(torch.stack(states, 1), torch.stack(contexts, 1), torch.stack(embs, 1))
        return (logits, torch.stack(alphas, 1)) if return_alpha else logits  # no attention: (B, T, 0)

    def num_params(self):
        return sum(p.numel() for p in self.parameters())
