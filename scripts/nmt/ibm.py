"""An unsupervised word aligner for the training pairs: the targets of guided attention.

IBM Model 1 with fast_align's diagonal prior (Dyer et al. 2013), trained by EM on the training
split in both directions, each direction's Viterbi links then symmetrized with
grow-diag-final-and (Koehn et al. 2003). No human label goes in: the aligner sees the same
sentence pairs as the translator. `scripts/train --guided-alignment W` adds a loss that pulls
each French word's attention towards the English words this aligner links it to (Chen et al.
2016, "Guided alignment training"); models/README.md reports what it changes.

The EM is vectorized over every (French position, English position) pair of the corpus, about
12 million for the English-French training split, so one iteration takes seconds in numpy.
"""
import numpy as np

NULL = 0  # word id 0 is the empty word a target word may come from
KEY = 1 << 31  # (source word, target word) -> source * KEY + target, below 2^62
UNSEEN = KEY - 1  # the id of a word the aligner was not fitted on: its pairs are in no table
VERSION = 1  # of the links train --guided-alignment caches: raise it when they would change


class Vocab:
    def __init__(self):
        self.ids = {"<null>": NULL}

    def encode(self, tokens):
        return [self.ids.setdefault(t.lower(), len(self.ids)) for t in tokens]


def _triples(src, tgt, p_null, lam):
    """One row per (target position, source position or NULL), rows of a target word
    contiguous: (row, source word, target word, source position, prior)."""
    rows, sw, tw, pos, prior = [], [], [], [], []
    r = 0
    for e, f in zip(src, tgt):
        n, m = len(e), len(f)
        if n == 0 or m == 0:
            continue
        j = np.arange(1, n + 1)
        for i, fw in enumerate(f, 1):
            # fast_align: p(a_i = j) proportional to exp(-lam |i/m - j/n|), NULL fixed at p_null
            d = np.exp(-lam * np.abs(i / m - j / n))
            d = (1.0 - p_null) * d / d.sum()
            rows.append(np.full(n + 1, r))
            sw.append(np.concatenate([[NULL], e]))
            tw.append(np.full(n + 1, fw))
            pos.append(np.arange(-1, n))
            prior.append(np.concatenate([[p_null], d]))
            r += 1
    def cat(parts):
        return np.concatenate(parts) if parts else np.zeros(0)
    return (cat(rows).astype(np.int64), cat(sw).astype(np.int64), cat(tw).astype(np.int64),
            cat(pos).astype(np.int64), cat(prior))


class Direction:
    """p(target word | source word) with a diagonal prior; fit() runs EM, viterbi() links."""

    def __init__(self, p_null=0.08, lam=4.0):
        self.p_null, self.lam = p_null, lam
        self.keys = self.t = None  # after fit(): the sorted pair keys and p(target | source)

    def fit(self, src, tgt, iterations=5):
        rows, sw, tw, _, prior = _triples(src, tgt, self.p_null, self.lam)
        keys, inv = np.unique(sw * KEY + tw, return_inverse=True)
        key_src = keys // KEY
        t = np.ones(len(keys))
        for _ in range(iterations):
            p = t[inv] * prior
            post = p / np.bincount(rows, weights=p)[rows]
            counts = np.bincount(inv, weights=post, minlength=len(keys))
            total = np.bincount(key_src, weights=counts)
            t = counts / total[key_src]
        self.keys, self.t = keys, t
        return self

    def viterbi(self, src, tgt):
        """For each pair, the set of (source position, target position) links; a target word
        whose best source is NULL has none."""
        rows, sw, tw, pos, prior = _triples(src, tgt, self.p_null, self.lam)
        # np.unique left the keys sorted: a binary search finds each pair, 1e-7 for one not seen
        q = sw * KEY + tw
        at = np.minimum(np.searchsorted(self.keys, q), len(self.keys) - 1)
        p = np.where(self.keys[at] == q, self.t[at], 1e-7) * prior
        order = np.lexsort((-p, rows))  # best first inside each row
        first = np.ones(len(order), bool)
        first[1:] = rows[order][1:] != rows[order][:-1]
        best = np.empty(int(rows.max()) + 1 if len(rows) else 0, np.int64)
        best[rows[order][first]] = pos[order][first]
        out, r = [], 0
        for e, f in zip(src, tgt):
            if not e or not f:
                out.append(set())
                continue
            links = {(int(best[r + i]), i) for i in range(len(f)) if best[r + i] >= 0}
            out.append(links)
            r += len(f)
        return out


def grow_diag_final_and(e2f, f2e):
    """Symmetrize two directions' links (both as (source, target) pairs). Growth sweeps a
    sorted snapshot of the links until nothing is added, rather than Koehn's in-place sweep: the
    same rule, so it can differ only where the order of additions matters."""
    union = e2f | f2e
    a = set(e2f & f2e)
    neigh = [(-1, 0), (0, -1), (1, 0), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1)]

    def src_free(j):
        return all(x[0] != j for x in a)

    def tgt_free(i):
        return all(x[1] != i for x in a)
    added = True
    while added:
        added = False
        for j, i in sorted(a):
            for dj, di in neigh:
                q = (j + dj, i + di)
                if q in union and q not in a and (src_free(q[0]) or tgt_free(q[1])):
                    a.add(q)
                    added = True
    for links in (e2f, f2e):  # final-and: a link whose two words are both still unaligned
        for q in sorted(links):
            if q not in a and src_free(q[0]) and tgt_free(q[1]):
                a.add(q)
    return a


class Aligner:
    """Both directions, symmetrized. fit() on token lists, align() any pairs of token lists."""

    def __init__(self, iterations=5, p_null=0.08, lam=4.0):
        self.iterations = iterations
        self.src_vocab, self.tgt_vocab = Vocab(), Vocab()
        self.fwd = Direction(p_null, lam)  # target words from source words
        self.bwd = Direction(p_null, lam)  # source words from target words

    def fit(self, src_tokens, tgt_tokens):
        src = [self.src_vocab.encode(x) for x in src_tokens]
        tgt = [self.tgt_vocab.encode(x) for x in tgt_tokens]
        self.fwd.fit(src, tgt, self.iterations)
        self.bwd.fit(tgt, src, self.iterations)
        return self

    def align(self, src_tokens, tgt_tokens):
        """[set of (source index, target index)] for each pair, indices into the token lists."""
        src = [[self.src_vocab.ids.get(t.lower(), UNSEEN) for t in x] for x in src_tokens]
        tgt = [[self.tgt_vocab.ids.get(t.lower(), UNSEEN) for t in x] for x in tgt_tokens]
        f = self.fwd.viterbi(src, tgt)
        b = [{(j, i) for i, j in links} for links in self.bwd.viterbi(tgt, src)]
        return [grow_diag_final_and(x, y) for x, y in zip(f, b)]


def hard_rows(item, links):
    """The aligner's links as attention rows (alignment.measure's input): a linked French word
    spreads its weight evenly over its English words, an unlinked one puts it all on </s>."""
    n = len(item["en_tokens"])
    rows = []
    for i in range(len(item["fr_tokens"])):
        js = [j for j, k in links if k == i]
        rows.append([1.0 / len(js) if j in js else 0.0 for j in range(n)] + [0.0 if js else 1.0])
    return rows


def main(argv=None):
    """python -m nmt.ibm: fit on the training split and score the aligner on the gold set, as
    scripts/eval scores a model's attention (the teacher of train --guided-alignment)."""
    import argparse
    import json

    from . import alignment, corpus, data
    ap = argparse.ArgumentParser(prog="python -m nmt.ibm", description=main.__doc__)
    ap.add_argument("--data", default=data.DEFAULT_DATA)
    ap.add_argument("--align", default=f"{data.ROOT}/models/eval/align-gold.tsv",
                    help="the hand-made gold set (models/eval/README.md)")
    ap.add_argument("--max-len", type=int, default=30)
    args = ap.parse_args(argv)
    corp = corpus.build(args.data, 6000, 16000, cache_dir=f"{data.ROOT}/build/train")
    train = [x for x in corp["splits"]["train"]
             if 0 < len(x.src_tokens) <= args.max_len and 0 < len(x.tgt_tokens) <= args.max_len]
    aligner = Aligner().fit([x.src_tokens for x in train], [x.tgt_tokens for x in train])
    gold = alignment.read_gold(args.align)
    links = aligner.align([g["en_tokens"] for g in gold], [g["fr_tokens"] for g in gold])
    by_id = {id(g): a for g, a in zip(gold, links)}
    out = alignment.measure(gold, lambda g: hard_rows(g, by_id[id(g)]))
    print(json.dumps({"aligner": "ibm1-diag", "train_pairs": len(train), **out}))
    return out


if __name__ == "__main__":
    main()
