"""--init-encoder: start a new language pair's English side from a trained model's.

English->Chinese has 28k pairs, English->French 166k. The encoder only reads English, so the
annotations h_j that en-fr learned are a head start for en-zh: the source embeddings (row by
row, for every English token both vocabularies hold) and the bidirectional GRU are copied, and
everything that depends on the target language (decoder, attention, readout, target
embeddings) starts fresh. Copied rows keep training; nothing is frozen.
"""
import torch

from . import export

ENCODER_PREFIXES = ("encoder.",)


def init_encoder(model, src_itos, path):
    """Copies path's English embeddings and encoder into model. Returns a one-line summary.
    Exits with a clear message when the two encoders do not have the same shape."""
    donor, meta = export.load_model(path)
    mine, theirs = model.state_dict(), donor.state_dict()
    if mine["src_emb.weight"].shape[1] != theirs["src_emb.weight"].shape[1]:
        raise SystemExit(f"--init-encoder: {path} has embeddings of width "
                         f"{theirs['src_emb.weight'].shape[1]}, this model "
                         f"{mine['src_emb.weight'].shape[1]} (set --config emb)")
    copied = {}
    for name, tensor in theirs.items():
        if name.startswith(ENCODER_PREFIXES):
            if name not in mine or mine[name].shape != tensor.shape:
                raise SystemExit(f"--init-encoder: {path}'s {name} has shape "
                                 f"{tuple(tensor.shape)}, this model's "
                                 f"{tuple(mine[name].shape) if name in mine else 'none'} "
                                 "(set --config enc_hidden and emb to the donor's)")
            copied[name] = tensor
    donor_row = {w: i for i, w in enumerate(meta["src_itos"])}
    emb = mine["src_emb.weight"].clone()
    shared = 0
    with torch.no_grad():
        for i, w in enumerate(src_itos):
            j = donor_row.get(w)
            if j is not None and i > 0:  # row 0 is padding: it stays zero
                emb[i] = theirs["src_emb.weight"][j]
                shared += 1
    copied["src_emb.weight"] = emb
    model.load_state_dict({**mine, **copied})
    return (f"English encoder from {path}: {len(copied) - 1} GRU tensors, {shared} of "
            f"{len(src_itos)} English embeddings")
