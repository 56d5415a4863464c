"""--init-encoder copies a donor's English side into a fresh model of another target language."""
import os
import sys

import pytest
import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "scripts"))
from nmt import export, init_encoder  # noqa: E402
from nmt.model import Bahdanau, default_config  # noqa: E402

FIX = os.path.join(os.path.dirname(__file__), "..", "fixtures", "tiny-additive-f32.safetensors")


def fresh(**over):
    donor, meta = export.load_model(FIX)
    cfg = dict(donor.cfg, tgt_lang="zh", tgt_vocab=7, **over)
    torch.manual_seed(3)
    return Bahdanau(default_config(**cfg)), donor, meta


def test_copies_shared_english_rows_and_the_encoder_and_leaves_the_rest():
    model, donor, meta = fresh()
    before = {k: v.clone() for k, v in model.state_dict().items()}
    src_itos = meta["src_itos"][:3] + ["zzz-not-in-donor"] + meta["src_itos"][3:]
    src_itos = src_itos[:model.cfg["src_vocab"]]
    summary = init_encoder.init_encoder(model, src_itos, FIX)
    mine, theirs = model.state_dict(), donor.state_dict()
    for name in theirs:
        if name.startswith("encoder."):
            assert torch.equal(mine[name], theirs[name]), name
    row = {w: i for i, w in enumerate(meta["src_itos"])}
    assert torch.equal(mine["src_emb.weight"][4], theirs["src_emb.weight"][row[src_itos[4]]])
    assert torch.equal(mine["src_emb.weight"][3], before["src_emb.weight"][3])  # unknown word
    assert torch.equal(mine["src_emb.weight"][0], before["src_emb.weight"][0])  # padding
    assert torch.equal(mine["tgt_emb.weight"], before["tgt_emb.weight"])
    assert torch.equal(mine["readout.weight"], before["readout.weight"])
    assert "English encoder from" in summary


def test_refuses_an_encoder_of_another_width():
    model, _, meta = fresh(enc_hidden=default_config()["enc_hidden"] + 8)
    with pytest.raises(SystemExit, match="enc_hidden"):
        init_encoder.init_encoder(model, meta["src_itos"][:model.cfg["src_vocab"]], FIX)
