"""The reference Transformer (Vaswani et al. 2017) in PyTorch: the oracle for src/core/transformer.cpp.

The last model of the site's lineage: keep the scaled dot product, apply it inside one sequence
(self-attention), and drop the recurrence. Choices, and why:
- pre-LN (LayerNorm before each sublayer, one final LayerNorm per stack): it trains without the
  long warm-up that post-LN needs, and our runs are short;
- sinusoidal positions, as in the paper, so inputs longer than any training input still have
  positions;
- ReLU feed-forward, as in the paper;
- factorised embeddings: words are looked up at width `emb` (128, the RNN models' width) and
  projected to `d_model`. The output layer projects back to `emb` and reuses the target
  embedding (tied), so the two 16k-word tables cost what the RNN's cost and int8 stays <= 6 MB.

Names follow the paper: x the source, y the target, heads h, queries/keys/values Q/K/V.
docs/model-format.md lists the exported tensor names.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

LN_EPS = 1e-5


def default_config(**over):
    cfg = dict(arch="transformer", src_lang="en", tgt_lang="fr", scoring="scaled_dot", emb=128,
               d_model=256, heads=4, ffn=512, enc_layers=2, dec_layers=2, src_vocab=6000,
               tgt_vocab=8000, max_src_len=64, max_tgt_len=80, dropout=0.1)
    cfg.update(over)
    return cfg


def positions(n, d, offset=0):
    """PE(pos, 2i) = sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(...)."""
    pos = torch.arange(offset, offset + n, dtype=torch.float32).unsqueeze(1)
    rate = torch.exp(torch.arange(0, d, 2, dtype=torch.float32) * (-math.log(10000.0) / d))
    pe = torch.zeros(n, d)
    pe[:, 0::2] = torch.sin(pos * rate)
    pe[:, 1::2] = torch.cos(pos * rate)
    return pe


class MultiHeadAttention(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.h, self.dk = heads, d // heads
        self.Wq, self.Wk, self.Wv, self.Wo = (nn.Linear(d, d) for _ in range(4))

    def forward(self, x, mem, mask, given=None):
        """x (B, T, d) queries, mem (B, S, d) keys and values, mask (B, T or 1, S) True = may
        attend. Returns (out, e, alpha) with e, alpha (B, heads, T, S). given: attention edits,
        {(position, head): (S,) weights, or None to switch the head off (zero output)}; then
        alpha holds the given rows, and self.own_alpha what the softmax gave."""
        B, T, S = x.size(0), x.size(1), mem.size(1)
        q = self.Wq(x).view(B, T, self.h, self.dk).transpose(1, 2)
        k = self.Wk(mem).view(B, S, self.h, self.dk).transpose(1, 2)
        v = self.Wv(mem).view(B, S, self.h, self.dk).transpose(1, 2)
        e = (q @ k.transpose(2, 3)) / math.sqrt(self.dk)  # e_ij = q_i . k_j / sqrt(d_k)
        e = e.masked_fill(~mask.unsqueeze(1), float("-inf"))
        alpha = torch.softmax(e.float(), dim=-1).to(v.dtype)
        self.own_alpha = alpha
        if given:
            alpha = alpha.clone()
            for (t, h), row in given.items():
                alpha[:, h, t] = 0.0 if row is None else row  # ablated: all zero, no output
        out = (alpha @ v).transpose(1, 2).reshape(B, T, self.h * self.dk)  # c_i = sum_j a_ij v_j
        return self.Wo(out), e, alpha


class EncoderLayer(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        d = cfg["d_model"]
        self.ln1, self.ln2 = nn.LayerNorm(d, eps=LN_EPS), nn.LayerNorm(d, eps=LN_EPS)
        self.self_attn = MultiHeadAttention(d, cfg["heads"])
        self.ff1, self.ff2 = nn.Linear(d, cfg["ffn"]), nn.Linear(cfg["ffn"], d)
        self.drop = nn.Dropout(cfg.get("dropout", 0.0))

    def forward(self, x, mask):
        a = self.ln1(x)
        out, _, alpha = self.self_attn(a, a, mask)
        x = x + self.drop(out)
        x = x + self.drop(self.ff2(self.drop(F.relu(self.ff1(self.ln2(x))))))
        return x, alpha


class DecoderLayer(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        d = cfg["d_model"]
        self.ln1, self.ln2, self.ln3 = (nn.LayerNorm(d, eps=LN_EPS) for _ in range(3))
        self.self_attn = MultiHeadAttention(d, cfg["heads"])
        self.cross_attn = MultiHeadAttention(d, cfg["heads"])
        self.ff1, self.ff2 = nn.Linear(d, cfg["ffn"]), nn.Linear(cfg["ffn"], d)
        self.drop = nn.Dropout(cfg.get("dropout", 0.0))

    def forward(self, y, mem, self_mask, mem_mask, given=None):
        a = self.ln1(y)
        out, _, _ = self.self_attn(a, a, self_mask)  # causal: position i reads y_1..y_i
        y = y + self.drop(out)
        out, e, alpha = self.cross_attn(self.ln2(y), mem, mem_mask, given)
        y = y + self.drop(out)
        y = y + self.drop(self.ff2(self.drop(F.relu(self.ff1(self.ln3(y))))))
        return y, e, alpha


class Transformer(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        if cfg["d_model"] % cfg["heads"]:
            raise ValueError("d_model must be a multiple of heads")
        self.cfg = cfg
        E, d = cfg["emb"], cfg["d_model"]
        self.src_emb = nn.Embedding(cfg["src_vocab"], E, padding_idx=0)
        self.tgt_emb = nn.Embedding(cfg["tgt_vocab"], E, padding_idx=0)
        nn.init.normal_(self.src_emb.weight, std=E ** -0.5)
        nn.init.normal_(self.tgt_emb.weight, std=E ** -0.5)
        self.src_in = nn.Linear(E, d, bias=False)   # x_j = W_in E x_j * sqrt(d) + PE(j)
        self.tgt_in = nn.Linear(E, d, bias=False)
        self.enc = nn.ModuleList(EncoderLayer(cfg) for _ in range(cfg["enc_layers"]))
        self.dec = nn.ModuleList(DecoderLayer(cfg) for _ in range(cfg["dec_layers"]))
        self.enc_ln, self.dec_ln = nn.LayerNorm(d, eps=LN_EPS), nn.LayerNorm(d, eps=LN_EPS)
        self.out_proj = nn.Linear(d, E, bias=False)  # back to the embedding width (tied output)
        self.out_b = nn.Parameter(torch.zeros(cfg["tgt_vocab"]))
        self.drop = nn.Dropout(cfg.get("dropout", 0.0))

    def embed(self, ids, emb, proj, offset=0):
        d = self.cfg["d_model"]
        return proj(emb(ids)) * math.sqrt(d) + positions(ids.size(1), d, offset).to(
            emb.weight.dtype)

    def encode_all(self, src, src_len):
        """Encoder output (B, S, d), the key mask (B, 1, S), and every layer's self-attention
        (list of (B, heads, S, S))."""
        mask = (torch.arange(src.size(1)).unsqueeze(0) < src_len.unsqueeze(1)).unsqueeze(1)
        x = self.drop(self.embed(src, self.src_emb, self.src_in))
        selfs = []
        for layer in self.enc:
            x, alpha = layer(x, mask)
            selfs.append(alpha)
        return self.enc_ln(x), mask, selfs

    def decode_all(self, tgt_in, mem, mem_mask, offset=0, edits=None):
        """Final decoder states (B, T, d) and each layer's cross-attention (e, alpha).
        edits: {layer: {(position, head): row or None}} (see MultiHeadAttention.forward)."""
        T = tgt_in.size(1)
        causal = torch.ones(T, T, dtype=torch.bool).tril().unsqueeze(0)
        y = self.drop(self.embed(tgt_in, self.tgt_emb, self.tgt_in, offset))
        cross = []
        for li, layer in enumerate(self.dec):
            y, e, alpha = layer(y, mem, causal, mem_mask, (edits or {}).get(li))
            cross.append((e, alpha))
        return self.dec_ln(y), cross

    def readout_t(self, z):
        """What the tied vocabulary projection multiplies (dropout applied)."""
        return self.drop(self.out_proj(z))

    def logits_of(self, z):
        return self.readout_t(z) @ self.tgt_emb.weight.t() + self.out_b

    def forward(self, src, src_len, tgt_in, return_alpha=False, project=True):
        """Logits (and the cross-attention with return_alpha); project=False returns
        readout_t instead, for a loss that does the projection itself (fused_ce.py)."""
        mem, mask, _ = self.encode_all(src, src_len)
        z, cross = self.decode_all(tgt_in, mem, mask)
        logits = self.logits_of(z) if project else self.readout_t(z)
        if return_alpha:  # the last layer's cross-attention, mean over heads: (B, T, S)
            return logits, cross[-1][1].mean(dim=1)
        return logits

    # --- the one-step interface of search.Translator (see model.Bahdanau) -------------------
    # The decoder "state" is the prefix of target ids read so far; each step recomputes the
    # decoder over it. That is slow and simple on purpose: the C++ core uses a key/value cache,
    # and this independent recomputation is what it is tested against.
    def encode(self, src, src_len):
        mem, _, _ = self.encode_all(src, src_len)
        return mem, None, torch.zeros(src.size(0), 0, dtype=torch.long)

    def step(self, y_prev, s_prev, h, keys, mask, edits=None):
        """Returns (e, alpha, c, s, z): e and alpha are the last decoder layer's cross-attention
        averaged over heads (the summary row), c the cross-attention output, s the new prefix,
        z the final decoder state that logits() reads. edits: every position's attention edits
        so far, as decode_all takes them: the prefix is recomputed, and an edit changes what
        later positions read, as the C++ core's key/value cache keeps it."""
        s = torch.cat([s_prev, y_prev.view(-1, 1)], dim=1)
        z, cross = self.decode_all(s, h, mask.unsqueeze(1), edits=edits)
        self.last_cross = [(e[:, :, -1], a[:, :, -1]) for e, a in cross]
        self.last_own_cross = [layer.cross_attn.own_alpha[:, :, -1] for layer in self.dec]
        e, alpha = cross[-1]
        return e[:, :, -1].mean(dim=1), alpha[:, :, -1].mean(dim=1), z[:, -1], s, z[:, -1]

    def logits(self, s, c, z):
        return self.logits_of(z)

    def num_params(self):
        return sum(p.numel() for p in self.parameters())
