"""The no-attention baseline (scoring "none", the paper's RNNencdec): one fixed context."""
import json

import pytest
import torch

from nmt import data, export, golden, safetensors_io
from nmt.search import Translator


@pytest.mark.parametrize("decoder", ["paper", "cgru"])
def test_context_is_the_last_states_of_both_directions_at_every_step(decoder):
    model, meta = golden.tiny_model("none", 21, decoder)
    tr = Translator(model, meta)
    _, ids = tr.source("The black cat is sleeping.")
    h, _, _, _ = tr.encode(ids)
    H = h.size(2) // 2
    c = torch.cat([h[0, -1, :H], h[0, 0, H:]])  # [->h_T; <-h_1]
    steps = tr.greedy(ids)
    assert len(steps) > 2
    for st in steps:
        assert st["alpha"] == [] and st["e"] == []
        assert st["c"] == c.tolist()


def test_batched_context_ignores_padding():
    """Training pads short sentences: their c must be the states at their own last token."""
    model, _ = golden.tiny_model("none", 22, "cgru")
    src = torch.tensor([[5, 6, 7, 8, 3], [9, 10, 3, 0, 0]])
    lens = torch.tensor([5, 3])
    h, _, _ = model.encode(src, lens)
    mask = torch.arange(5).unsqueeze(0) < lens.unsqueeze(1)
    _, alpha, c = model.attend(None, h, None, mask)
    alone, _, _ = model.encode(src[1:, :3], lens[1:])
    H = h.size(2) // 2
    assert alpha.shape == (2, 0)
    assert torch.allclose(c[1], torch.cat([alone[0, 2, :H], alone[0, 0, H:]]), atol=1e-6)


def test_never_writes_unk_and_round_trips(tmp_path):
    model, meta = golden.tiny_model("none", 16, "cgru")  # <unk> bias raised: it ranks first often
    tr = Translator(model, meta)
    ranked_first = 0
    for text in golden.TINY_INPUTS:
        _, ids = tr.source(text)
        if not ids:
            continue
        steps = tr.greedy(ids)
        ranked_first += sum(st["top_ids"][0] == data.UNK for st in steps)
        assert data.UNK not in [st["token"] for st in steps]
        assert data.UNK not in tr.beam(ids, 3)[0]["ids"]
    assert ranked_first > 0, "the test never met an <unk> ranked first"

    path = str(tmp_path / "none.safetensors")
    export.save_model(path, model, meta, "int8")
    tensors, md = safetensors_io.load(path)
    assert not any(name.startswith("att.") for name in tensors)
    cfg = json.loads(md["config"])
    assert cfg["scoring"] == "none" and cfg["attn"] == 0
    again, _ = export.load_model(path)
    assert not again.attention
