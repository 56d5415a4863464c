"""Corpus loading, the deterministic split, truecasing names and vocabularies."""
import collections
import hashlib
import os
from typing import NamedTuple, Optional

from . import tokenizer as tk

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
DEFAULT_DATA = os.path.normpath(os.path.join(ROOT, "..", "shared", "data", "eng-fra.tsv"))

SPECIALS = ["<pad>", "<unk>", "<s>", "</s>"]
PAD, UNK, BOS, EOS = 0, 1, 2, 3


class Pair(NamedTuple):
    """One sentence pair of the corpus. A tuple underneath, so corpora cached as plain tuples
    and callers that build or compare plain tuples keep working."""
    src: str              # the English text
    tgt: str              # the French text
    src_tokens: list      # spec tokens (docs/tokenization.md)
    tgt_tokens: list
    src_ids: list         # vocabulary ids, </s> not included
    tgt_ids: list


class LinkedPair(NamedTuple):
    """A Pair with the word links an unsupervised aligner drew (scripts/nmt/ibm.py), for
    train --guided-alignment: (j, i) links English token j to French token i."""
    src: str
    tgt: str
    src_tokens: list
    tgt_tokens: list
    src_ids: list
    tgt_ids: list
    links: tuple


def as_pair(x):
    """A Pair, or a LinkedPair when x carries links (a 7th field)."""
    if isinstance(x, (Pair, LinkedPair)):
        return x
    return LinkedPair(*x) if len(x) > 6 else Pair(*x)


def with_links(x, links):
    """x with these links (None: a plain Pair)."""
    return Pair(*x[:6]) if links is None else LinkedPair(*x[:6], links)


def links_of(x):
    """The pair's aligner links, or None when it has none."""
    return x[6] if len(x) > 6 else None


def read_pairs(path):
    if not os.path.exists(path):
        raise SystemExit(
            f"data file not found: {path}\n"
            "Download the Tatoeba English-French pairs (fra-eng.zip) from "
            "https://www.manythings.org/anki/ , unzip it and pass --data PATH/fra.txt")
    pairs = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            cols = line.rstrip("\n").split("\t")
            if len(cols) >= 2 and cols[0].strip() and cols[1].strip():
                pairs.append((tk.prepare(cols[0]), tk.prepare(cols[1])))
    return pairs


def split_of(english):
    """train/dev/test by a hash of the English sentence: all its translations share one split."""
    key = " ".join(tk.normalize(english).split()).encode("utf-8")
    bucket = int(hashlib.sha1(key).hexdigest()[:8], 16) % 100
    return "test" if bucket < 3 else "dev" if bucket < 6 else "train"


def find_names(sentences, lang):
    """Capitalised words that are capitalised mid-sentence more often than not (Tom, Paris, I)."""
    upper = collections.Counter()
    lower = collections.Counter()
    for s in sentences:
        toks = tk.tokenize(s, lang)
        for t in toks[1:]:
            if tk.is_upper(ord(t[0])):
                upper[t] += 1
            else:
                lower[t] += 1
    names = set()
    for t, n in upper.items():
        lo = chr(tk._upper_to_lower(ord(t[0]))) + t[1:]
        if n >= 2 and n > lower[lo]:
            names.add(t)
    return sorted(names)


def build_vocab(token_lists, size):
    counts = collections.Counter(t for toks in token_lists for t in toks)
    words = [w for w, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]
    return SPECIALS + words[: size - len(SPECIALS)]


def encode(tokens, index):
    return [index.get(t, UNK) for t in tokens]
