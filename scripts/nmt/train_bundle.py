"""The data the "Train it yourself" page downloads (issue 25, part 2): a training file in the
format of docs/training-core.md ("The training data file"), which the core's parser reads
(src/core/train_data.cpp).

  scripts/train-data [--data TSV] [--out FILE] [--src-words 2000] [--tgt-words 3000]
                     [--max-words 8] [--heldout 2000]

From the training split only: the vocabularies are the most frequent words of the training
sentences, and the training pairs are those of at most --max-words English words (punctuation aside) whose tokens
all fall inside both vocabularies. The held-out pairs come from the dev split, filtered the same
way. The test split is never read into it, so the project's test figures stay unseen by
anything trained in the browser. Tokens are the project's tokenizer's (spec version 2), with
the names found in the training sentences, as scripts/train does.
"""
import argparse
import os
import sys

from . import data
from . import tokenizer as tk

MAGIC = "bahdanau-train 1"
MAX_TOKEN_BYTES = 256  # the parser's limit (src/core/train_config.cpp)


def tokenized(pairs, src_names, tgt_names):
    return [(tk.tokenize(s, "en", src_names), tk.tokenize(t, "fr", tgt_names)) for s, t in pairs]


def inside(toks, index):
    return all(t in index and len(t.encode("utf-8")) <= MAX_TOKEN_BYTES for t in toks)


def build(pairs, src_words=2000, tgt_words=3000, max_words=8, heldout=2000):
    """pairs: (English, French) as data.read_pairs gives them -> the bundle's parts."""
    train = [p for p in pairs if data.split_of(p[0]) == "train"]
    dev = [p for p in pairs if data.split_of(p[0]) == "dev"]
    src_names = frozenset(data.find_names([s for s, _ in train], "en"))
    tgt_names = frozenset(data.find_names([t for _, t in train], "fr"))
    train_toks = tokenized(train, src_names, tgt_names)
    src_vocab = data.build_vocab([s for s, _ in train_toks], src_words)
    tgt_vocab = data.build_vocab([t for _, t in train_toks], tgt_words)
    src_index = {w: i for i, w in enumerate(src_vocab)}
    tgt_index = {w: i for i, w in enumerate(tgt_vocab)}

    def keep(toks):
        out = []
        for s, t in toks:
            words = sum(1 for w in s if tk.is_word_cp(ord(w[0])))  # punctuation is no word
            if s and t and words <= max_words and inside(s, src_index) and inside(t, tgt_index):
                out.append((data.encode(s, src_index), data.encode(t, tgt_index)))
        return out

    return {"src_vocab": src_vocab, "tgt_vocab": tgt_vocab,
            "src_names": sorted(n for n in src_names if n in src_index),
            "tgt_names": sorted(n for n in tgt_names if n in tgt_index),
            "train": keep(train_toks),
            "heldout": keep(tokenized(dev, src_names, tgt_names))[:heldout]}


def write(bundle, path):
    lines = [MAGIC, "langs en fr"]
    for key in ("src_vocab", "tgt_vocab", "src_names", "tgt_names"):
        lines.append(f"{key} {len(bundle[key])}")
        lines.extend(bundle[key])
    for key in ("train", "heldout"):
        lines.append(f"{key} {len(bundle[key])}")
        lines.extend(" ".join(map(str, s)) + "\t" + " ".join(map(str, t)) for s, t in bundle[key])
    lines.append("end")
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(lines) + "\n")


def main(argv=None):
    ap = argparse.ArgumentParser(prog="scripts/train-data", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=data.DEFAULT_DATA)
    ap.add_argument("--out", default=os.path.join(data.ROOT, "build", "train-en-fr.txt"))
    ap.add_argument("--src-words", type=int, default=2000)
    ap.add_argument("--tgt-words", type=int, default=3000)
    ap.add_argument("--max-words", type=int, default=8)
    ap.add_argument("--heldout", type=int, default=2000)
    args = ap.parse_args(argv)
    for name in ("src_words", "tgt_words"):
        if not 5 <= getattr(args, name) <= 65536:
            ap.error(f"--{name.replace('_', '-')} must be 5..65536")
    if args.max_words < 1 or args.heldout < 0:
        ap.error("--max-words must be at least 1 and --heldout at least 0")
    bundle = build(data.read_pairs(args.data), args.src_words, args.tgt_words, args.max_words,
                   args.heldout)
    if not bundle["train"]:
        raise SystemExit("scripts/train-data: no training pair falls inside the vocabularies")
    write(bundle, args.out)
    print(f"{args.out}: {len(bundle['train']):,} training and {len(bundle['heldout']):,} held-out "
          f"pairs, {len(bundle['src_vocab']):,} + {len(bundle['tgt_vocab']):,} words, "
          f"{os.path.getsize(args.out):,} bytes")


if __name__ == "__main__":
    sys.exit(main())
