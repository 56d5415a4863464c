"""Reference decoding for one sentence: greedy steps, beam search, <unk> replacement.

This is the oracle the C++ core is tested against, so every choice is spelled out:
ties go to the lower token id, beam scores are summed in double precision, and the
length-normalised score of a hypothesis is its total log-probability / its length, with
</s> counted in the length. docs/model-format.md describes the same algorithm.
"""
import math

import torch

from . import data
from . import tokenizer as tk

TOPK = 5


class Translator:
    def __init__(self, model, meta):
        self.model = model.eval()
        self.cfg = meta["cfg"]
        self.src_itos, self.tgt_itos = meta["src_itos"], meta["tgt_itos"]
        self.src_index = {w: i for i, w in enumerate(self.src_itos)}
        self.src_names = set(meta["src_names"])

    def source(self, text):
        toks = tk.tokenize(text, self.cfg["src_lang"], self.src_names)
        return toks, data.encode(toks, self.src_index)

    def max_len(self, n_src):
        return min(self.cfg["max_tgt_len"], 2 * n_src + 10)

    @torch.no_grad()
    def encode(self, ids):
        src = torch.tensor([ids + [data.EOS]])
        h, keys, s0 = self.model.encode(src, torch.tensor([len(ids) + 1]))
        mask = torch.ones(1, len(ids) + 1, dtype=torch.bool)
        return h, keys, s0, mask

    @torch.no_grad()
    def step(self, enc, y_prev, s_prev):
        """One decoder step: raw scores e, weights alpha, context c, new state s, log-probs."""
        h, keys, _, mask = enc
        e, alpha, c, s, y_emb = self.model.step(torch.tensor([y_prev]), s_prev, h, keys, mask)
        logp = torch.log_softmax(self.model.logits(s, c, y_emb), dim=-1)
        return e[0], alpha[0], c[0], s, logp[0]

    def greedy(self, ids):
        """Greedy decoding; one record per step, the </s> step included."""
        enc = self.encode(ids)
        s, y = enc[2], data.BOS
        steps = []
        for _ in range(self.max_len(len(ids))):
            e, alpha, c, s, logp = self.step(enc, y, s)
            top = topk(logp, TOPK)
            y = top[0][0]
            steps.append({"e": e.tolist(), "alpha": alpha.tolist(), "c": c.tolist(),
                          "token": y, "prob": float(torch.exp(logp[y])),
                          "top_ids": [t for t, _ in top], "top_logp": [lp for _, lp in top]})
            if y == data.EOS:
                break
        return steps

    def beam(self, ids, k):
        """Returns the finished hypotheses, best first: dicts with ids, alphas, score, norm."""
        enc = self.encode(ids)
        live = [{"ids": [], "alphas": [], "score": 0.0, "s": enc[2]}]
        finished = []
        for _ in range(self.max_len(len(ids))):
            cands = []
            outs = []
            for hi, hyp in enumerate(live):
                y = hyp["ids"][-1] if hyp["ids"] else data.BOS
                _, alpha, _, s, logp = self.step(enc, y, hyp["s"])
                outs.append((alpha.tolist(), s))
                for tok, lp in topk(logp, k):
                    cands.append((hyp["score"] + lp, hi, tok))
            cands.sort(key=lambda x: (-x[0], x[1], x[2]))
            width = k - len(finished)
            nxt = []
            for score, hi, tok in cands[:width]:
                hyp = live[hi]
                new = {"ids": hyp["ids"] + [tok], "alphas": hyp["alphas"] + [outs[hi][0]],
                       "score": score, "s": outs[hi][1]}
                if tok == data.EOS:
                    new["norm"] = score / len(new["ids"])
                    finished.append(new)
                else:
                    nxt.append(new)
            live = nxt
            if not live or len(finished) >= k:
                break
        for hyp in live:  # ran out of length: keep them, unterminated
            hyp["norm"] = hyp["score"] / len(hyp["ids"])
            finished.append(hyp)
        order = sorted(range(len(finished)), key=lambda i: (-finished[i]["norm"], i))
        return [finished[i] for i in order]

    @torch.no_grad()
    def self_attention(self, ids):
        """The comparison view's illustration (scaled_dot models): the source attending to itself,
        e_ij = (W_k h_i) . (W_k h_j) / sqrt(A), a row-wise softmax. Queries reuse the key
        projection because W_q reads decoder states, not annotations (src/core/self_attention.cpp)."""
        _, keys, _, _ = self.encode(ids)
        k = keys[0]
        scores = (k @ k.T) / math.sqrt(k.size(1))
        return scores, torch.softmax(scores, dim=1)

    def target_tokens(self, out_ids, alphas, src_tokens):
        """Ids -> tokens, </s> dropped, <unk> replaced by the most-attended source word."""
        toks = []
        for tid, alpha in zip(out_ids, alphas):
            if tid == data.EOS:
                break
            if tid == data.UNK and src_tokens:
                j = max(range(len(src_tokens)), key=lambda k: (alpha[k], -k))
                toks.append(src_tokens[j])
            else:
                toks.append(self.tgt_itos[tid])
        return toks

    def translate(self, text, beam=1):
        src_tokens, ids = self.source(text)
        if not src_tokens:
            return {"src_tokens": [], "tgt_tokens": [], "text": "", "ids": []}
        if beam <= 1:
            steps = self.greedy(ids)
            out_ids = [st["token"] for st in steps]
            alphas = [st["alpha"] for st in steps]
        else:
            best = self.beam(ids, beam)[0]
            out_ids, alphas = best["ids"], best["alphas"]
        toks = self.target_tokens(out_ids, alphas, src_tokens)
        return {"src_tokens": src_tokens, "tgt_tokens": toks, "ids": out_ids,
                "text": tk.detokenize(toks, self.cfg["tgt_lang"])}


def topk(logp, k):
    """Top k (id, log-prob), ties to the lower id (torch.topk makes no such promise)."""
    vals, idx = torch.sort(logp, descending=True, stable=True)
    return [(int(i), float(v)) for v, i in zip(vals[:k], idx[:k])]
