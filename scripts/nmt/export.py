"""PyTorch model <-> bahdanau-live safetensors file (docs/model-format.md): f32, int8 and q4."""
import json

import numpy as np
import torch

from . import export_transformer, q4, safetensors_io, tokenizer
from .model import Bahdanau

FORMAT = "bahdanau-live"
FORMAT_VERSION = 1
CONFIG_KEYS = ("src_lang", "tgt_lang", "scoring", "emb", "enc_hidden", "dec_hidden", "attn",
               "maxout", "src_vocab", "tgt_vocab", "max_src_len", "max_tgt_len")
# Written only when not the default, so files of the paper's decoder stay as they were.
OPTIONAL_CONFIG = {"decoder": "paper", "attention_guidance": "none"}
DEC_GRUS = {"paper": (("dec.gru", "decoder"),),
            "cgru": (("dec.gru1", "decoder1"), ("dec.gru2", "decoder2"))}


def _gru(prefix, w_ih, w_hh, b_ih, b_hh):
    return {f"{prefix}.W_ih": w_ih, f"{prefix}.W_hh": w_hh, f"{prefix}.b_ih": b_ih,
            f"{prefix}.b_hh": b_hh}


def to_tensors(model):
    """File tensor name -> numpy f32, in the file's naming (one place maps the two namings)."""
    if model.cfg.get("arch") == "transformer":
        return export_transformer.to_tensors(model)
    sd = {k: v.detach().cpu().numpy().astype(np.float32) for k, v in model.state_dict().items()}
    t = {"src_emb": sd["src_emb.weight"], "tgt_emb": sd["tgt_emb.weight"],
         "dec.init.W": sd["init.weight"], "dec.init.b": sd["init.bias"],
         "dec.readout.W": sd["readout.weight"], "dec.readout.b": sd["readout.bias"],
         "dec.out.b": sd["out_b"]}
    if "att_W.weight" in sd:  # not in a model without attention
        t["att.W"], t["att.U"] = sd["att_W.weight"], sd["att_U.weight"]
    if "att_v" in sd:
        t["att.v"] = sd["att_v"]
    e = "encoder.{}_l0"
    t.update(_gru("enc.fwd", *(sd[e.format(n)] for n in
                               ("weight_ih", "weight_hh", "bias_ih", "bias_hh"))))
    t.update(_gru("enc.bwd", *(sd[e.format(n) + "_reverse"] for n in
                               ("weight_ih", "weight_hh", "bias_ih", "bias_hh"))))
    for ours, theirs in DEC_GRUS[model.cfg.get("decoder", "paper")]:
        t.update(_gru(ours, *(sd[f"{theirs}.{n}"] for n in
                              ("weight_ih", "weight_hh", "bias_ih", "bias_hh"))))
    return t


def from_tensors(t, cfg):
    if cfg.get("arch") == "transformer":
        return export_transformer.from_tensors(t, cfg)
    model = Bahdanau(dict(cfg, dropout=0.0))
    sd = {"src_emb.weight": t["src_emb"], "tgt_emb.weight": t["tgt_emb"],
          "init.weight": t["dec.init.W"], "init.bias": t["dec.init.b"],
          "readout.weight": t["dec.readout.W"], "readout.bias": t["dec.readout.b"],
          "out_b": t["dec.out.b"]}
    if cfg["scoring"] != "none":
        sd["att_W.weight"], sd["att_U.weight"] = t["att.W"], t["att.U"]
    for ours, theirs in DEC_GRUS[cfg.get("decoder", "paper")]:
        for o, th in (("W_ih", "weight_ih"), ("W_hh", "weight_hh"), ("b_ih", "bias_ih"),
                      ("b_hh", "bias_hh")):
            sd[f"{theirs}.{th}"] = t[f"{ours}.{o}"]
    if cfg["scoring"] == "additive":
        sd["att_v"] = t["att.v"]
    for d, suffix in (("fwd", ""), ("bwd", "_reverse")):
        for ours, theirs in (("W_ih", "weight_ih"), ("W_hh", "weight_hh"), ("b_ih", "bias_ih"),
                             ("b_hh", "bias_hh")):
            sd[f"encoder.{theirs}_l0{suffix}"] = t[f"enc.{d}.{ours}"]
    model.load_state_dict({k: torch.from_numpy(np.asarray(v, dtype=np.float32))
                           for k, v in sd.items()})
    model.eval()
    return model


def quantize_rows(w):
    """Symmetric int8 with one scale per output row: w ~= q * scale[:, None]."""
    amax = np.abs(w).max(axis=1)
    scale = np.where(amax > 0, amax / 127.0, 1.0).astype(np.float32)
    q = np.clip(np.rint(w / scale[:, None]), -127, 127).astype(np.int8)
    return q, scale


def dequantize(tensors):
    """int8 or q4 file tensors -> f32 tensors, exactly as the core sees them (q * scale in f32)."""
    out = {}
    for name, arr in tensors.items():
        if name.endswith(".scale"):
            continue
        if arr.dtype == np.uint8:
            out[name] = q4.dequantize(arr, tensors[name + ".scale"])
        elif arr.dtype == np.int8:
            out[name] = arr.astype(np.float32) * tensors[name + ".scale"][:, None]
        else:
            out[name] = arr
    return out


def metadata(cfg, meta, dtype, extra=None):
    if cfg.get("arch") == "transformer":
        config = {k: cfg[k] for k in export_transformer.CONFIG_KEYS}
    else:
        config = {k: cfg[k] for k in CONFIG_KEYS}
    if cfg["scoring"] == "none":
        config["attn"] = 0  # no scoring network, so no attention width (the loaders check it)
    for k, default in OPTIONAL_CONFIG.items():
        if cfg.get(k, default) != default:
            config[k] = cfg[k]
    config["dtype"] = dtype
    md = {"format": FORMAT, "format_version": FORMAT_VERSION,
          "tokenizer_version": tokenizer.SPEC_VERSION,
          "config": json.dumps(config),
          "src_vocab": json.dumps(meta["src_itos"], ensure_ascii=False),
          "tgt_vocab": json.dumps(meta["tgt_itos"], ensure_ascii=False),
          "src_names": json.dumps(meta["src_names"], ensure_ascii=False),
          "tgt_names": json.dumps(meta["tgt_names"], ensure_ascii=False)}
    if extra:
        md["training"] = json.dumps(extra)
    return md


def quantize(t, dtype):
    """f32 file tensors -> the tensors of a file of dtype (f32, int8 or q4)."""
    if dtype == "f32":
        return dict(t)
    q = {}
    for name, arr in t.items():
        if arr.ndim != 2:
            q[name] = arr
        elif dtype == "int8":
            q[name], q[name + ".scale"] = quantize_rows(arr)
        elif dtype == "q4":
            codes, q[name + ".scale"] = q4.quantize(arr)
            q[name] = q4.pack(codes)
        else:
            raise ValueError(f"unknown dtype {dtype!r}")
    return q


def save_model(path, model, meta, dtype="f32", extra=None):
    safetensors_io.save(path, quantize(to_tensors(model), dtype),
                        metadata(model.cfg, meta, dtype, extra))


def load_model(path):
    """Returns (model, meta) with int8 weights dequantized as stored."""
    t, md = safetensors_io.load(path)
    cfg = json.loads(md["config"])
    meta = {"cfg": cfg, "src_itos": json.loads(md["src_vocab"]),
            "tgt_itos": json.loads(md["tgt_vocab"]),
            "src_names": json.loads(md["src_names"]), "tgt_names": json.loads(md["tgt_names"]),
            # the spec its vocabulary was made with: the engines tokenize with it, and so does
            # the reference (search.Translator)
            "tokenizer_version": int(md["tokenizer_version"])}
    return from_tensors(dequantize(t), cfg), meta


def convert_file(src, out, dtype, note=None):
    """A model file re-written in another dtype: its weights as the engine sees them (int8 or q4
    dequantized), quantized again; the metadata kept, with the dtype changed and, in the
    training record, where the weights came from (note)."""
    t, md = safetensors_io.load(src)
    cfg = json.loads(md["config"])
    cfg["dtype"] = dtype
    md = dict(md, config=json.dumps(cfg))
    if note:
        rec = json.loads(md["training"]) if "training" in md else {}
        rec["converted"] = note
        md["training"] = json.dumps(rec)
    safetensors_io.save(out, quantize(dequantize(t), dtype), md)
