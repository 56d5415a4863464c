"""The Transformer's tensor naming: PyTorch state dict <-> the file's names (docs/model-format.md).

Every 2-D tensor is quantized per row in int8 files, as in the RNN models; biases and the
LayerNorm gains and offsets stay f32.
"""
import numpy as np
import torch

from .transformer import Transformer

CONFIG_KEYS = ("arch", "src_lang", "tgt_lang", "scoring", "emb", "d_model", "heads", "ffn", "enc_layers",
               "dec_layers", "src_vocab", "tgt_vocab", "max_src_len", "max_tgt_len")
ATTN = (("Wq", "bq", "Wq"), ("Wk", "bk", "Wk"), ("Wv", "bv", "Wv"), ("Wo", "bo", "Wo"))


def _names(cfg):
    """(file name, state-dict name) for every tensor."""
    pairs = [("src_emb", "src_emb.weight"), ("tgt_emb", "tgt_emb.weight"),
             ("src_in.W", "src_in.weight"), ("tgt_in.W", "tgt_in.weight"),
             ("enc.ln.g", "enc_ln.weight"), ("enc.ln.b", "enc_ln.bias"),
             ("dec.ln.g", "dec_ln.weight"), ("dec.ln.b", "dec_ln.bias"),
             ("out_proj.W", "out_proj.weight"), ("dec.out.b", "out_b")]

    def attn(ours, theirs):
        for W, b, mod in ATTN:
            pairs.extend([(f"{ours}.{W}", f"{theirs}.{mod}.weight"),
                          (f"{ours}.{b}", f"{theirs}.{mod}.bias")])

    def block(ours, theirs, lns, attns):
        for ln in lns:
            pairs.extend([(f"{ours}.{ln}.g", f"{theirs}.{ln}.weight"),
                          (f"{ours}.{ln}.b", f"{theirs}.{ln}.bias")])
        for a_ours, a_theirs in attns:
            attn(f"{ours}.{a_ours}", f"{theirs}.{a_theirs}")
        for ff in ("ff1", "ff2"):
            pairs.extend([(f"{ours}.{ff}.W", f"{theirs}.{ff}.weight"),
                          (f"{ours}.{ff}.b", f"{theirs}.{ff}.bias")])

    for i in range(cfg["enc_layers"]):
        block(f"enc.{i}", f"enc.{i}", ("ln1", "ln2"), (("self", "self_attn"),))
    for i in range(cfg["dec_layers"]):
        block(f"dec.{i}", f"dec.{i}", ("ln1", "ln2", "ln3"),
              (("self", "self_attn"), ("cross", "cross_attn")))
    return pairs


def to_tensors(model):
    sd = {k: v.detach().cpu().numpy().astype(np.float32) for k, v in model.state_dict().items()}
    return {ours: sd[theirs] for ours, theirs in _names(model.cfg)}


def from_tensors(t, cfg):
    model = Transformer(dict(cfg, dropout=0.0))
    model.load_state_dict({theirs: torch.from_numpy(np.asarray(t[ours], dtype=np.float32))
                           for ours, theirs in _names(cfg)})
    model.eval()
    return model
