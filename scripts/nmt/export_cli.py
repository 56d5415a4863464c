"""scripts/export: a training checkpoint -> model files (f32, and int8 or q4), and golden
fixtures; or an existing model file -> the same model in another dtype (--from-model)."""
import argparse
import hashlib
import json
import os

import torch

from . import data, export, golden
from .train import build_model


# What the file's training record says it learned from, by target language.
DATA_LABELS = {"fr": "Tatoeba eng-fra (manythings.org/anki), CC-BY 2.0 FR",
               "zh": "Tatoeba eng-cmn (manythings.org/anki), CC-BY 2.0 FR"}


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def main(argv=None):
    ap = argparse.ArgumentParser(prog="scripts/export", description=__doc__)
    ap.add_argument("--checkpoint", default=os.path.join(data.ROOT, "build", "train", "en-fr",
                                                         "best.pt"))
    ap.add_argument("--out", default=os.path.join(data.ROOT, "models", "en-fr.safetensors"),
                    help="the int8 (or --dtype) model; the f32 one is written beside it as "
                         "*-f32.safetensors")
    ap.add_argument("--dtype", choices=("int8", "q4"), default="int8",
                    help="the shipped file's weights: int8 with a scale per row, or q4, 4 bits "
                         "with an f16 scale per group of 16 (docs/model-format.md)")
    ap.add_argument("--from-model", metavar="FILE",
                    help="instead of a checkpoint, re-write this model file in --dtype: its "
                         "weights as the engines see them, quantized again")
    ap.add_argument("--golden", action="store_true",
                    help="also write the golden fixtures (tiny models + the dev100 fixture)")
    ap.add_argument("--data", default=None,
                    help="the corpus --golden samples its dev cases from (default: the model's "
                         "target language's, scripts/nmt/eval_langs.py)")
    args = ap.parse_args(argv)

    if args.from_model:
        src = os.path.abspath(args.from_model)
        if os.path.abspath(args.out) == src:
            ap.error("--out must differ from --from-model")
        export.convert_file(src, args.out, args.dtype,
                            {"from": os.path.basename(src), "sha256": sha256(src),
                             "dtype": args.dtype})
        print(json.dumps({"file": os.path.relpath(args.out, data.ROOT),
                          "bytes": os.path.getsize(args.out), "sha256": sha256(args.out)}))
        return

    ck = torch.load(args.checkpoint)
    cfg = dict(ck["cfg"], dropout=0.0)
    model = build_model(cfg)
    model.load_state_dict(ck["model"])
    model.eval()
    extra = {"epochs": ck["state"]["epoch"], "steps": ck["state"]["step"],
             "train_seconds": round(ck["state"]["elapsed"]), "best_dev_loss": ck["state"]["best_dev"],
             "data": DATA_LABELS.get(ck["cfg"].get("tgt_lang", "fr"), DATA_LABELS["fr"])}
    extra["recipe"] = ck.get("recipe")
    if ck["state"].get("before"):  # a second stage (train --init): what the first one did
        extra["before"] = ck["state"]["before"]
    f32_path = args.out.replace(".safetensors", "-f32.safetensors")
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    # The quantized file first: a q4 export of a model whose widths q4 cannot take fails before
    # anything is written.
    export.save_model(args.out, model, ck, args.dtype, extra)
    export.save_model(f32_path, model, ck, "f32", extra)
    for p in (args.out, f32_path):
        print(json.dumps({"file": os.path.relpath(p, data.ROOT), "bytes": os.path.getsize(p),
                          "sha256": sha256(p)}))
    if args.golden:
        torch.set_num_threads(1)
        golden.write_tiny()
        golden.write_edits()
        golden.write_shipped(args.out, args.data)


if __name__ == "__main__":
    main()
