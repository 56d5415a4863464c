"""The data the "Train it yourself" page downloads (issue 25, part 2): a training file in the
format of docs/training-core.md ("The training data file"), which the core's parser reads
(src/core/train_data.cpp).

  scripts/train-data [--data TSV] [--out FILE] [--src-words 2000] [--tgt-words 3000]
                     [--max-words 8] [--heldout 200] [--max-pairs N]
                     [--gold TSV] [--gold-out FILE]

With no arguments it writes what the "Train it yourself" page loads: web/data/train-en-fr.bin,
its attribution web/data/train-en-fr.README.md, and web/data/train-en-fr-gold.json, the pairs
of models/eval/align-gold.tsv that the trained model can read (below). A FILE ending in .bin is
written gzip-compressed (level 9, no name or time in the header, so the same data gives the
same bytes): the page then downloads a quarter of the bytes from any static host, since no
host compresses an unknown type such as .bin on its own; web/lib/trainer.js inflates it. Any
other FILE is the plain text of the format. A .bin gets the README beside it.

From the training split only: the vocabularies are the most frequent words of the training
sentences, and the training pairs are those of at most --max-words English words (punctuation aside) whose tokens
all fall inside both vocabularies. The held-out pairs come from the dev split, filtered the same
way. The test split is never read into it, so the project's test figures stay unseen by
anything trained in the browser. Tokens are the project's tokenizer's (spec version 2), with
the names found in the training sentences, as scripts/train does.
"""
import argparse
import gzip
import json
import os
import random
import sys

from . import alignment, data
from . import tokenizer as tk

MAGIC = "bahdanau-train 1"
MAX_TOKEN_BYTES = 256  # the parser's limit (src/core/train_config.cpp)


def tokenized(pairs, src_names, tgt_names):
    return [(tk.tokenize(s, "en", src_names), tk.tokenize(t, "fr", tgt_names)) for s, t in pairs]


def inside(toks, index):
    return all(t in index and len(t.encode("utf-8")) <= MAX_TOKEN_BYTES for t in toks)


ATTRIBUTION = ("Sentences from the Tatoeba Project (https://tatoeba.org), as packaged by "
               "www.manythings.org/anki; licence CC-BY 2.0 FR "
               "(https://creativecommons.org/licenses/by/2.0/fr/).")
WEB_DATA = os.path.join(data.ROOT, "web", "data")
DEFAULT_OUT = os.path.join(WEB_DATA, "train-en-fr.bin")
DEFAULT_GOLD_OUT = os.path.join(WEB_DATA, "train-en-fr-gold.json")
DEFAULT_GOLD = os.path.join(data.ROOT, "models", "eval", "align-gold.tsv")


# Held-out pairs: the page evaluates them all at every measure (every 3 s of training by
# default), on the trainer's scalar forward pass: 2,000 took 40 s on this loaded machine, 200
# take a tenth of that. 200 pairs (about 1,800 target tokens) still give the mean loss a
# standard error of about 0.06 nats (if a token's loss spreads by about 2.5), less than the
# curve moves between two measures early on.
HELDOUT = 200


def build(pairs, src_words=2000, tgt_words=3000, max_words=8, heldout=HELDOUT, max_pairs=None):
    """pairs: (English, French) as data.read_pairs gives them -> the bundle's parts.
    max_pairs: keep that many training pairs, a seeded random subset (the corpus is sorted by
    length, so its first pairs would all be the shortest), in corpus order; the held-out pairs
    are such a sample of the dev pairs."""
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
            "train": subset(keep(train_toks), max_pairs),
            # a seeded sample, as for max_pairs: the first ones would be the shortest
            "heldout": subset(keep(tokenized(dev, src_names, tgt_names)), heldout)}


def subset(pairs, n):
    if n is None or n >= len(pairs):
        return pairs
    keep = sorted(random.Random(25).sample(range(len(pairs)), n))
    return [pairs[i] for i in keep]


def gold_pairs(bundle, gold_path):
    """The gold pairs whose every token, as the trained model will tokenize it, is inside the
    bundle's vocabularies, with their links. The model tokenizes with the bundle's names and its
    vocabularies' case repair (tokenizer.tokenize(..., vocab)), the gold's indices refer to the
    spec tokens without names (alignment.read_gold): names only change case, never the split,
    and that is checked here, token by token. A test set: it is only measured, never used to
    choose anything, and nothing here depends on how a model does on it."""
    src = {w: i for i, w in enumerate(bundle["src_vocab"])}
    tgt = {w: i for i, w in enumerate(bundle["tgt_vocab"])}
    src_names, tgt_names = frozenset(bundle["src_names"]), frozenset(bundle["tgt_names"])
    out, total = [], 0
    for it in alignment.read_gold(gold_path):
        total += 1
        en = tk.tokenize(it["en"], "en", src_names, src)
        fr = tk.tokenize(it["fr"], "fr", tgt_names, tgt)
        for mine, spec, where in ((en, it["en_tokens"], "English"), (fr, it["fr_tokens"], "French")):
            if [t.lower() for t in mine] != [t.lower() for t in spec]:
                raise SystemExit(f"{gold_path}:{it['line']}: the model's {where} tokens {mine} are "
                                 f"not the gold's {spec}: its link indices would not hold")
        if not (inside(en, src) and inside(fr, tgt)):
            continue
        out.append({"line": it["line"], "en": it["en"], "fr": it["fr"],
                    "enTokens": en, "frTokens": fr,
                    "sure": sorted(map(list, it["sure"]), key=lambda l: (l[1], l[0])),
                    "possible": sorted(map(list, it["possible"]), key=lambda l: (l[1], l[0]))})
    return {"about": "Gold word alignments (models/eval/align-gold.tsv, a test set: only measured, "
                     "never trained or tuned on) whose tokens all fall inside the training "
                     "bundle's vocabularies. Links are [english index, french index] into "
                     "enTokens and frTokens, the trained model's tokens; possible includes sure.",
            "attribution": ATTRIBUTION, "pairs": out, "of": total}


def text(bundle):
    lines = [MAGIC, "langs en fr"]
    for key in ("src_vocab", "tgt_vocab", "src_names", "tgt_names"):
        lines.append(f"{key} {len(bundle[key])}")
        lines.extend(bundle[key])
    for key in ("train", "heldout"):
        lines.append(f"{key} {len(bundle[key])}")
        lines.extend(" ".join(map(str, s)) + "\t" + " ".join(map(str, t)) for s, t in bundle[key])
    lines.append("end")
    return ("\n".join(lines) + "\n").encode("utf-8")


def write(bundle, path):
    """-> the size of the plain text; a .bin is written gzip-compressed."""
    plain = text(bundle)
    # mtime 0 and no file name: the bytes depend on the data only
    body = gzip.compress(plain, compresslevel=9, mtime=0) if path.endswith(".bin") else plain
    with open(path, "wb") as f:
        f.write(body)
    return len(plain)


def gold_json(gold):
    """One pair a line: small diffs when the bundle changes."""
    head = {k: v for k, v in gold.items() if k != "pairs"}
    lines = ["{" + ", ".join(f"{json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}"
                             for k, v in head.items()) + ', "pairs": [']
    lines.append(",\n".join(json.dumps(p, ensure_ascii=False) for p in gold["pairs"]))
    return "\n".join(lines) + "\n]}\n"


def readme(bundle, args, raw, packed):
    return f"""# train-en-fr.bin: the data of the "Train it yourself" page

{ATTRIBUTION}
Required attribution: "www.manythings.org/anki and tatoeba.org".

Written by `scripts/train-data` (scripts/nmt/train_bundle.py) from the train and dev splits of
`eng-fra.tsv` (scripts/nmt/data.py: split_of); the test split is never read into it.
The format is docs/training-core.md's "training data file", gzip-compressed
({raw:,} bytes inflated, {packed:,} as stored).

- vocabularies: the {len(bundle['src_vocab']):,} English and {len(bundle['tgt_vocab']):,} French tokens most frequent in the
  training split ({args.src_words} and {args.tgt_words} asked), {len(bundle['src_names'])} and {len(bundle['tgt_names'])} names;
- training pairs: {len(bundle['train']):,}, those of at most {args.max_words} English words whose every token
  is in both vocabularies{'' if args.max_pairs is None else f' (a seeded subset of {args.max_pairs:,})'};
- held-out pairs: {len(bundle['heldout']):,}, a seeded sample of the dev split's pairs filtered
  the same way.

`train-en-fr-gold.json` holds the pairs of models/eval/align-gold.tsv (a test set, only
measured) that fall inside these vocabularies, with their links, for the alignment accuracy
the page reports.
"""


def main(argv=None):
    ap = argparse.ArgumentParser(prog="scripts/train-data", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=data.DEFAULT_DATA)
    ap.add_argument("--out", default=None,
                    help="default web/data/train-en-fr.bin (with the gold file beside it)")
    ap.add_argument("--src-words", type=int, default=2000)
    ap.add_argument("--tgt-words", type=int, default=3000)
    ap.add_argument("--max-words", type=int, default=8)
    ap.add_argument("--heldout", type=int, default=HELDOUT)
    ap.add_argument("--max-pairs", type=int, default=None,
                    help="keep a seeded random subset of this many training pairs")
    ap.add_argument("--gold", default=DEFAULT_GOLD)
    ap.add_argument("--gold-out", default=None,
                    help="the gold pairs inside the vocabularies, as JSON (default: "
                         "web/data/train-en-fr-gold.json when --out is left out, else none)")
    args = ap.parse_args(argv)
    if args.out is None:
        args.out = DEFAULT_OUT
        if args.gold_out is None:
            args.gold_out = DEFAULT_GOLD_OUT
    for name in ("src_words", "tgt_words"):
        if not 5 <= getattr(args, name) <= 65536:
            ap.error(f"--{name.replace('_', '-')} must be 5..65536")
    if args.max_words < 1 or args.heldout < 0:
        ap.error("--max-words must be at least 1 and --heldout at least 0")
    if args.max_pairs is not None and args.max_pairs < 1:
        ap.error("--max-pairs must be at least 1")
    bundle = build(data.read_pairs(args.data), args.src_words, args.tgt_words, args.max_words,
                   args.heldout, args.max_pairs)
    if not bundle["train"]:
        raise SystemExit("scripts/train-data: no training pair falls inside the vocabularies")
    raw = write(bundle, args.out)
    packed = os.path.getsize(args.out)
    print(f"{args.out}: {len(bundle['train']):,} training and {len(bundle['heldout']):,} held-out "
          f"pairs, {len(bundle['src_vocab']):,} + {len(bundle['tgt_vocab']):,} words, "
          f"{packed:,} bytes" + (f" ({raw:,} inflated)" if raw != packed else ""))
    if args.out.endswith(".bin"):
        with open(os.path.splitext(args.out)[0] + ".README.md", "w", encoding="utf-8") as f:
            f.write(readme(bundle, args, raw, packed))
    if args.gold_out:
        gold = gold_pairs(bundle, args.gold)
        with open(args.gold_out, "w", encoding="utf-8") as f:
            f.write(gold_json(gold))
        print(f"{args.gold_out}: {len(gold['pairs'])} of the {gold['of']} gold pairs are inside the "
              "vocabularies")


if __name__ == "__main__":
    sys.exit(main())
