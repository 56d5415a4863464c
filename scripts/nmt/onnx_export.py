"""A model file -> two ONNX graphs, for the peer in scripts/bench --peers (onnxruntime-web).

  encoder.onnx       src [1, n] int64 (the ids with </s>)      -> h [1, n, 2H], keys [1, n, A], s0 [1, D]
  decoder_step.onnx  y_prev [1] int64, s_prev [1, D], h, keys, mask [1, n] bool
                                                                -> logp [1, V], s [1, D], alpha [1, n]
  peer.json          what the JS greedy loop needs: specials, max_tgt_len, scoring, the model's sha256

A model without attention (scoring "none") has no keys input or output and no alpha output.
Batch 1 only: the encoder runs the GRU unpacked, which equals the reference's packed run only
when no sentence is padded.

The weights come from export.load_model, so int8 files are dequantized exactly as the core sees
them (q * scale in f32): the peer runs the same numbers as our engines, in f32. torch 1.13 writes
the graphs (it needs the `onnx` module: Debian's python3-onnx). There is no int8 peer: ONNX
dynamic quantization is onnxruntime's Python quantizer, which Debian does not ship.

check() runs the graphs in onnxruntime-web (Node, scripts/lib/onnx-check.mjs) on PyTorch's own
greedy steps and compares every output with the reference's (search.Translator).
"""
import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import warnings

import numpy as np
import torch
import torch.nn as nn

from . import data, export, safetensors_io
from .search import Translator, copyable

OPSET = 14
# Bumped whenever the graphs change, so that scripts/bench re-exports graphs left in build/.
EXPORTER_VERSION = 1
CHECK_SENTENCES = ["The black cat is sleeping.", "Tom is in Paris.",
                   "I don't think that we have enough time to do it today, do you?"]
NODE_CHECK = os.path.join(data.ROOT, "scripts", "lib", "onnx-check.mjs")


class _Encoder(nn.Module):
    """Bahdanau.encode for one unpadded sentence: no pack_padded_sequence (the exporter would
    bake in the length), which changes nothing when every position is real."""

    def __init__(self, m):
        super().__init__()
        self.m = m

    def forward(self, src):
        h, h_n = self.m.encoder(self.m.src_emb(src))
        s0 = torch.tanh(self.m.init(h_n[1]))
        if not self.m.attention:
            return h, s0
        return h, self.m.att_U(h), s0


class _Step(nn.Module):
    """One decoder step with the output layer: Translator.step's computation."""

    def __init__(self, m):
        super().__init__()
        self.m = m

    def forward(self, y_prev, s_prev, h, *rest):
        keys, mask = (None, rest[0]) if not self.m.attention else rest
        _, alpha, c, s, y_emb = self.m.step(y_prev, s_prev, h, keys, mask)
        logp = torch.log_softmax(self.m.logits(s, c, y_emb), dim=-1)
        return (logp, s, alpha) if self.m.attention else (logp, s)


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def export_graphs(model_path, out_dir):
    """Writes encoder.onnx, decoder_step.onnx and peer.json to out_dir; returns peer.json's dict."""
    import onnx  # only here, so that importing this module never needs it

    cfg = json.loads(safetensors_io.load(model_path)[1]["config"])
    if cfg.get("arch", "rnn") != "rnn":
        raise ValueError(f"{model_path}: the ONNX peer exports the RNN models only, not "
                         f"arch={cfg['arch']!r}")
    model, _ = export.load_model(model_path)
    os.makedirs(out_dir, exist_ok=True)
    att = model.attention
    n = 4  # any length: the axis is dynamic
    src = torch.tensor([[4, 5, 6, data.EOS]])
    with torch.no_grad():
        h, keys, s0 = model.encode(src, torch.tensor([n]))
    enc_out = ["h", "keys", "s0"] if att else ["h", "s0"]
    step_in = ["y_prev", "s_prev", "h", "keys", "mask"] if att else ["y_prev", "s_prev", "h", "mask"]
    step_out = ["logp", "s", "alpha"] if att else ["logp", "s"]
    seq = {"h": {1: "n"}, "keys": {1: "n"}, "mask": {1: "n"}, "alpha": {1: "n"}, "src": {1: "n"}}
    paths = {"encoder": os.path.join(out_dir, "encoder.onnx"),
             "decoder_step": os.path.join(out_dir, "decoder_step.onnx")}
    with torch.no_grad(), warnings.catch_warnings():
        # torch 1.13's exporter warns that a GRU exported at batch 1 may fail at other batch
        # sizes, and about constants it cannot infer shapes for: the graphs are batch 1 by
        # design, and check() runs them.
        warnings.simplefilter("ignore", UserWarning)
        warnings.simplefilter("ignore", torch.jit.TracerWarning)  # sizes fixed by the model
        torch.onnx.export(_Encoder(model), (src,), paths["encoder"], input_names=["src"],
                          output_names=enc_out, opset_version=OPSET,
                          dynamic_axes={k: v for k, v in seq.items() if k in ["src"] + enc_out})
        mask = torch.ones(1, n, dtype=torch.bool)
        args = (torch.tensor([data.BOS]), s0, h) + ((keys, mask) if att else (mask,))
        torch.onnx.export(_Step(model), args, paths["decoder_step"], input_names=step_in,
                          output_names=step_out, opset_version=OPSET,
                          dynamic_axes={k: v for k, v in seq.items() if k in step_in + step_out})
    for p in paths.values():
        onnx.checker.check_model(onnx.load(p), full_check=True)
    info = {"exporter_version": EXPORTER_VERSION, "model": os.path.abspath(model_path),
            "model_sha256": sha256(model_path), "dtype_in_file": cfg.get("dtype", "f32"),
            "graph_dtype": "f32", "opset": OPSET, "scoring": cfg["scoring"],
            "decoder": cfg.get("decoder", "paper"), "max_tgt_len": cfg["max_tgt_len"],
            "tgt_vocab": cfg["tgt_vocab"], "attention": att,
            "bos": data.BOS, "eos": data.EOS, "unk": data.UNK,
            "graphs": {k: os.path.basename(p) for k, p in paths.items()}}
    with open(os.path.join(out_dir, "peer.json"), "w") as f:
        json.dump(info, f, indent=2)
    return info


def sources(model_path, sentences):
    """The source ids (</s> not added) and copyable() of each token, per sentence: the inputs
    of a greedy run with the reference's rules, from the reference's own tokenizer."""
    model, meta = export.load_model(model_path)
    tr = Translator(model, meta)
    out = []
    for text in sentences:
        toks, ids = tr.source(text)
        out.append({"ids": ids, "copyable": [copyable(t, tr.tgt_index) for t in toks]})
    return out


def reference_cases(model_path, sentences):
    """PyTorch's greedy run of each sentence, with every step's inputs and outputs."""
    model, meta = export.load_model(model_path)
    tr = Translator(model, meta)
    cases = []
    for text in sentences:
        toks, ids = tr.source(text)
        if not ids:
            raise ValueError(f"check sentence {text!r} has no tokens")
        mask = [copyable(t, tr.tgt_index) for t in toks]
        tokens = [st["token"] for st in tr.greedy(ids, mask)]
        enc = tr.encode(ids)
        h, keys, s, _ = enc
        steps = []
        for y_prev in [data.BOS] + tokens[:-1]:  # replayed: greedy() keeps no states
            s_prev = s
            _, alpha, _, s, logp = tr.step(enc, y_prev, s_prev)
            steps.append({"y_prev": y_prev, "s_prev": s_prev[0].tolist(), "logp": logp.tolist(),
                          "s": s[0].tolist(), "alpha": alpha.tolist()})
        cases.append({"text": text, "ids": ids, "copyable": mask, "h": h[0].tolist(),
                      "keys": keys[0].tolist() if keys is not None else None,
                      "s0": enc[2][0].tolist(), "steps": steps, "tokens": tokens})
    return cases


def check(model_path, graph_dir, sentences=CHECK_SENTENCES, tol=1e-5, logp_tol=5e-5):
    """Runs the graphs in onnxruntime-web on the reference's greedy steps and compares every
    output with PyTorch's (absolute error, or relative above magnitude 1): h, keys, s0, s and
    alpha within tol, logp within logp_tol, and onnxruntime-web's own greedy run writes the
    same tokens. logp gets more room because both log-softmaxes sum 8000 f32 exponentials in
    different orders: that moves every log-prob of a step by the same amount, measured up to
    1.6e-5 on the shipped models (1.2e-5 left once that common shift is taken out).
    Returns the worst errors; raises AssertionError past a tolerance."""
    cases = reference_cases(model_path, sentences)
    with tempfile.TemporaryDirectory() as tmp:
        inp, out = os.path.join(tmp, "cases.json"), os.path.join(tmp, "ort.json")
        with open(inp, "w") as f:
            json.dump(cases, f)
        r = subprocess.run(["node", NODE_CHECK, graph_dir, inp, out], capture_output=True,
                           text=True)
        if r.returncode != 0:
            raise RuntimeError(f"onnx-check.mjs failed ({r.returncode}): {r.stderr.strip()}")
        with open(out) as f:
            got = json.load(f)
    worst = {}

    def cmp(name, ref, ort):
        ref, ort = np.asarray(ref, dtype=np.float64), np.asarray(ort, dtype=np.float64)
        if ref.shape != ort.shape:
            raise AssertionError(f"{name}: shape {ort.shape} from onnxruntime-web, "
                                 f"{ref.shape} from PyTorch")
        err = float((np.abs(ref - ort) / np.maximum(1.0, np.abs(ref))).max(initial=0.0))
        worst[name] = max(worst.get(name, 0.0), err)

    for c, g in zip(cases, got):
        for k in ("h", "keys", "s0") if c["keys"] is not None else ("h", "s0"):
            cmp(k, c[k], g[k])
        if len(g["steps"]) != len(c["steps"]):
            raise AssertionError(f"{c['text']!r}: {len(g['steps'])} steps run, {len(c['steps'])} asked")
        for st, gs in zip(c["steps"], g["steps"]):
            for k in ("s", "alpha"):
                cmp(k, st[k], gs[k])
            cmp("logp", st["logp"], gs["logp"])
        if g["tokens"] != c["tokens"]:
            raise AssertionError(f"{c['text']!r}: onnxruntime-web greedy {g['tokens']}, "
                                 f"PyTorch {c['tokens']}")
    bad = {k: v for k, v in worst.items() if v > (logp_tol if k == "logp" else tol)}
    if bad:
        raise AssertionError(f"onnxruntime-web differs from PyTorch beyond {tol} "
                             f"(logp: {logp_tol}): {bad}")
    return {"max_err": worst, "sentences": len(cases), "tokens_equal": True}


def main(argv=None):
    ap = argparse.ArgumentParser(prog="scripts/export-onnx", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default=os.path.join(data.ROOT, "models", "en-fr.safetensors"))
    ap.add_argument("--out", help="folder for the graphs (default build/onnx/<model>-<sha256:12>)")
    ap.add_argument("--no-check", action="store_true",
                    help="skip running the graphs in onnxruntime-web against PyTorch")
    ap.add_argument("--peer-inputs", action="store_true",
                    help="scripts/bench --peers: export (and check) only if the graphs in --out "
                         "are missing or stale, then print {dir, sources}: the source ids and "
                         "copyable() flags of the JSON list of sentences on stdin")
    args = ap.parse_args(argv)
    out = args.out or default_dir(args.model)
    if args.peer_inputs:
        sentences = json.load(sys.stdin)
        if not current(args.model, out):
            export_and_check(args.model, out, not args.no_check, sys.stderr)
        json.dump({"dir": out, "sources": sources(args.model, sentences)}, sys.stdout)
        return
    export_and_check(args.model, out, not args.no_check, sys.stdout)


def export_and_check(model_path, out, run_check, stream):
    """Exports into a fresh folder beside out and renames it to out once checked, so that a
    bench reading out (or one exporting at the same time) never sees half a set, and graphs
    that fail the check are never left where the bench looks."""
    parent = os.path.dirname(os.path.abspath(out))
    os.makedirs(parent, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=os.path.basename(out) + ".", dir=parent)
    try:
        info = export_graphs(model_path, tmp)
        line = {"dir": out, "scoring": info["scoring"], "decoder": info["decoder"]}
        if run_check:
            line["check"] = check(model_path, tmp)
        if os.path.isdir(out):
            shutil.rmtree(out)
        try:
            os.rename(tmp, out)
        except OSError:
            if not current(model_path, out):  # not another process's equal export: a fault
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(json.dumps(line), file=stream)


def current(model_path, out):
    """The graphs in out were exported, by this exporter, from this very model file."""
    try:
        with open(os.path.join(out, "peer.json")) as f:
            info = json.load(f)
    except (OSError, ValueError):
        return False
    return (info.get("exporter_version") == EXPORTER_VERSION
            and info.get("model_sha256") == sha256(model_path)
            and all(os.path.exists(os.path.join(out, g)) for g in info["graphs"].values()))


def default_dir(model_path):
    name = os.path.basename(model_path).removesuffix(".safetensors")
    return os.path.join(data.ROOT, "build", "onnx", f"{name}-{sha256(model_path)[:12]}")


if __name__ == "__main__":
    main()
