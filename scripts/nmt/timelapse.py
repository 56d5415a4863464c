"""scripts/timelapse: the training timelapse, "Watch attention learn to align", from the weights
that `scripts/train --snapshots` kept during one training run (scripts/nmt/checkpoints.py).

Every frame is one snapshot's own computation, made here from its saved weights:
- the attention rows of a fixed set of sentences, forced through a fixed French translation
  (so that every frame has the same rows and columns, and frame k and frame k + 1 differ only in
  the weights);
- the dev loss on a fixed sample of dev pairs, and greedy multi-reference BLEU on a fixed sample
  of test sentences (as scripts/eval counts it);
- the alignment accuracy on the hand-made gold set, all links and the off-diagonal ones
  (scripts/nmt/alignment.py), beside the plain diagonal's.

Each sentence names its key link (a French word and the English word it translates, usually
where the word order flips: "noir" and "black"); the file records the first frame from which
the key word's attention argmax is the English word in every later frame ("settles"), so that
the page can mark it on the slider. A frame is cached next to its snapshot, so a run that is
still training can be followed: run the command again and only the new snapshots are computed.
"""
import argparse
import glob
import hashlib
import json
import os
import random
import shlex
import sys
import time

import torch

from . import alignment, corpus, data, evaluate
from .search import Translator
from .train import build_model, dev_loss

# (English, a fixed French translation, the key link: French word, English word). The page's
# examples first (web/app/examples.js), then more flips, negation and a long sentence.
SENTENCES = [
    ("The black cat is sleeping.", "Le chat noir dort.", ("noir", "black")),
    ("I bought a red car.", "J'ai acheté une voiture rouge.", ("rouge", "red")),
    ("Where is my black umbrella?", "Où est mon parapluie noir ?", ("noir", "black")),
    ("I live in a small house.", "J'habite dans une petite maison.", ("maison", "house")),
    ("I don't know what to do.", "Je ne sais pas quoi faire.", ("sais", "know")),
    ("Are you hungry?", "As-tu faim ?", ("faim", "hungry")),
    ("My name is Kowalski.", "Je m'appelle Kowalski.", ("appelle", "name")),
    ("I have a white dog.", "J'ai un chien blanc.", ("blanc", "white")),
    ("She is wearing a green dress.", "Elle porte une robe verte.", ("verte", "green")),
    ("He does not like cold coffee.", "Il n'aime pas le café froid.", ("froid", "cold")),
    ("We visited an old castle near the river.",
     "Nous avons visité un vieux château près de la rivière.", ("château", "castle")),
    ("When I was young, I walked to school with my brother every morning.",
     "Quand j'étais jeune, j'allais à l'école à pied avec mon frère tous les matins.",
     ("frère", "brother")),
]
DEFAULT_OUT = os.path.join(data.ROOT, "web", "data", "timelapse-en-fr.json")
VERSION = 1  # of a cached frame's contents


def load_snapshot(path):
    ck = torch.load(path)
    model = build_model(ck["cfg"])
    model.load_state_dict(ck["model"])
    meta = {k: ck[k] for k in ("cfg", "src_itos", "tgt_itos", "src_names", "tgt_names")}
    return model.eval(), meta, ck["state"]


def sentence_tokens(tr):
    """[{en, fr, src_tokens, tgt_tokens, src_ids, tgt_ids, key: [i, j]}] for SENTENCES, as the
    model's tokenizer splits them (the same for every snapshot of one run)."""
    out = []
    for en, fr, (kf, ke) in SENTENCES:
        st, sid = tr.source(en)
        tt, tid = tr.target(fr)
        low = lambda toks, w: [t.lower() for t in toks].index(w.lower())  # noqa: E731
        out.append({"en": en, "fr": fr, "src_tokens": st + ["</s>"], "tgt_tokens": tt,
                    "src_ids": sid, "tgt_ids": tid, "key": [low(tt, kf), low(st, ke)]})
    return out


def frame(tr, model, state, sents, dev, bleu_items, gold):
    """One snapshot's measures and rows (rounded to 3 decimals: a shade, not a digit)."""
    t0 = time.time()
    rows = [[[round(a, 3) for a in st["alpha"]] for st in tr.force(s["src_ids"], s["tgt_ids"])]
            for s in sents]
    hyps = [tr.translate(en)["text"] for en, _ in bleu_items]
    bleu = evaluate.score(hyps, [rs for _, rs in bleu_items], lambda t: tr.target(t)[0])
    al = alignment.measure(gold, alignment.torch_rows(tr)) if gold else {}
    return {"step": state["step"], "elapsed": round(state.get("elapsed", 0.0), 1),
            "dev_loss": round(dev_loss(model, dev), 4),
            "bleu": round(bleu["bleu_multi"], 2),
            "align": round(al.get("align_accuracy", float("nan")), 2),
            "align_offdiag": round(al.get("align_offdiag_accuracy", float("nan")), 2),
            "rows": rows, "seconds": round(time.time() - t0, 1)}


def settles(frames, k, key):
    """The step of the first frame from which sentence k's key French token looks most at its
    key English word (</s> excluded) in every later frame; None if the last frame does not."""
    i, j = key
    first = None
    for f in frames:
        row = f["rows"][k][i][:-1]
        if max(range(len(row)), key=lambda c: (row[c], -c)) == j:
            first = f["step"] if first is None else first
        else:
            first = None
    return first


def run_dev_sample(args, meta):
    """The training run's dev sample (train.py: the first 2,000 of a seeded draw), in order."""
    cfg = meta["cfg"]
    corp = corpus.build(args.data, cfg["src_vocab"], cfg["tgt_vocab"], cfg["src_lang"],
                        cfg["tgt_lang"], cache_dir=os.path.join(args.run, ".."))
    return random.Random(0).sample(corp["splits"]["dev"], min(2000, len(corp["splits"]["dev"])))


def main(argv=None):
    ap = argparse.ArgumentParser(prog="scripts/timelapse", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--run", required=True,
                    help="a training run's --out folder, trained with --snapshots")
    ap.add_argument("--out", default=DEFAULT_OUT, help="the page's JSON (default: %(default)s)")
    ap.add_argument("--data", default=data.DEFAULT_DATA)
    ap.add_argument("--align", default=evaluate.DEFAULT_GOLD, help="gold set ('' to skip)")
    ap.add_argument("--dev-size", type=int, default=500)
    ap.add_argument("--bleu-size", type=int, default=200,
                    help="test sentences (of at most 12 words) for the BLEU curve")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--model-name", default="en-fr", help="what the page calls the model")
    ap.add_argument("--note", default="", help="a sentence the page shows about this run")
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    paths = sorted(glob.glob(os.path.join(args.run, "snapshots", "step-*.pt")))
    if not paths:
        sys.exit(f"scripts/timelapse: no snapshots in {args.run}/snapshots "
                 "(train with scripts/train --snapshots)")
    model, meta, _ = load_snapshot(paths[0])
    tr = Translator(model, meta)
    sents = sentence_tokens(tr)
    dev = run_dev_sample(args, meta)[:args.dev_size]
    bleu_items = random.Random(7).sample(evaluate.test_set(args.data), args.bleu_size)
    gold = alignment.read_gold(args.align) if args.align else []
    key = hashlib.sha1(json.dumps([VERSION, SENTENCES, args.dev_size, args.bleu_size,
                                   args.align]).encode()).hexdigest()[:12]
    cache_dir = os.path.join(args.run, "timelapse", key)
    os.makedirs(cache_dir, exist_ok=True)
    frames = []
    for p in paths:
        cache = os.path.join(cache_dir, os.path.basename(p).replace(".pt", ".json"))
        if os.path.exists(cache):
            with open(cache) as f:
                frames.append(json.load(f))
            continue
        model, meta, state = load_snapshot(p)
        tr = Translator(model, meta)
        fr = frame(tr, model, state, sents, dev, bleu_items, gold)
        with open(cache + ".tmp", "w") as f:
            json.dump(fr, f)
        os.replace(cache + ".tmp", cache)
        frames.append(fr)
        print(f"step {fr['step']}: dev loss {fr['dev_loss']:.3f}, BLEU {fr['bleu']:.1f}, "
              f"alignment {fr['align']:.1f}% (off-diagonal {fr['align_offdiag']:.1f}%) "
              f"[{fr['seconds']}s]", flush=True)
    diag = alignment.measure(gold, lambda it: [
        [1.0 if j == alignment.diagonal(i, len(it["fr_tokens"]), len(it["en_tokens"])) else 0.0
         for j in range(len(it["en_tokens"]) + 1)] for i in range(len(it["fr_tokens"]))]) \
        if gold else {}
    ck = torch.load(paths[-1])
    out = {
        "version": VERSION,
        "command": "scripts/timelapse " + " ".join(shlex.quote(a) for a in (
            argv if argv is not None else sys.argv[1:])),
        "model": args.model_name, "note": args.note,
        "config": meta["cfg"], "recipe": ck.get("recipe"),
        "measures": {"dev_pairs": len(dev), "bleu_sentences": len(bleu_items),
                     "gold_pairs": len(gold), "gold_links": diag.get("align_links"),
                     "diagonal_accuracy": round(diag.get("align_accuracy", float("nan")), 2)},
        "sentences": [{"en": s["en"], "fr": s["fr"], "src_tokens": s["src_tokens"],
                       "tgt_tokens": s["tgt_tokens"] + ["</s>"], "key": s["key"],
                       "settles": settles(frames, k, s["key"])} for k, s in enumerate(sents)],
        "frames": [{k: v for k, v in f.items() if k != "seconds"} for f in frames],
        "attribution": "Tatoeba (tatoeba.org, via manythings.org/anki), CC-BY 2.0 FR: the dev "
                       "and test sentences the measures use",
    }
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(out, f, ensure_ascii=False, separators=(",", ":"))
    print(f"{args.out}: {len(frames)} frames, {os.path.getsize(args.out):,} bytes")
    return out


if __name__ == "__main__":
    main()
