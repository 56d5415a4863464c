"""Golden fixtures for the C++ core, computed by the PyTorch reference.

  tiny:    tests/fixtures/tiny-{additive,scaled_dot,none}[-cgru]-{f32,int8}.safetensors + .json
           (seeded random weights, every step's e / alpha / c, top-5, greedy and beam-4, and
           forced decoding of a given French target: every row, its probability and top-5;
           "-cgru" models score with the conditional GRU's query; "none" models have no
           attention: empty e and alpha, the same c at every step)
  tiny q4:  tests/fixtures/tiny16-{additive-cgru,scaled_dot,none-cgru}-q4.safetensors + .json
           (the same cases on 4-bit weights, dequantized as stored; 16 wide, since q4 groups 16
           columns. No Transformer: its products are the same matvec and matmat, and its
           fixture would be 3 MB)
  tiny Transformers: tests/fixtures/tiny-transformer-{f32,int8}.safetensors + .json (the same
           cases; each step also has "cross": every decoder layer's cross-attention per head,
           and each case "encoder" (the encoder's output, after its final LayerNorm) and
           "encoder_self_attention" (layers x heads x n x n), so every stage can be compared)
  edits:   tests/fixtures/tiny-edits.json (attention edits on the tiny models above, as stored:
           greedy steps with given weights, a held edit, forced decoding under an edit, and a
           Transformer's per-head edits and ablation; each edited step also has "own_alpha")
  shipped: tests/fixtures/en-fr-dev100.json (greedy and beam-4 of 100 dev sentences,
           from the int8 weights as stored)
"""
import argparse
import json
import math
import os
import random

import torch

from . import corpus, data, eval_langs, export, transformer
from .model import Bahdanau, default_config
from .search import Translator, copyable

FIX = os.path.join(data.ROOT, "tests", "fixtures")

TINY_SRC = ("the a cat dog black white is sleeping eats I you he she we they am are was not "
            "do n't 's 'm like see my your big small red car house . , ? ! Tom Paris and "
            "to in").split()
TINY_TGT = ("le la les un une chat chien noir noire blanc blanche est dort mange je tu il elle "
            "nous ils suis es sommes ne pas aime vois mon ma ton ta grand petit petite rouge "
            "voiture maison . , ? ! Tom Paris et à dans l' j' c'").split()
TINY_INPUTS = [
    "The black cat is sleeping.", "I see a red car.", "The dog eats.", "You are not big!",
    "Tom is in Paris.", "She likes my white house.", "We are small, they are big.",
    "Is the cat black?", "I'm Tom.", "He doesn't see the car.", "My dog likes your cat.",
    "A cat.", "the", "?", "Zanzibar is big.", "Tom and Quentin eat in Paris.",
    "I am I am I am I am.", "The small red car is not my car, it's your car.",
    "Dog", "They see a black and white cat in the house.", "Je suis Tom.",
    "The the the the the the the the the the the the the the the the the the the the.",
    "Big big red house!", "Are you sleeping?",
]
# Forced-decoding targets, one per input: in-vocabulary, unknown words (Zorglub, maison rose),
# empty, longer than the model would write, and invalid-free odd spacing.
TINY_TARGETS = [
    "Le chat noir dort.", "Je vois une voiture rouge.", "Le chien mange.", "Tu n'es pas grand !",
    "Tom est à Paris.", "Elle aime ma maison blanche.", "Nous sommes petits, ils sont grands.",
    "Le chat est noir ?", "Je suis Tom.", "Il ne voit pas la voiture.", "", "Un chat.", "le",
    "?", "Zorglub est grand.", "Tom et Quentin mangent à Paris.", "je suis je suis",
    "La petite voiture rouge n'est pas ma voiture.", "Chien", "Ils voient un chat noir et blanc "
    "dans la maison.", "Je suis Tom.", "le le le le le le le le le le le le le le le le le le le "
    "le le le le le le le le le le le le le le le le le le le", "Grande maison rose !",
    "  Tu  dors   ?  ",
]


def tiny_meta(cfg):
    return {"cfg": cfg, "src_itos": data.SPECIALS + TINY_SRC, "tgt_itos": data.SPECIALS + TINY_TGT,
            "src_names": ["I", "Tom", "Paris"], "tgt_names": ["Tom", "Paris"]}


def tiny_model(scoring, seed, decoder="paper", width=None):
    """width: every dimension (emb, hidden, attention) at that size, for the q4 models."""
    dims = dict(emb=8, enc_hidden=12, dec_hidden=10, attn=6) if width is None else \
        dict(emb=width, enc_hidden=width, dec_hidden=width, attn=width)
    cfg = default_config(scoring=scoring, **dims,
                         src_vocab=len(TINY_SRC) + 4, tgt_vocab=len(TINY_TGT) + 4,
                         max_src_len=64, max_tgt_len=40, dropout=0.0, decoder=decoder)
    torch.manual_seed(seed)
    model = Bahdanau(cfg)
    with torch.no_grad():
        for p in model.parameters():
            p.normal_(0.0, 0.6 if width is None else 0.45)
        model.out_b[data.EOS] += 2.0  # so that random models end some sentences on their own
        model.out_b[data.UNK] += 2.5  # and emit <unk>, so the fixtures exercise its replacement
    return model.eval(), tiny_meta(cfg)


def tiny_transformer(seed):
    cfg = transformer.default_config(emb=8, d_model=12, heads=3, ffn=16, enc_layers=2,
                                     dec_layers=2, src_vocab=len(TINY_SRC) + 4,
                                     tgt_vocab=len(TINY_TGT) + 4, max_src_len=64, max_tgt_len=40,
                                     dropout=0.0)
    torch.manual_seed(seed)
    model = transformer.Transformer(cfg)
    with torch.no_grad():
        for p in model.parameters():
            p.normal_(0.0, 0.6)
        model.out_b[data.EOS] += 2.0
        model.out_b[data.UNK] += 2.5
    return model.eval(), tiny_meta(cfg)


def force_record(tr, text, target):
    """Forced decoding of target after text: the rows the core's Translator::align must give."""
    _, ids = tr.source(text)
    tgt_tokens, tgt_ids = tr.target(target)
    rec = {"target": target, "tgt_tokens": tgt_tokens + ["</s>"], "tgt_ids": tgt_ids + [data.EOS]}
    if len(tgt_ids) + 1 > tr.cfg["max_tgt_len"]:
        rec["error"] = True
        return rec
    if not ids:
        rec["steps"] = []
        return rec
    rec["steps"] = tr.force(ids, tgt_ids)
    rec["log_prob"] = sum(math.log(st["prob"]) for st in rec["steps"])
    rec["unknown"] = sum(t == data.UNK for t in tgt_ids)
    return rec


def case_record(tr, text, with_steps=True, target=None):
    src_tokens, ids = tr.source(text)
    rec = {"text": text, "src_tokens": src_tokens, "src_ids": ids}
    if target is not None:
        rec["force"] = force_record(tr, text, target)
    if not src_tokens:
        rec.update(greedy={"ids": [], "tokens": [], "text": ""},
                   beam4={"ids": [], "tokens": [], "text": "", "norm": None})
        return rec
    mask = [copyable(t, tr.tgt_index) for t in src_tokens]
    steps = tr.greedy(ids, mask)
    if with_steps:
        rec["steps"] = steps
    g_ids = [s["token"] for s in steps]
    g_tok = tr.target_tokens(g_ids, [s["alpha"] for s in steps], src_tokens)
    rec["greedy"] = {"ids": g_ids, "tokens": g_tok, "text": tr.translate(text)["text"]}
    best = tr.beam(ids, 4, mask)[0]
    b_tok = tr.target_tokens(best["ids"], best["alphas"], src_tokens)
    rec["beam4"] = {"ids": best["ids"], "tokens": b_tok, "text": tr.translate(text, 4)["text"],
                    "norm": best["norm"]}
    if tr.cfg.get("arch") == "transformer":
        if with_steps:
            with torch.no_grad():
                src = torch.tensor([ids + [data.EOS]])
                mem, _, _ = tr.model.encode_all(src, torch.tensor([len(ids) + 1]))
            rec["encoder"] = mem[0].tolist()
            rec["encoder_self_attention"] = tr.encoder_self_attention(ids).tolist()
    elif with_steps and tr.cfg["scoring"] == "scaled_dot":
        scores, weights = tr.self_attention(ids)
        rec["self_attention"] = {"scores": scores.tolist(), "weights": weights.tolist()}
    return rec


TINY_MODELS = ((11, "additive", "paper"), (12, "scaled_dot", "paper"),
               (13, "additive", "cgru"), (14, "scaled_dot", "cgru"),
               (15, "none", "paper"), (16, "none", "cgru"))


TINY_TRANSFORMER_SEED = 17
TINY_Q4_MODELS = ((21, "additive", "cgru"), (22, "scaled_dot", "paper"), (23, "none", "cgru"))


def write_tiny():
    os.makedirs(FIX, exist_ok=True)
    kinds = [(f"tiny-{scoring}{'-cgru' if decoder == 'cgru' else ''}", scoring, decoder,
              lambda seed=seed, scoring=scoring, decoder=decoder: tiny_model(scoring, seed, decoder))
             for seed, scoring, decoder in TINY_MODELS]
    kinds.append(("tiny-transformer", "scaled_dot", "transformer",
                  lambda: tiny_transformer(TINY_TRANSFORMER_SEED)))
    write_fixtures(kinds, ("f32", "int8"))
    q4_kinds = [(f"tiny16-{scoring}{'-cgru' if decoder == 'cgru' else ''}", scoring, decoder,
                 lambda seed=seed, scoring=scoring, decoder=decoder:
                 tiny_model(scoring, seed, decoder, width=16))
                for seed, scoring, decoder in TINY_Q4_MODELS]
    write_fixtures(q4_kinds, ("q4",))


def write_fixtures(kinds, dtypes):
    for base, scoring, decoder, make in kinds:
        model, meta = make()
        for dtype in dtypes:
            name = f"{base}-{dtype}"
            path = os.path.join(FIX, name + ".safetensors")
            export.save_model(path, model, meta, dtype)
            ref, ref_meta = export.load_model(path)  # int8, q4: the dequantized weights as stored
            tr = Translator(ref, ref_meta)
            doc = {"model": name + ".safetensors", "scoring": scoring, "decoder": decoder,
                   "dtype": dtype, "cases": [case_record(tr, t, target=g)
                                             for t, g in zip(TINY_INPUTS, TINY_TARGETS)]}
            if meta["cfg"].get("arch") == "transformer":
                doc["arch"] = "transformer"
            with open(os.path.join(FIX, name + ".json"), "w") as f:
                json.dump(doc, f, ensure_ascii=False)
            print("wrote", name)


EDIT_TEXT, EDIT_TARGET = "The black cat is sleeping.", "Le chat noir dort."  # 7 columns
RNN_EDITS = [
    [{"step": 1, "column": 2}],
    [{"step": 0, "weights": [1.0, 2.0, 0.0, 0.0, 0.5, 0.0, 1.0]}],
    [{"step": 1, "column": 0, "hold": True}, {"step": 4, "column": 6}],
]
# The tiny Transformer writes </s> first on its own: its greedy edits start at step 0.
TRANSFORMER_EDITS = [
    [{"step": 0, "column": 2}],
    [{"step": 0, "layer": 0, "head": 1, "column": 3}, {"step": 0, "layer": 1, "ablate": True}],
    [{"step": 0, "layer": 1, "head": 2, "weights": [0, 0, 1, 1, 0, 0, 0], "hold": True}],
    [{"step": 0, "layer": 0, "column": 1, "hold": True}],
]
EDIT_MODELS = ("tiny-additive", "tiny-scaled_dot", "tiny-additive-cgru", "tiny-scaled_dot-cgru",
               "tiny-transformer")


def write_edits():
    """Greedy and forced decoding under attention edits, on the stored tiny models."""
    doc = {"text": EDIT_TEXT, "target": EDIT_TARGET, "models": []}
    for base in EDIT_MODELS:
        for dtype in ("f32", "int8"):
            name = f"{base}-{dtype}.safetensors"
            ref, meta = export.load_model(os.path.join(FIX, name))
            tr = Translator(ref, meta)
            src_tokens, ids = tr.source(EDIT_TEXT)
            _, tgt_ids = tr.target(EDIT_TARGET)
            mask = [copyable(t, tr.tgt_index) for t in src_tokens]
            cases = []
            edit_sets = TRANSFORMER_EDITS if base == "tiny-transformer" else RNN_EDITS
            for edits in edit_sets:
                steps = tr.greedy(ids, mask, edits)
                cases.append({"edits": edits, "steps": steps,
                              "force": tr.force(ids, tgt_ids, edits)})
            doc["models"].append({"model": name, "cases": cases})
    with open(os.path.join(FIX, "tiny-edits.json"), "w") as f:
        json.dump(doc, f, ensure_ascii=False)
    print("wrote tiny-edits")


def write_shipped(model_path, data_path=None, n=100):
    """tests/fixtures/<model>-dev100.json: the reference's output on n dev sentences of the
    model's own corpus (data_path, default the target language's: eval_langs.DEFAULTS)."""
    ref, meta = export.load_model(model_path)
    tr = Translator(ref, meta)
    cfg = meta["cfg"]
    lang = eval_langs.target_lang(cfg)
    corp = corpus.build(data_path or eval_langs.DEFAULTS[lang]["data"], cfg["src_vocab"],
                        cfg["tgt_vocab"], cfg["src_lang"], lang,
                        cache_dir=os.path.join(data.ROOT, "build", "train"))
    seen, texts = set(), []
    for x in random.Random(3).sample(corp["splits"]["dev"], 4 * n):
        if x[0] not in seen:
            seen.add(x[0])
            texts.append(x[0])
    doc = {"model": os.path.relpath(model_path, data.ROOT),
           "attention_guidance": cfg.get("attention_guidance", "none"),
           "cases": [case_record(tr, t, with_steps=False) for t in texts[:n]]}
    out = os.path.join(FIX, os.path.basename(model_path).replace(".safetensors", "") + "-dev100.json")
    with open(out, "w") as f:
        json.dump(doc, f, ensure_ascii=False, indent=0)
    print("wrote", out)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="scripts/export --golden")
    ap.add_argument("--shipped", help="also write dev fixtures for this model file")
    ap.add_argument("--data", default=None,
                    help="the --shipped model's corpus (default: its target language's)")
    ap.add_argument("--edits-only", action="store_true",
                    help="only tests/fixtures/tiny-edits.json, from the stored tiny models")
    args = ap.parse_args(argv)
    torch.set_num_threads(1)
    if not args.edits_only:
        write_tiny()
    write_edits()
    if args.shipped:
        write_shipped(args.shipped, args.data)


if __name__ == "__main__":
    main()
