"""Smaller weights, chosen by measurement (issue 24): what group-wise 4-bit weights and a smaller
vocabulary would cost the shipped model in greedy BLEU on the dev split, and what they would save
on the wire.

  scripts/size-tradeoff [--model models/en-fr.safetensors] [--out build/size-tradeoff] [--markdown]

Every variant starts from the shipped int8 file, so it is compared with what the page runs:
- "4-bit": the chosen 2-D tensors as 4-bit integers in -8..7 with one f16 scale per group of G
  input columns, as the model file's q4 makes them (scripts/nmt/q4.py; files use G = 16). The
  scale is amax/7 times the factor in 0.6..1.0 (17 steps) with the least squared error for the
  group. The engines read q4 files whole (every matrix, G = 16); to try other mixes and group
  sizes the variant is written as an f32 file holding exactly the values the 4-bit weights
  dequantize to, and its bytes are those of the packed form (two weights a byte, an f16 scale a
  group, the rest as in the int8 file).
- "vocabulary": only the first K rows (the most frequent words) of the source embedding, and of
  the target embedding (also the tied output layer) and its output bias. The weights stay int8;
  a dropped word is <unk> on input and can no longer be written.
Bytes on the wire are the brotli (quality 11) size, as scripts/site writes the .br copies.

The dev split only: the decision must not be tuned on the test split or the gold sets.
"""
import argparse
import json
import os
import subprocess
import sys

import numpy as np

from . import data, export, q4, safetensors_io

EMBEDDINGS = ("src_emb", "tgt_emb")


def quantize4(w, group):
    """w [r, c] -> (the f32 values of its 4-bit form, the codes in -8..7, an f16 scale per
    group): the model file's q4 (scripts/nmt/q4.py), with any group size."""
    r, c = w.shape
    codes, scales = q4.quantize(w, group)
    s = scales.astype(np.float32).reshape(r, c // group, 1)
    values = (codes.reshape(r, c // group, group).astype(np.float32) * s).reshape(r, c)
    return values, codes.ravel(), scales.ravel()


def packed4(codes, scales):
    """The bytes a 4-bit file holds: the codes packed as q4 files pack them (two a byte, by
    groups of 16: scripts/nmt/q4.py), then an f16 scale a group."""
    packed = q4.pack(np.asarray(codes, dtype=np.int8).reshape(-1, q4.GROUP))
    return packed.tobytes() + scales.astype(np.float16).tobytes()


def four_bit(tensors, md, group, which):
    """(f32 tensors to evaluate, the bytes of its packed form): which(name) picks the tensors."""
    f = export.dequantize(tensors)
    out, blob = {}, [json.dumps(md, ensure_ascii=False).encode()]
    for name, w in f.items():
        if w.ndim == 2 and which(name):
            out[name], codes, scales = quantize4(w, group)
            blob.append(packed4(codes, scales))
        else:
            out[name] = w
            blob.append(tensors[name].tobytes())
            if name + ".scale" in tensors:
                blob.append(tensors[name + ".scale"].tobytes())
    cfg = json.loads(md["config"])
    cfg["dtype"] = "f32"
    return out, dict(md, config=json.dumps(cfg)), b"".join(blob)


def smaller_vocab(tensors, md, ks, kt):
    out = dict(tensors)
    for name in ("src_emb", "src_emb.scale"):
        out[name] = tensors[name][:ks]
    for name in ("tgt_emb", "tgt_emb.scale", "dec.out.b"):
        out[name] = tensors[name][:kt]
    cfg = json.loads(md["config"])
    cfg.update(src_vocab=ks, tgt_vocab=kt)
    md = dict(md, config=json.dumps(cfg))
    for key, k in (("src_vocab", ks), ("tgt_vocab", kt)):
        md[key] = json.dumps(json.loads(md[key])[:k], ensure_ascii=False)
    return out, md


def brotli_bytes(path):
    """Node's zlib has brotli; Debian's Python has no binding for it."""
    js = ("const z=require('zlib'),fs=require('fs');process.stdout.write(String(z.brotliCompressSync("
          "fs.readFileSync(process.argv[1]),{params:{[z.constants.BROTLI_PARAM_QUALITY]:11}}).length))")
    return int(subprocess.run(["node", "-e", js, path], check=True, capture_output=True,
                              text=True).stdout)


def dev_bleu(paths, data_path):
    cmd = [os.path.join(data.ROOT, "scripts", "eval"), "--engine", "native", "--split", "dev",
           "--beam", "1", "--align", "", "--everyday", "", "--json", "--data", data_path,
           "--model", *paths]
    rows = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.splitlines()
    return [json.loads(r) for r in rows if r.startswith("{")]


def save(out_dir, label, t, m, blob=None):
    """-> (label, the file to evaluate, the file whose bytes would ship)."""
    name = label.replace(",", "").replace("+", "").replace(" ", "-").replace("--", "-")
    path = os.path.join(out_dir, name + ".safetensors")
    safetensors_io.save(path, t, m)
    if blob is None:
        return label, path, path
    with open(path + ".packed", "wb") as fh:
        fh.write(blob)
    return label, path, path + ".packed"


def variants(tensors, md, out_dir):
    """-> [(label, path to evaluate, path of the bytes that would ship)]."""
    rows = []
    all2d = lambda name: True  # noqa: E731
    not_emb = lambda name: name not in EMBEDDINGS  # noqa: E731
    only_emb = lambda name: name in EMBEDDINGS  # noqa: E731
    for label, group, which in (("4-bit g32, every matrix", 32, all2d),
                                ("4-bit g16, every matrix", 16, all2d),
                                ("4-bit g32, embeddings only", 32, only_emb),
                                ("4-bit g32, all but the embeddings", 32, not_emb)):
        rows.append(save(out_dir, label, *four_bit(tensors, md, group, which)))
    for ks, kt in ((6000, 12000), (6000, 10000), (4000, 10000), (6000, 8000)):
        rows.append(save(out_dir, f"int8, vocabulary {ks:,} + {kt:,}",
                         *smaller_vocab(tensors, md, ks, kt)))
    # Both: the two changes that each held BLEU on their own (dev, this script's first run).
    rows.append(save(out_dir, "vocabulary 6,000 + 10,000, 4-bit g32 all but the embeddings",
                     *four_bit(*smaller_vocab(tensors, md, 6000, 10000), 32, not_emb)))
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(prog="scripts/size-tradeoff", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default=os.path.join(data.ROOT, "models", "en-fr.safetensors"))
    ap.add_argument("--out", default=os.path.join(data.ROOT, "build", "size-tradeoff"))
    ap.add_argument("--data", default=data.DEFAULT_DATA)
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    tensors, md = safetensors_io.load(args.model)
    rows = [("int8 as shipped", args.model, args.model)] + variants(tensors, md, args.out)
    scores = dev_bleu([p for _, p, _ in rows], args.data)
    base = scores[0]
    table = []
    for (label, _, shipped), s in zip(rows, scores):
        table.append({"variant": label, "bytes": os.path.getsize(shipped),
                      "wire_bytes": brotli_bytes(shipped), "bleu_multi": s["bleu_multi"],
                      "bleu_single": s["bleu_single"],
                      "delta_bleu": round(s["bleu_multi"] - base["bleu_multi"], 2)})
    if args.markdown:
        print("| variant | file | on the wire (brotli) | dev BLEU (multi-ref) | vs int8 |")
        print("|---|---|---|---|---|")
        for r in table:
            print(f"| {r['variant']} | {r['bytes'] / 1e6:.2f} MB | {r['wire_bytes'] / 1e6:.2f} MB | "
                  f"{r['bleu_multi']:.2f} | "
                  f"{r['delta_bleu']:+.2f} |")
    else:
        for r in table:
            print(json.dumps(r))


if __name__ == "__main__":
    sys.exit(main())
