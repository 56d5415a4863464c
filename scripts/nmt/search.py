"""Reference decoding for one sentence: greedy steps, beam search, <unk> replacement.

This is the oracle the C++ core is tested against, so every choice is spelled out:
ties go to the lower token id, beam scores are summed in double precision, and the
length-normalised score of a hypothesis is its total log-probability / its length, with
</s> counted in the length. docs/model-format.md describes the same algorithm.

<unk> is written only where its replacement would copy a name, a number or a word the target
language has: the source word with the largest weight in the step's row has an upper-case
letter or a digit, or is in the target vocabulary. Elsewhere the search takes the best word
that is not <unk>, because copying a lower-case English word into the French ("Il a runs.")
is always wrong.
"""
import math

import torch

from . import attention_edit, data
from . import tokenizer as tk

TOPK = 5


def copyable(token, tgt_index):
    """A source token that <unk> replacement may copy: it has an upper-case letter (per the
    tokenizer's case table) or an ASCII digit, so it looks like a name or a number, or it is a
    word of the target vocabulary ("certain", "art")."""
    return token in tgt_index or any(tk.is_upper(ord(ch)) or "0" <= ch <= "9" for ch in token)


def attended(alpha, n_src):
    """Index of the source token (</s> excluded) with the largest weight, ties to the earlier."""
    return max(range(n_src), key=lambda k: (alpha[k], -k))


def may_write_unk(alpha, copy_mask):
    """copy_mask: copyable() of each source token, or None (every <unk> allowed). A model
    without attention (an empty row) has no source word to copy, so it never writes <unk>."""
    if not alpha:
        return False
    return copy_mask is None or copy_mask[attended(alpha, len(copy_mask))]


class Translator:
    def __init__(self, model, meta, copy_rule=True):
        """copy_rule=False writes <unk> wherever the model ranks it first (for measuring what
        the rule changes; the engines always apply it)."""
        self.model = model.eval()
        self.copy_rule = copy_rule
        self.cfg = meta["cfg"]
        self.src_itos, self.tgt_itos = meta["src_itos"], meta["tgt_itos"]
        self.src_index = {w: i for i, w in enumerate(self.src_itos)}
        self.src_names = set(meta["src_names"])
        self.tgt_index = {w: i for i, w in enumerate(self.tgt_itos)}
        self.tgt_names = set(meta["tgt_names"])
        # A model file's own spec (export.load_model); a training checkpoint's is the current one.
        self.tk_version = int(meta.get("tokenizer_version", tk.SPEC_VERSION))

    def source(self, text):
        toks = tk.tokenize(text, self.cfg["src_lang"], self.src_names, self.src_index,
                           version=self.tk_version)
        return toks, data.encode(toks, self.src_index)

    def target(self, text):
        toks = tk.tokenize(text, self.cfg["tgt_lang"], self.tgt_names, self.tgt_index,
                           version=self.tk_version)
        return toks, data.encode(toks, self.tgt_index)

    def max_len(self, n_src):
        return min(self.cfg["max_tgt_len"], 2 * n_src + 10)

    @torch.no_grad()
    def encode(self, ids):
        src = torch.tensor([ids + [data.EOS]])
        h, keys, s0 = self.model.encode(src, torch.tensor([len(ids) + 1]))
        mask = torch.ones(1, len(ids) + 1, dtype=torch.bool)
        return h, keys, s0, mask

    @torch.no_grad()
    def step(self, enc, y_prev, s_prev, edits=None, i=0):
        """One decoder step: raw scores e, weights alpha, context c, new state s, log-probs.
        edits: attention_edit.plan()'s list, for output position i."""
        h, keys, _, mask = enc
        y = torch.tensor([y_prev])
        if not edits:
            out = self.model.step(y, s_prev, h, keys, mask)
        elif self.cfg.get("arch") == "transformer":  # every edit so far: the prefix is re-run
            out = self.model.step(y, s_prev, h, keys, mask,
                                  edits=attention_edit.transformer_edits(edits, i))
        else:
            row = edits[i].get((0, 0))
            out = self.model.step(y, s_prev, h, keys, mask,
                                  given=None if row is None else row.unsqueeze(0))
        e, alpha, c, s, y_emb = out
        logp = torch.log_softmax(self.model.logits(s, c, y_emb), dim=-1)
        return e[0], alpha[0], c[0], s, logp[0]

    def edit_record(self, rec, e, edits, i):
        """Adds what an edited step reports: "edited", the model's own row "own_alpha" (and a
        Transformer's "cross_own", every layer and head)."""
        if not edits or not edits[i]:
            return
        rec["edited"] = True
        if self.cfg.get("arch") == "transformer":
            own = self.model.last_own_cross
            rec["cross_own"] = [a[0].tolist() for a in own]
            rec["own_alpha"] = own[-1][0].mean(dim=0).tolist()
        else:
            rec["own_alpha"] = torch.softmax(e, dim=0).tolist()

    def layers(self):
        """A Transformer's last step, every decoder layer's cross-attention per head:
        {"e": [layer][head][j], "alpha": ...}; None for the RNN models."""
        cross = getattr(self.model, "last_cross", None)
        if cross is None:
            return None
        return {"e": [e[0].tolist() for e, _ in cross], "alpha": [a[0].tolist() for _, a in cross]}

    def greedy(self, ids, copy_mask=None, edits=None):
        """Greedy decoding; one record per step, the </s> step included. copy_mask: see
        may_write_unk (translate passes the source tokens' copyable()). edits: attention edits
        (attention_edit.py)."""
        enc = self.encode(ids)
        s, y = enc[2], data.BOS
        steps = []
        plan = attention_edit.plan(edits, self.cfg, len(ids) + 1, self.max_len(len(ids))) \
            if edits else None
        for i in range(self.max_len(len(ids))):
            e, alpha, c, s, logp = self.step(enc, y, s, plan, i)
            top = topk(logp, TOPK)
            y = top[0][0]
            row = alpha.tolist()
            if y == data.UNK and not may_write_unk(row, copy_mask):
                y = top[1][0]
            steps.append({"e": e.tolist(), "alpha": row, "c": c.tolist(),
                          "token": y, "prob": float(torch.exp(logp[y])),
                          "top_ids": [t for t, _ in top], "top_logp": [lp for _, lp in top]})
            cross = self.layers()
            if cross is not None:
                steps[-1]["cross"] = cross
            self.edit_record(steps[-1], e, plan, i)
            if y == data.EOS:
                break
        return steps

    def force(self, ids, tgt_ids, edits=None):
        """Forced decoding (teacher forcing): the decoder reads the given target ids instead of
        its own choices. One record per target token plus the closing </s>, with the same fields
        as a greedy step; "prob" is the probability the model gives the forced token."""
        if len(tgt_ids) + 1 > self.cfg["max_tgt_len"]:
            raise ValueError(f"target has {len(tgt_ids)} tokens; this model writes at most "
                             f"{self.cfg['max_tgt_len'] - 1}")
        enc = self.encode(ids)
        s, y = enc[2], data.BOS
        steps = []
        plan = attention_edit.plan(edits, self.cfg, len(ids) + 1, len(tgt_ids) + 1) \
            if edits else None
        for i, tok in enumerate(list(tgt_ids) + [data.EOS]):
            e, alpha, c, s, logp = self.step(enc, y, s, plan, i)
            top = topk(logp, TOPK)
            steps.append({"e": e.tolist(), "alpha": alpha.tolist(), "c": c.tolist(),
                          "token": tok, "prob": float(torch.exp(logp[tok])),
                          "top_ids": [t for t, _ in top], "top_logp": [lp for _, lp in top]})
            cross = self.layers()
            if cross is not None:
                steps[-1]["cross"] = cross
            self.edit_record(steps[-1], e, plan, i)
            y = tok
        return steps

    def beam(self, ids, k, copy_mask=None):
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
                unk_ok = may_write_unk(outs[-1][0], copy_mask)
                best = [(tok, lp) for tok, lp in topk(logp, k + 1) if unk_ok or tok != data.UNK]
                for tok, lp in best[:k]:
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
    def encoder_self_attention(self, ids):
        """A Transformer's real encoder self-attention: per layer, per head, the scores e and
        the weights alpha over the source and </s>, (layers, heads, n+1, n+1)."""
        src = torch.tensor([ids + [data.EOS]])
        _, _, selfs = self.model.encode_all(src, torch.tensor([len(ids) + 1]))
        return torch.stack([a[0] for a in selfs])

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
            if tid == data.UNK and src_tokens and alpha:
                toks.append(src_tokens[attended(alpha, len(src_tokens))])
            else:
                toks.append(self.tgt_itos[tid])
        return toks

    def translate(self, text, beam=1):
        src_tokens, ids = self.source(text)
        if not src_tokens:
            return {"src_tokens": [], "tgt_tokens": [], "text": "", "ids": []}
        mask = [copyable(t, self.tgt_index) for t in src_tokens] if self.copy_rule else None
        if beam <= 1:
            steps = self.greedy(ids, mask)
            out_ids = [st["token"] for st in steps]
            alphas = [st["alpha"] for st in steps]
        else:
            best = self.beam(ids, beam, mask)[0]
            out_ids, alphas = best["ids"], best["alphas"]
        toks = self.target_tokens(out_ids, alphas, src_tokens)
        return {"src_tokens": src_tokens, "tgt_tokens": toks, "ids": out_ids,
                "text": tk.detokenize(toks, self.cfg["tgt_lang"], self.tk_version)}


def topk(logp, k):
    """Top k (id, log-prob), ties to the lower id (torch.topk makes no such promise)."""
    vals, idx = torch.sort(logp, descending=True, stable=True)
    return [(int(i), float(v)) for v, i in zip(vals[:k], idx[:k])]
