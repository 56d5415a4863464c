"""Tokenised, split and id-encoded corpus, cached because tokenising 166k pairs takes a minute."""
import hashlib
import os
import pickle

from . import data
from . import tokenizer as tk


def file_sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def build(path, src_vocab, tgt_vocab, src_lang="en", tgt_lang="fr", limit=None, cache_dir=None):
    """Returns dict with vocabularies, names and per-split lists of data.Pair."""
    key = None
    if cache_dir:
        key = hashlib.sha1(f"{file_sha256(path)}:{src_vocab}:{tgt_vocab}:{src_lang}:{tgt_lang}:"
                           f"{limit}:{tk.SPEC_VERSION}".encode()).hexdigest()[:16]
        cache = os.path.join(cache_dir, f"corpus-{key}.pkl")
        if os.path.exists(cache):
            with open(cache, "rb") as f:
                out = pickle.load(f)
            # caches written before data.Pair hold plain tuples
            out["splits"] = {k: [data.as_pair(x) for x in v] for k, v in out["splits"].items()}
            return out
    pairs = data.read_pairs(path)
    if limit:
        pairs = pairs[:limit]
    splits = {"train": [], "dev": [], "test": []}
    for src, tgt in pairs:
        splits[data.split_of(src)].append((src, tgt))
    train = splits["train"]
    src_names = data.find_names([p[0] for p in train], src_lang)
    tgt_names = data.find_names([p[1] for p in train], tgt_lang)
    sn, tn = set(src_names), set(tgt_names)
    out = {"src_names": src_names, "tgt_names": tgt_names, "splits": {}}
    toks = {}
    for name, items in splits.items():
        toks[name] = [(s, t, tk.tokenize(s, src_lang, sn), tk.tokenize(t, tgt_lang, tn))
                      for s, t in items]
    out["src_itos"] = data.build_vocab([st for _, _, st, _ in toks["train"]], src_vocab)
    out["tgt_itos"] = data.build_vocab([tt for _, _, _, tt in toks["train"]], tgt_vocab)
    si = {w: i for i, w in enumerate(out["src_itos"])}
    ti = {w: i for i, w in enumerate(out["tgt_itos"])}
    for name, items in toks.items():
        out["splits"][name] = [data.Pair(s, t, st, tt, data.encode(st, si), data.encode(tt, ti))
                               for s, t, st, tt in items]
    if cache_dir:
        os.makedirs(cache_dir, exist_ok=True)
        with open(cache, "wb") as f:
            pickle.dump(out, f)
    return out
